#!/usr/bin/env python3
"""Turns a linked code object into its final form (docs/aql.md, "Code objects").

make_code_object.py OBJCOPY LINKED.elf CHECK.elf OUT.co

LINKED.elf is the image linked at base 0, CHECK.elf the same objects linked
at another base. The script
  1. fails unless both have identical PT_LOAD bytes (the image must be
     position independent: the host loader places it anywhere in DRAM);
  2. reads the AVP_HSA_KERNEL metadata records (section .avp.hsa_meta,
     layout of struct avp_hsa_kernel_meta in avp/hsa_kernel.h) and checks
     that every kernel has a 64-byte `<name>.kd` symbol;
  3. writes OUT.co: LINKED.elf without .avp.hsa_meta and with a note section
     .note.accelvp (name "ACCELVP", type 10) holding the YAML metadata in the
     schema of the AMDHSA Code Object Metadata (Version 1.0), kernels sorted by name.
"""
import struct
import subprocess
import sys
import tempfile

NOTE_NAME = b"ACCELVP\0"
NOTE_TYPE = 10
MAX_ARGS = 16
ARG = struct.Struct("<32s32s16s3I")
KERNEL_HEAD = struct.Struct("<64s8I")  # ... max_flat_workgroup_size, padding
KERNEL_SIZE = KERNEL_HEAD.size + MAX_ARGS * ARG.size


def fail(msg):
    sys.exit("make_code_object: " + msg)


class Elf:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b"\x7fELF" or d[4] != 2 or d[5] != 1:
            fail(path + ": not a little-endian ELF64 file")
        (self.phoff, self.shoff) = struct.unpack_from("<QQ", d, 32)
        (self.phentsize, self.phnum, self.shentsize, self.shnum, shstrndx) = struct.unpack_from("<5H", d, 54)
        self.sections = {}
        headers = [struct.unpack_from("<IIQQQQIIQQ", d, self.shoff + i * self.shentsize) for i in range(self.shnum)]
        names = headers[shstrndx]
        for h in headers:
            self.sections[self.cstr(names[4] + h[0])] = h
        self.headers = headers

    def cstr(self, off):
        return self.data[off:self.data.index(b"\0", off)].decode()

    def section(self, name):
        h = self.sections.get(name)
        return None if h is None else self.data[h[4]:h[4] + h[5]]

    def loaded(self):
        segs = []
        for i in range(self.phnum):
            p_type, _, off, vaddr, _, filesz, memsz, _ = struct.unpack_from("<IIQQQQQQ", self.data, self.phoff + i * self.phentsize)
            if p_type == 1:
                segs.append((memsz, self.data[off:off + filesz]))
        return segs

    def symbols(self):
        symtab = self.sections[".symtab"]
        strtab = self.headers[symtab[6]]
        syms = {}
        for off in range(symtab[4], symtab[4] + symtab[5], 24):
            name, _, _, _, value, size = struct.unpack_from("<IBBHQQ", self.data, off)
            if name:
                syms[self.cstr(strtab[4] + name)] = (value, size)
        return syms


def text(raw):
    return raw.split(b"\0", 1)[0].decode()


def metadata(elf):
    raw = elf.section(".avp.hsa_meta")
    if not raw:
        fail("no kernels: define them with AVP_HSA_KERNEL (avp/hsa_kernel.h)")
    if len(raw) % KERNEL_SIZE:
        fail(".avp.hsa_meta is %d bytes, not a multiple of the %d-byte record" % (len(raw), KERNEL_SIZE))
    syms = elf.symbols()
    lines = ["Version: [ 1, 0 ]", "Kernels:"]
    records = sorted(range(0, len(raw), KERNEL_SIZE), key=lambda off: text(KERNEL_HEAD.unpack_from(raw, off)[0]))
    for off in records:
        name, kernarg_size, kernarg_align, group, private, dims, nargs, max_flat, _ = KERNEL_HEAD.unpack_from(raw, off)
        name = text(name)
        kd = syms.get(name + ".kd")
        if kd is None or kd[1] != 64 or kd[0] % 64:
            fail("kernel %s: no 64-byte, 64-byte aligned descriptor symbol %s.kd" % (name, name))
        lines += ["  - Name: " + name, "    SymbolName: %s.kd" % name, "    Language: C",
                  "    Attrs:", "      accelvp.WorkGroupIdDims: %d" % dims]
        if nargs:
            lines.append("    Arguments:")
        next_off = 0
        for a in range(nargs):
            aname, kind, vtype, size, align, aoff = ARG.unpack_from(raw, off + KERNEL_HEAD.size + a * ARG.size)
            laid_out = -(-next_off // align) * align
            if aoff != laid_out:
                fail("kernel %s: argument %s is at offset %d, not %d: list every field of the argument "
                     "struct in order with AVP_HSA_ARG" % (name, text(aname), aoff, laid_out))
            next_off = aoff + size
            lines += ["      - Name: " + text(aname), "        Size: %d" % size, "        Align: %d" % align,
                      "        ValueKind: " + text(kind), "        ValueType: " + text(vtype),
                      "        accelvp.Offset: %d" % aoff]
        lines += ["    CodeProps:", "      KernargSegmentSize: %d" % kernarg_size,
                  "      GroupSegmentFixedSize: %d" % group, "      PrivateSegmentFixedSize: %d" % private,
                  "      KernargSegmentAlign: %d" % kernarg_align, "      WavefrontSize: 1",
                  "      MaxFlatWorkgroupSize: %d" % max_flat]
    return ("\n".join(lines) + "\n").encode() + b"\0"


def note(desc):
    pad = lambda b: b + b"\0" * (-len(b) % 4)
    return struct.pack("<III", len(NOTE_NAME), len(desc), NOTE_TYPE) + pad(NOTE_NAME) + pad(desc)


def main():
    if len(sys.argv) != 5:
        fail("usage: make_code_object.py OBJCOPY LINKED.elf CHECK.elf OUT.co")
    objcopy, linked, check, out = sys.argv[1:]
    elf = Elf(linked)
    if elf.loaded() != Elf(check).loaded():
        fail(linked + ": the image depends on its load address (absolute addresses in code or data); "
             "code objects must be position independent")
    with tempfile.NamedTemporaryFile(suffix=".note") as f:
        f.write(note(metadata(elf)))
        f.flush()
        subprocess.run([objcopy, "--remove-section=.avp.hsa_meta", "--add-section", ".note.accelvp=" + f.name,
                        linked, out], check=True)
    # objcopy 2.40 ignores the alignment of a section added in the same run.
    subprocess.run([objcopy, "--set-section-alignment", ".note.accelvp=4", out], check=True)


if __name__ == "__main__":
    main()
