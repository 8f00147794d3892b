// RISC-V disassembler on top of the ISS decoder (one source of truth for what
// an encoding means). Output follows GNU objdump's default style: ABI register
// names, its aliases (li, mv, ret, j, beqz, csrr, fmv.d, ...), branch and jump
// targets as absolute hex addresses followed by "<symbol+off>" when the
// symbol table knows them. Compressed instructions are shown as their 32-bit
// expansion under the same alias rules (c.addi a0,1 -> "addi a0,a0,1",
// c.mv -> "mv"). Unknown encodings show as ".word"/".short" with their bits.
#pragma once
#include <cstdint>
#include <string>

#include "harts/rv_insn.h"

namespace avp::rv {

std::string disassemble(const Insn& d, uint64_t pc);
// Decodes and disassembles raw bits as recorded by the ISS (Insn::raw: 16 bits
// for compressed instructions).
std::string disassemble_raw(uint32_t raw, uint64_t pc);

// "fcvt.w.s" for FCVT_W_S.
std::string op_mnemonic(Op op);
// "0x40010018 <main+0x8>  00a5b023  sd a0,0(a1)": pc, symbol, encoding and
// disassembly, as trace lines and error reports show an instruction.
std::string describe_insn(uint64_t pc, uint32_t raw);
std::string describe_insn(uint64_t pc, const Insn& d);

const char* xreg_name(unsigned r);
const char* freg_name(unsigned r);
// The CSR's name, or "0x7c0" style hex for CSRs without one.
std::string csr_name(unsigned csr);

// FP part (rv_disasm_fp.cpp): mnemonic and operands of an F/D instruction.
std::string disassemble_fp(const Insn& d);

}  // namespace avp::rv
