#!/usr/bin/env python3
"""Checks device ELFs against the memory map their SDK target promises:
RV64 ELF with the lp64d ABI and RVC, every loaded byte inside the target's
loadable regions, the entry where the target's loader starts, and for
kernels no TLS segment. Usage: check_elf_layout.py TARGET FILE..."""
import struct
import sys

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
LOADABLE = {  # regions whose contents a loader may write
    "accelvp": [(0x1000, 60 * KIB), (0x4000_0000, 2 * GIB)],
    "qemu-virt": [(0x8000_0000, 128 * MIB)],
    "qemu-user": [(0x1_0000, 256 * MIB)],
    "kernel": [(0x1_0000, 0x0FFF_0000), (0x4000_0000, 2 * GIB), (0x8000_0000, 128 * MIB)],
}
ENTRY = {"accelvp": 0x4000_0000, "qemu-virt": 0x8000_0000, "qemu-user": 0x1_0000}
PT_LOAD, PT_TLS = 1, 7
EM_RISCV = 243
EF_RISCV_RVC, EF_RISCV_FLOAT_ABI_DOUBLE = 0x1, 0x4


def check(target, path):
    with open(path, "rb") as f:
        data = f.read()
    errors = []
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return ["not a little-endian ELF64 file"]
    (e_type, e_machine, _, e_entry, e_phoff, _, e_flags, _, e_phentsize, e_phnum) = struct.unpack_from(
        "<HHIQQQIHHH", data, 16)
    if e_machine != EM_RISCV:
        errors.append("e_machine %d is not RISC-V" % e_machine)
    if e_flags & 0x7 != EF_RISCV_RVC | EF_RISCV_FLOAT_ABI_DOUBLE:
        errors.append("e_flags %#x: expected RVC and the lp64d ABI" % e_flags)
    if target in ENTRY and e_entry != ENTRY[target]:
        errors.append("entry %#x, expected %#x" % (e_entry, ENTRY[target]))
    for i in range(e_phnum):
        p_type, _, _, p_vaddr, p_paddr, p_filesz, p_memsz, _ = struct.unpack_from(
            "<IIQQQQQQ", data, e_phoff + i * e_phentsize)
        if p_type == PT_TLS and target == "kernel":
            errors.append("kernel has a TLS segment")
        if p_type != PT_LOAD or p_memsz == 0:
            continue
        if p_vaddr != p_paddr:
            errors.append("segment %d: vaddr %#x != paddr %#x (nothing is copied at start-up)" % (i, p_vaddr, p_paddr))
        if not any(base <= p_vaddr and p_vaddr + p_memsz <= base + size for base, size in LOADABLE[target]):
            errors.append("segment %d [%#x, %#x) outside the loadable regions" % (i, p_vaddr, p_vaddr + p_memsz))
    return errors


def main():
    target, files = sys.argv[1], sys.argv[2:]
    failed = 0
    for path in files:
        errors = check(target, path)
        print("%s %s: %s" % (target, path, "ok" if not errors else "; ".join(errors)))
        failed += bool(errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
