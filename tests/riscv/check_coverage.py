#!/usr/bin/env python3
"""Checks that the ISA test programs execute every RV64IMAFDC + Zicsr +
Zifencei instruction (and mret/sret): disassembles the test programs' own
object files (not the linked ELFs, whose C library code would count too)
and lists every mnemonic of the ISA that none of them contains."""
import argparse
import re
import subprocess
import sys

RV64I = """lui auipc jal jalr beq bne blt bge bltu bgeu lb lh lw ld lbu lhu lwu sb sh sw sd
addi slti sltiu xori ori andi slli srli srai add sub sll slt sltu xor srl sra or and
fence fence.tso ecall ebreak addiw slliw srliw sraiw addw subw sllw srlw sraw"""
ZI = "fence.i csrrw csrrs csrrc csrrwi csrrsi csrrci"
RV64M = "mul mulh mulhsu mulhu div divu rem remu mulw divw divuw remw remuw"
AMO_OPS = "lr sc amoswap amoadd amoxor amoand amoor amomin amomax amominu amomaxu".split()
RV64A = " ".join("%s.%s" % (op, w) for op in AMO_OPS for w in "wd")
FP_COMMON = """fmadd fmsub fnmsub fnmadd fadd fsub fmul fdiv fsqrt fsgnj fsgnjn fsgnjx fmin fmax
feq flt fle fclass""".split()
RV64F = " ".join("%s.s" % op for op in FP_COMMON) + """ flw fsw fcvt.w.s fcvt.wu.s fmv.x.w fcvt.s.w fcvt.s.wu
fmv.w.x fcvt.l.s fcvt.lu.s fcvt.s.l fcvt.s.lu"""
RV64D = " ".join("%s.d" % op for op in FP_COMMON) + """ fld fsd fcvt.s.d fcvt.d.s fcvt.w.d fcvt.wu.d fcvt.d.w
fcvt.d.wu fcvt.l.d fcvt.lu.d fmv.x.d fcvt.d.l fcvt.d.lu fmv.d.x"""
RV64C = """c.addi4spn c.fld c.lw c.ld c.fsd c.sw c.sd c.nop c.addi c.addiw c.li c.addi16sp c.lui c.srli
c.srai c.andi c.sub c.xor c.or c.and c.subw c.addw c.j c.beqz c.bnez c.slli c.fldsp c.lwsp c.ldsp c.jr
c.mv c.ebreak c.jalr c.add c.fsdsp c.swsp c.sdsp"""
PRIV = "mret sret"
ISA = {"RV64I": RV64I, "Zicsr/Zifencei": ZI, "RV64M": RV64M, "RV64A": RV64A, "RV64F": RV64F,
       "RV64D": RV64D, "RV64C": RV64C, "privileged": PRIV}

INSN = re.compile(r"^\s*[0-9a-f]+:\s+(?:[0-9a-f]{4,8}\s+)+([a-z][a-z0-9.]*)\s*(\S*)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdump", required=True)
    ap.add_argument("objects", nargs="+")
    args = ap.parse_args()
    seen = set()
    for obj in args.objects:
        out = subprocess.run([args.objdump, "-d", "-M", "no-aliases", obj], stdout=subprocess.PIPE,
                             check=True).stdout.decode()
        for line in out.splitlines():
            m = INSN.match(line)
            if m:
                mnemonic = re.sub(r"\.(aqrl|aq|rl)$", "", m.group(1))
                if mnemonic == "c.addi" and m.group(2) == "zero,0":
                    mnemonic = "c.nop"  # objdump -M no-aliases prints c.nop as "c.addi zero,0"
                seen.add(mnemonic)
    missing, total = [], 0
    for ext, names in ISA.items():
        names = names.split()
        total += len(names)
        miss = [n for n in names if n not in seen]
        print("%-15s %3d/%3d%s" % (ext, len(names) - len(miss), len(names),
                                   "  missing: " + " ".join(miss) if miss else ""))
        missing += miss
    print("%d of %d instructions covered" % (total - len(missing), total))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
