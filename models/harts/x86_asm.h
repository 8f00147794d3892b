// The few x86-64 instructions the block translator (block_translator.cpp)
// emits, encoded into a byte buffer. Registers are numbered as the ISA does
// (rax 0 .. r15 15); `w` selects 64-bit operands (REX.W), 32-bit otherwise.
// Memory operands are [base + disp32].
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

namespace avp::x86 {

enum Reg : uint8_t { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };
// Group-1 ALU operations: the /digit of 81 /d and the opcode base of the r/m, r form (base + 1).
enum Alu : uint8_t { ADD = 0, OR = 1, AND = 4, SUB = 5, XOR = 6, CMP = 7 };
enum Shift : uint8_t { SHL = 4, SHR = 5, SAR = 7 };
enum Cond : uint8_t { B = 2, AE = 3, E = 4, NE = 5, BE = 6, A = 7, L = 0xC, GE = 0xD, LE = 0xE, G = 0xF };
enum Xmm : uint8_t { XMM0, XMM1, XMM2, XMM3, XMM4, XMM5 };
// Scalar operations (sd: F2 0F op, ss: F3 0F op).
enum SseOp : uint8_t {
  SSE_SQRT = 0x51, SSE_ADD = 0x58, SSE_MUL = 0x59, SSE_SUB = 0x5C, SSE_MIN = 0x5D, SSE_DIV = 0x5E, SSE_MAX = 0x5F
};
// Fused multiply-adds dst = +-(src * m) +- dst (the 231 forms, VEX.66.0F38, W1 for sd, W0 for ss).
enum FmaOp : uint8_t { VFMADD231 = 0xB9, VFMSUB231 = 0xBB, VFNMADD231 = 0xBD, VFNMSUB231 = 0xBF };

class Asm {
 public:
  // Room for a typical block's code at once: growing from empty reallocated
  // and copied it about ten times per block.
  Asm() { b_.reserve(4096); }
  std::vector<uint8_t>& bytes() { return b_; }
  size_t size() const { return b_.size(); }

  void mov(Reg dst, Reg src) {
    if (dst != src) rr(0x89, src, dst, true);
  }
  void load(Reg dst, Reg base, int32_t disp) { mem(0x8B, dst, base, disp); }
  void lea(Reg dst, Reg base, int32_t disp) { mem(0x8D, dst, base, disp); }  // dst = base + disp
  void load32(Reg dst, Reg base, int32_t disp) { mem(0x8B, dst, base, disp, false); }  // zero-extended
  // dst = the `bytes` (1, 2, 4, 8) at [base + disp], sign- or zero-extended to 64 bits.
  void load_extended(Reg dst, Reg base, int32_t disp, unsigned bytes, bool sign) {
    if (bytes == 8) return load(dst, base, disp);
    if (bytes == 4) return sign ? mem(0x63, dst, base, disp) : load32(dst, base, disp);  // movsxd / mov r32
    rex(sign, dst, base);
    put(0x0F);
    put(static_cast<uint8_t>((bytes == 1 ? 0xB6 : 0xB7) | (sign ? 0x08 : 0)));  // movzx / movsx
    address(dst, base, disp);
  }
  void store(Reg base, int32_t disp, Reg src) { mem(0x89, src, base, disp); }
  // mov dst32, [base + index * 4 + disp], zero-extended
  void load32_indexed4(Reg dst, Reg base, Reg index, int32_t disp) { indexed(0x8B, dst, base, index, 2, disp, false); }
  // mov [base + index * 8 + disp], src
  void store_indexed8(Reg base, Reg index, Reg src, int32_t disp = 0) { indexed(0x89, src, base, index, 3, disp, true); }
  // [base + disp] = the low `bytes` (1, 2, 4, 8) of src.
  void store_sized(Reg base, int32_t disp, Reg src, unsigned bytes) {
    if (bytes == 8) return store(base, disp, src);
    if (bytes == 2) put(0x66);  // operand-size prefix
    if (bytes == 1 && (src & 7) >= 4 && src < 8 && base < 8) put(0x40);  // sil/dil, not dh/bh
    mem(bytes == 1 ? 0x88 : 0x89, src, base, disp, false);
  }
  void store_byte_imm(Reg base, int32_t disp, uint8_t v) {  // mov byte [base + disp], v
    mem(0xC6, 0, base, disp, false);
    put(v);
  }
  // cmp byte [base + index], v (base not rbp or r13)
  void cmp_byte_imm(Reg base, int32_t disp, uint8_t v) {  // cmp byte [base + disp], v
    mem(0x80, 7, base, disp, false);
    put(v);
  }
  void cmp_byte_indexed(Reg base, Reg index, uint8_t v) {
    indexed(0x80, 7, base, index, 0, 0, false);
    put(v);
  }
  void mov_imm(Reg dst, uint64_t v) {
    if (static_cast<int64_t>(v) == static_cast<int32_t>(v)) {  // sign-extended imm32
      rex(true, 0, dst);
      put(0xC7);
      modrm(3, 0, dst);
      imm32(static_cast<uint32_t>(v));
    } else {
      rex(true, 0, dst);
      put(0xB8 + (dst & 7));
      put_bytes(&v, 8);
    }
  }
  void zero(Reg dst) { rr(0x31, dst, dst, false); }  // xor r32, r32
  void alu(Alu op, Reg dst, Reg src, bool w = true) { rr(static_cast<uint8_t>(op * 8 + 1), src, dst, w); }
  void alu_imm(Alu op, Reg dst, int32_t imm, bool w = true) {
    rex(w, 0, dst);
    put(fits_imm8(imm) ? 0x83 : 0x81);
    modrm(3, op, dst);
    immediate(imm);
  }
  void test(Reg a, Reg b, bool w = true) { rr(0x85, b, a, w); }
  void test_imm(Reg r, int32_t imm) {  // test r32, imm32
    rex(false, 0, r);
    put(0xF7);
    modrm(3, 0, r);
    imm32(static_cast<uint32_t>(imm));
  }
  void alu_to_mem(Alu op, Reg base, int32_t disp, Reg src) { mem(static_cast<uint8_t>(op * 8 + 1), src, base, disp); }
  void alu_from_mem(Alu op, Reg dst, Reg base, int32_t disp, bool w = true) {
    mem(static_cast<uint8_t>(op * 8 + 3), dst, base, disp, w);
  }
  void jmp_rax() {
    put(0xFF);
    put(0xE0);
  }
  void alu_mem_imm(Alu op, Reg base, int32_t disp, int32_t imm, bool w = true) {
    mem(fits_imm8(imm) ? 0x83 : 0x81, op, base, disp, w);
    immediate(imm);
  }
  void shift_imm(Shift op, Reg dst, uint8_t n, bool w = true) {
    rex(w, 0, dst);
    put(0xC1);
    modrm(3, op, dst);
    put(n);
  }
  void shift_cl(Shift op, Reg dst, bool w = true) {
    rex(w, 0, dst);
    put(0xD3);
    modrm(3, op, dst);
  }
  void imul(Reg dst, Reg src, bool w = true) {
    rex(w, dst, src);
    put(0x0F);
    put(0xAF);
    modrm(3, dst, src);
  }
  // rdx:rax = rax * src, unsigned (mul) or signed (imul).
  void mul_wide(Reg src, bool is_signed) {
    rex(true, 0, src);
    put(0xF7);
    modrm(3, is_signed ? 5 : 4, src);
  }
  // rax = rdx:rax / src, rdx = the remainder, unsigned (div) or signed
  // (idiv); edx:eax and 32-bit results without `w`. Faults on a zero src and
  // on a signed quotient that does not fit: the caller rules both out.
  void div_wide(Reg src, bool is_signed, bool w) {
    rex(w, 0, src);
    put(0xF7);
    modrm(3, is_signed ? 7 : 6, src);
  }
  void sign_rax_into_rdx(bool w) {  // cqo (w) or cdq: rdx (edx) = copies of rax's (eax's) sign bit
    rex(w, 0, 0);
    put(0x99);
  }
  void neg(Reg r, bool w = true) {
    rex(w, 0, r);
    put(0xF7);
    modrm(3, 3, r);
  }
  void movsxd(Reg dst, Reg src) {  // dst = sign-extended low 32 bits of src
    rex(true, dst, src);
    put(0x63);
    modrm(3, dst, src);
  }
  void setcc_rax(Cond c) {  // rax = condition ? 1 : 0
    put(0x0F);
    put(0x90 + c);
    put(0xC0);  // setcc al
    put(0x0F);
    put(0xB6);
    put(0xC0);  // movzx eax, al
  }
  void push(Reg r) {
    if (r & 8) put(0x41);
    put(0x50 + (r & 7));
  }
  void pop(Reg r) {
    if (r & 8) put(0x41);
    put(0x58 + (r & 7));
  }
  void call(const void* fn) {
    mov_imm(RAX, reinterpret_cast<uint64_t>(fn));
    call_reg(RAX);
  }
  void call_reg(Reg r) {  // call r
    if (r & 8) put(0x41);
    put(0xFF);
    put(static_cast<uint8_t>(0xD0 + (r & 7)));
  }
  void ret() { put(0xC3); }
  // Scalar doubles, or (single) floats (SSE2; the fused forms need the host's FMA3).
  void load_scalar(Xmm dst, Reg base, int32_t disp, bool single) { sse_mem(scalar(single), 0x10, dst, base, disp, false); }
  void store_scalar(Reg base, int32_t disp, Xmm src, bool single) { sse_mem(scalar(single), 0x11, src, base, disp, false); }
  void sse_scalar(SseOp op, Xmm dst, Reg base, int32_t disp, bool single) {
    sse_mem(scalar(single), op, dst, base, disp, false);
  }
  void sse_scalar(SseOp op, Xmm dst, Xmm src, bool single) {
    put(scalar(single));
    rr2(op, dst, src, false);
  }
  void movapd(Xmm dst, Xmm src) {  // the whole register
    put(0x66);
    rr2(0x28, dst, src, false);
  }
  void xorpd(Xmm dst, Xmm src) {
    put(0x66);
    rr2(0x57, dst, src, false);
  }
  // Compares the double (single: float) in a with the one at [base + disp]: flags as for unsigned.
  void ucomis(Xmm a, Reg base, int32_t disp, bool single) { sse_mem(single ? 0 : 0x66, 0x2E, a, base, disp, false); }
  // dst = the 64-bit integer of the double (single: float) at [base + disp],
  // rounded as MXCSR says or (truncate) toward zero.
  void cvts2si(Reg dst, Reg base, int32_t disp, bool truncate, bool single) {
    sse_mem(scalar(single), truncate ? 0x2C : 0x2D, dst, base, disp, true);
  }
  // dst = the float of the double at [base + disp], or (to_double) the double of the float there.
  void cvt_precision(Xmm dst, Reg base, int32_t disp, bool to_double) {
    sse_mem(scalar(to_double), 0x5A, dst, base, disp, false);
  }
  void cvt_precision(Xmm dst, Xmm src, bool to_double) {
    put(scalar(to_double));
    rr2(0x5A, dst, src, false);
  }
  void mov_from_xmm(Reg dst, Xmm src, bool single) {  // movq r64, xmm or (single) movd r32, xmm (zero-extended)
    put(0x66);
    rr2(0x7E, src, dst, !single);
  }
  void cvtsi2s(Xmm dst, Reg src, bool w, bool single) {  // dst = (double or float) src (64-bit with w, else 32-bit)
    put(scalar(single));
    rr2(0x2A, dst, src, w);
  }
  void fma_scalar(FmaOp op, Xmm dst, Xmm src, Reg base, int32_t disp, bool single) {
    put(0xC4);  // three-byte VEX: inverted R, X, B; map 0F38; W, inverted vvvv, LIG, pp 66
    put(static_cast<uint8_t>(((dst & 8) ? 0 : 0x80) | 0x40 | ((base & 8) ? 0 : 0x20) | 0x02));
    put(static_cast<uint8_t>((single ? 0 : 0x80) | (~src & 0xF) << 3 | 0x01));
    put(op);
    address(dst, base, disp);
  }
  // Forward jumps: the returned offset is patched by bind().
  size_t jcc(Cond c) {
    put(0x0F);
    put(0x80 + c);
    return rel32();
  }
  size_t jmp() {
    put(0xE9);
    return rel32();
  }
  void bind(size_t fixup) { bind(fixup, b_.size()); }
  // A jmp (from jmp()) that the code ends with now is dropped: what comes
  // next is where it would go. False, with nothing done, when it is not last.
  bool drop_last_jmp(size_t fixup) {
    if (fixup + 4 != b_.size() || b_[fixup - 1] != 0xE9) return false;
    b_.resize(fixup - 1);
    return true;
  }
  void bind(size_t fixup, size_t target) {
    const int32_t rel = static_cast<int32_t>(target - (fixup + 4));
    std::memcpy(&b_[fixup], &rel, 4);
  }

 private:
  void put(uint8_t v) { b_.push_back(v); }
  // Byte by byte: the buffer has room (reserved), and a resize per immediate
  // (zero-filling, out of line) was a tenth of translating a block.
  void put_bytes(const void* p, size_t n) {
    const auto* bytes = static_cast<const uint8_t*>(p);
    for (size_t i = 0; i < n; ++i) put(bytes[i]);
  }
  void imm32(uint32_t v) { put_bytes(&v, 4); }  // little-endian host
  size_t rel32() {
    imm32(0);
    return b_.size() - 4;
  }
  void rex(bool w, unsigned reg, unsigned rm) {
    const uint8_t r = static_cast<uint8_t>(0x40 | (w ? 8 : 0) | ((reg & 8) ? 4 : 0) | ((rm & 8) ? 1 : 0));
    if (r != 0x40) put(r);
  }
  void modrm(unsigned mod, unsigned reg, unsigned rm) { put(static_cast<uint8_t>(mod << 6 | (reg & 7) << 3 | (rm & 7))); }
  void rr(uint8_t opcode, unsigned reg, unsigned rm, bool w) {
    rex(w, reg, rm);
    put(opcode);
    modrm(3, reg, rm);
  }
  static uint8_t scalar(bool single) { return single ? 0xF3 : 0xF2; }
  // 0F-map forms (after their legacy prefix, which the caller puts): REX, 0F, the opcode, ModRM.
  void rr2(uint8_t opcode, unsigned reg, unsigned rm, bool w) {
    rex(w, reg, rm);
    put(0x0F);
    put(opcode);
    modrm(3, reg, rm);
  }
  void sse_mem(uint8_t prefix, uint8_t opcode, unsigned reg, unsigned base, int32_t disp, bool w) {
    if (prefix) put(prefix);
    rex(w, reg, base);
    put(0x0F);
    put(opcode);
    address(reg, base, disp);
  }
  void mem(uint8_t opcode, unsigned reg, unsigned base, int32_t disp, bool w = true) {
    rex(w, reg, base);
    put(opcode);
    address(reg, base, disp);
  }
  // opcode with `reg` and [base + (index << scale) + disp] (index not rsp;
  // base not rbp or r13 without a displacement).
  void indexed(uint8_t opcode, unsigned reg, Reg base, Reg index, unsigned scale, int32_t disp, bool w) {
    const auto r = static_cast<uint8_t>(0x40 | (w ? 8 : 0) | ((reg & 8) ? 4 : 0) | ((index & 8) ? 2 : 0) | ((base & 8) ? 1 : 0));
    if (r != 0x40) put(r);
    put(opcode);
    modrm(disp == 0 ? 0 : fits_imm8(disp) ? 1 : 2, reg, RSP);  // a SIB byte follows
    put(static_cast<uint8_t>(scale << 6 | (index & 7) << 3 | (base & 7)));
    if (disp == 0) return;
    if (fits_imm8(disp)) put(static_cast<uint8_t>(disp));
    else imm32(static_cast<uint32_t>(disp));
  }
  // The ModRM (SIB) and displacement of [base + disp] in the shortest form
  // (less code for the hot blocks; docs/performance.md, "Design history").
  void address(unsigned reg, unsigned base, int32_t disp) {
    const bool none = disp == 0 && (base & 7) != RBP;  // [rbp]/[r13] have no form without a displacement
    modrm(none ? 0 : fits_imm8(disp) ? 1 : 2, reg, base);
    if ((base & 7) == RSP) put(0x24);  // SIB: base only
    if (none) return;
    if (fits_imm8(disp)) put(static_cast<uint8_t>(disp));
    else imm32(static_cast<uint32_t>(disp));
  }
  static bool fits_imm8(int32_t v) { return v >= -128 && v <= 127; }
  void immediate(int32_t v) {  // an ALU immediate as fits_imm8 chose the opcode for it
    if (fits_imm8(v)) put(static_cast<uint8_t>(v));
    else imm32(static_cast<uint32_t>(v));
  }

  std::vector<uint8_t> b_;
};

}  // namespace avp::x86
