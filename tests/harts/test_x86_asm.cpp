// The translator's x86-64 encoder (models/harts/x86_asm.h) against GNU as:
// each form in its shortest encoding (8-bit displacements and immediates
// where they fit, no displacement for [base] but for rbp and r13, which have
// no such form; a SIB byte for rsp and r12), and the 32-bit forms where they
// do not fit. The expected bytes are what `as` gives for the instruction in
// the comment (objdump -d -M intel), but for the one marked otherwise.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "x86_asm.h"

namespace {

using namespace avp::x86;

std::vector<uint8_t> encode(const std::function<void(Asm&)>& emit) {
  Asm a;
  emit(a);
  return a.bytes();
}

TEST(X86Asm, MemoryOperandsTakeTheShortestDisplacement) {
  // mov rax, [r8+0x10]
  EXPECT_EQ(encode([](Asm& a) { a.load(RAX, R8, 0x10); }), (std::vector<uint8_t>{0x49, 0x8B, 0x40, 0x10}));
  // mov rax, [r8+0x1000]
  EXPECT_EQ(encode([](Asm& a) { a.load(RAX, R8, 0x1000); }),
            (std::vector<uint8_t>{0x49, 0x8B, 0x80, 0x00, 0x10, 0x00, 0x00}));
  // mov [rsp], rsi
  EXPECT_EQ(encode([](Asm& a) { a.store(RSP, 0, RSI); }), (std::vector<uint8_t>{0x48, 0x89, 0x34, 0x24}));
  // mov rdx, [r13+0x0] and mov rdx, [rbp+0x0]: a zero displacement byte, as [r13]/[rbp] would mean rip-relative
  EXPECT_EQ(encode([](Asm& a) { a.load(RDX, R13, 0); }), (std::vector<uint8_t>{0x49, 0x8B, 0x55, 0x00}));
  EXPECT_EQ(encode([](Asm& a) { a.load(RDX, RBP, 0); }), (std::vector<uint8_t>{0x48, 0x8B, 0x55, 0x00}));
  // mov rcx, [r12-0x8]: a SIB byte for r12, a negative 8-bit displacement
  EXPECT_EQ(encode([](Asm& a) { a.load(RCX, R12, -8); }), (std::vector<uint8_t>{0x49, 0x8B, 0x4C, 0x24, 0xF8}));
  // movzx eax, byte ptr [rsi+0x3]
  EXPECT_EQ(encode([](Asm& a) { a.load_extended(RAX, RSI, 3, 1, false); }),
            (std::vector<uint8_t>{0x0F, 0xB6, 0x46, 0x03}));
  // mov byte ptr [r9+0x5], 0x1
  EXPECT_EQ(encode([](Asm& a) { a.store_byte_imm(R9, 5, 1); }), (std::vector<uint8_t>{0x41, 0xC6, 0x41, 0x05, 0x01}));
}

TEST(X86Asm, IndexedStoresTestsAndDoublewordOperands) {
  // test esi, 0x7 and test r9d, 0x3
  EXPECT_EQ(encode([](Asm& a) { a.test_imm(RSI, 7); }), (std::vector<uint8_t>{0xF7, 0xC6, 0x07, 0x00, 0x00, 0x00}));
  EXPECT_EQ(encode([](Asm& a) { a.test_imm(R9, 3); }),
            (std::vector<uint8_t>{0x41, 0xF7, 0xC1, 0x03, 0x00, 0x00, 0x00}));
  // mov qword ptr [rsi+rdx*8], rcx and mov qword ptr [r10+r11*8], r9
  EXPECT_EQ(encode([](Asm& a) { a.store_indexed8(RSI, RDX, RCX); }), (std::vector<uint8_t>{0x48, 0x89, 0x0C, 0xD6}));
  EXPECT_EQ(encode([](Asm& a) { a.store_indexed8(R10, R11, R9); }), (std::vector<uint8_t>{0x4F, 0x89, 0x0C, 0xDA}));
  EXPECT_EQ(encode([](Asm& a) { a.lea(RAX, R11, 33); }), (std::vector<uint8_t>{0x49, 0x8D, 0x43, 0x21}));
  EXPECT_EQ(encode([](Asm& a) { a.load32_indexed4(R10, RDI, R10, 0x1fb0); }),
            (std::vector<uint8_t>{0x46, 0x8B, 0x94, 0x97, 0xB0, 0x1F, 0x00, 0x00}));
  EXPECT_EQ(encode([](Asm& a) { a.load32_indexed4(RSI, RDI, RSI, 8); }), (std::vector<uint8_t>{0x8B, 0x74, 0xB7, 0x08}));
  EXPECT_EQ(encode([](Asm& a) { a.store_indexed8(RSI, RDX, RCX, 0x10); }),
            (std::vector<uint8_t>{0x48, 0x89, 0x4C, 0xD6, 0x10}));
  EXPECT_EQ(encode([](Asm& a) { a.store_indexed8(R8, RDX, RCX, 0x1a80); }),
            (std::vector<uint8_t>{0x49, 0x89, 0x8C, 0xD0, 0x80, 0x1A, 0x00, 0x00}));
  // and edx, dword ptr [r8+0x20]
  EXPECT_EQ(encode([](Asm& a) { a.alu_from_mem(AND, RDX, R8, 0x20, false); }),
            (std::vector<uint8_t>{0x41, 0x23, 0x50, 0x20}));
}

// The forms translated code's register-memory operands and the chain's
// instruction stop take, and a block's last jump to its tail, dropped.
TEST(X86Asm, MemoryOperandsAbove32AndTheLastJumpDropped) {
  // cmp r9, qword ptr [r8+0x68]; ja (rel32 0)
  EXPECT_EQ(encode([](Asm& a) {
              a.alu_from_mem(CMP, R9, R8, 0x68);
              a.jcc(A);
            }),
            (std::vector<uint8_t>{0x4D, 0x3B, 0x48, 0x68, 0x0F, 0x87, 0x00, 0x00, 0x00, 0x00}));
  // sub ebx, dword ptr [r15+0x80] (a W operation's operand from memory)
  EXPECT_EQ(encode([](Asm& a) { a.alu_from_mem(SUB, RBX, R15, 0x80, false); }),
            (std::vector<uint8_t>{0x41, 0x2B, 0x9F, 0x80, 0x00, 0x00, 0x00}));
  // A jmp last in the code goes; a jcc, or a jmp with code after it, stays.
  Asm a;
  a.mov(RAX, RCX);
  const size_t cond = a.jcc(E);
  EXPECT_FALSE(a.drop_last_jmp(cond));
  const size_t first = a.jmp();
  a.mov(RAX, RCX);
  EXPECT_FALSE(a.drop_last_jmp(first));
  const size_t size = a.size();
  const size_t last = a.jmp();
  EXPECT_TRUE(a.drop_last_jmp(last));
  EXPECT_EQ(a.size(), size);
}

TEST(X86Asm, ScalarDoublesAndFusedMultiplyAdds) {
  using V = std::vector<uint8_t>;
  // movsd xmm0, qword ptr [r15+0x108]; movsd xmm1, qword ptr [r15+0x10]; movsd qword ptr [r15+0x1f8], xmm2
  EXPECT_EQ(encode([](Asm& a) { a.load_scalar(XMM0, R15, 0x108, false); }), (V{0xF2, 0x41, 0x0F, 0x10, 0x87, 0x08, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.load_scalar(XMM1, R15, 0x10, false); }), (V{0xF2, 0x41, 0x0F, 0x10, 0x4F, 0x10}));
  EXPECT_EQ(encode([](Asm& a) { a.store_scalar(R15, 0x1F8, XMM2, false); }), (V{0xF2, 0x41, 0x0F, 0x11, 0x97, 0xF8, 0x01, 0, 0}));
  // addsd xmm0, qword ptr [r15+0x110]; mulsd xmm1, qword ptr [rdi+0x8]; subsd xmm2, qword ptr [r15+0x100]
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_ADD, XMM0, R15, 0x110, false); }), (V{0xF2, 0x41, 0x0F, 0x58, 0x87, 0x10, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_MUL, XMM1, RDI, 8, false); }), (V{0xF2, 0x0F, 0x59, 0x4F, 0x08}));
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_SUB, XMM2, R15, 0x100, false); }), (V{0xF2, 0x41, 0x0F, 0x5C, 0x97, 0x00, 0x01, 0, 0}));
  // divsd xmm0, qword ptr [r15+0x18]; sqrtsd xmm0, qword ptr [r15+0x110]
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_DIV, XMM0, R15, 0x18, false); }), (V{0xF2, 0x41, 0x0F, 0x5E, 0x47, 0x18}));
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_SQRT, XMM0, R15, 0x110, false); }), (V{0xF2, 0x41, 0x0F, 0x51, 0x87, 0x10, 0x01, 0, 0}));
  // addsd xmm0, xmm2; subsd xmm5, xmm4; movapd xmm4, xmm0; xorpd xmm1, xmm1
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_ADD, XMM0, XMM2, false); }), (V{0xF2, 0x0F, 0x58, 0xC2}));
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_SUB, XMM5, XMM4, false); }), (V{0xF2, 0x0F, 0x5C, 0xEC}));
  EXPECT_EQ(encode([](Asm& a) { a.movapd(XMM4, XMM0); }), (V{0x66, 0x0F, 0x28, 0xE0}));
  EXPECT_EQ(encode([](Asm& a) { a.xorpd(XMM1, XMM1); }), (V{0x66, 0x0F, 0x57, 0xC9}));
  // movq rax, xmm0; movq rcx, xmm2; cvtsi2sd xmm0, eax; cvtsi2sd xmm1, rcx
  EXPECT_EQ(encode([](Asm& a) { a.mov_from_xmm(RAX, XMM0, false); }), (V{0x66, 0x48, 0x0F, 0x7E, 0xC0}));
  EXPECT_EQ(encode([](Asm& a) { a.mov_from_xmm(RCX, XMM2, false); }), (V{0x66, 0x48, 0x0F, 0x7E, 0xD1}));
  EXPECT_EQ(encode([](Asm& a) { a.cvtsi2s(XMM0, RAX, false, false); }), (V{0xF2, 0x0F, 0x2A, 0xC0}));
  EXPECT_EQ(encode([](Asm& a) { a.cvtsi2s(XMM1, RCX, true, false); }), (V{0xF2, 0x48, 0x0F, 0x2A, 0xC9}));
  // ucomisd xmm0, qword ptr [r15+0x110]
  EXPECT_EQ(encode([](Asm& a) { a.ucomis(XMM0, R15, 0x110, false); }), (V{0x66, 0x41, 0x0F, 0x2E, 0x87, 0x10, 0x01, 0, 0}));
  // cvttsd2si rax, qword ptr [r15+0x108]; cvtsd2si rax, qword ptr [r15+0x8]
  EXPECT_EQ(encode([](Asm& a) { a.cvts2si(RAX, R15, 0x108, true, false); }), (V{0xF2, 0x49, 0x0F, 0x2C, 0x87, 0x08, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.cvts2si(RAX, R15, 8, false, false); }), (V{0xF2, 0x49, 0x0F, 0x2D, 0x47, 0x08}));
  // vfmadd231sd xmm0, xmm1, qword ptr [r15+0x180]; vfmsub231sd xmm0, xmm1, qword ptr [r15+0x10]
  EXPECT_EQ(encode([](Asm& a) { a.fma_scalar(VFMADD231, XMM0, XMM1, R15, 0x180, false); }),
            (V{0xC4, 0xC2, 0xF1, 0xB9, 0x87, 0x80, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.fma_scalar(VFMSUB231, XMM0, XMM1, R15, 0x10, false); }), (V{0xC4, 0xC2, 0xF1, 0xBB, 0x47, 0x10}));
  // vfnmadd231sd xmm2, xmm0, qword ptr [rax+0x200]; vfnmsub231sd xmm1, xmm2, qword ptr [r15]
  EXPECT_EQ(encode([](Asm& a) { a.fma_scalar(VFNMADD231, XMM2, XMM0, RAX, 0x200, false); }),
            (V{0xC4, 0xE2, 0xF9, 0xBD, 0x90, 0x00, 0x02, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.fma_scalar(VFNMSUB231, XMM1, XMM2, R15, 0, false); }), (V{0xC4, 0xC2, 0xE9, 0xBF, 0x0F}));
}

TEST(X86Asm, ScalarFloats) {
  using V = std::vector<uint8_t>;
  // movss xmm0, dword ptr [r15+0x108]; movss dword ptr [r15+0x1f8], xmm2
  EXPECT_EQ(encode([](Asm& a) { a.load_scalar(XMM0, R15, 0x108, true); }), (V{0xF3, 0x41, 0x0F, 0x10, 0x87, 0x08, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.store_scalar(R15, 0x1F8, XMM2, true); }), (V{0xF3, 0x41, 0x0F, 0x11, 0x97, 0xF8, 0x01, 0, 0}));
  // addss xmm0, dword ptr [r15+0x110]; addss xmm0, xmm2; sqrtss xmm0, dword ptr [r15+0x8]; movd eax, xmm0
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_ADD, XMM0, R15, 0x110, true); }), (V{0xF3, 0x41, 0x0F, 0x58, 0x87, 0x10, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_ADD, XMM0, XMM2, true); }), (V{0xF3, 0x0F, 0x58, 0xC2}));
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_SQRT, XMM0, R15, 8, true); }), (V{0xF3, 0x41, 0x0F, 0x51, 0x47, 0x08}));
  EXPECT_EQ(encode([](Asm& a) { a.mov_from_xmm(RAX, XMM0, true); }), (V{0x66, 0x0F, 0x7E, 0xC0}));
  // vfmadd231ss xmm0, xmm1, dword ptr [r15+0x180]; vfmsub231ss xmm5, xmm1, dword ptr [r15+0x10]
  EXPECT_EQ(encode([](Asm& a) { a.fma_scalar(VFMADD231, XMM0, XMM1, R15, 0x180, true); }),
            (V{0xC4, 0xC2, 0x71, 0xB9, 0x87, 0x80, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.fma_scalar(VFMSUB231, XMM5, XMM1, R15, 0x10, true); }), (V{0xC4, 0xC2, 0x71, 0xBB, 0x6F, 0x10}));
}

TEST(X86Asm, FloatComparisonsAndConversions) {
  using V = std::vector<uint8_t>;
  // ucomiss xmm0, dword ptr [r15+0x110]; cvttss2si rax, dword ptr [r15+0x108]; cvtss2si rax, dword ptr [r15+0x8]
  EXPECT_EQ(encode([](Asm& a) { a.ucomis(XMM0, R15, 0x110, true); }), (V{0x41, 0x0F, 0x2E, 0x87, 0x10, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.cvts2si(RAX, R15, 0x108, true, true); }), (V{0xF3, 0x49, 0x0F, 0x2C, 0x87, 0x08, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.cvts2si(RAX, R15, 8, false, true); }), (V{0xF3, 0x49, 0x0F, 0x2D, 0x47, 0x08}));
  // minsd xmm0, qword ptr [r15+0x110]; maxss xmm0, dword ptr [r15+0x8]
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_MIN, XMM0, R15, 0x110, false); }), (V{0xF2, 0x41, 0x0F, 0x5D, 0x87, 0x10, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.sse_scalar(SSE_MAX, XMM0, R15, 8, true); }), (V{0xF3, 0x41, 0x0F, 0x5F, 0x47, 0x08}));
  // cvtsi2ss xmm0, rax; cvtss2sd xmm0, dword ptr [r15+0x108]; cvtsd2ss xmm0, qword ptr [r15+0x108]; cvtss2sd xmm1, xmm0
  EXPECT_EQ(encode([](Asm& a) { a.cvtsi2s(XMM0, RAX, true, true); }), (V{0xF3, 0x48, 0x0F, 0x2A, 0xC0}));
  EXPECT_EQ(encode([](Asm& a) { a.cvt_precision(XMM0, R15, 0x108, true); }), (V{0xF3, 0x41, 0x0F, 0x5A, 0x87, 0x08, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.cvt_precision(XMM0, R15, 0x108, false); }), (V{0xF2, 0x41, 0x0F, 0x5A, 0x87, 0x08, 0x01, 0, 0}));
  EXPECT_EQ(encode([](Asm& a) { a.cvt_precision(XMM1, XMM0, true); }), (V{0xF3, 0x0F, 0x5A, 0xC8}));
}

TEST(X86Asm, CallsThroughARegister) {
  // call rax
  EXPECT_EQ(encode([](Asm& a) { a.call_reg(RAX); }), (std::vector<uint8_t>{0xFF, 0xD0}));
  // call r11
  EXPECT_EQ(encode([](Asm& a) { a.call_reg(R11); }), (std::vector<uint8_t>{0x41, 0xFF, 0xD3}));
}

TEST(X86Asm, AluImmediatesTakeTheShortestForm) {
  // add qword ptr [r8+0x20], 0x1
  EXPECT_EQ(encode([](Asm& a) { a.alu_mem_imm(ADD, R8, 0x20, 1); }),
            (std::vector<uint8_t>{0x49, 0x83, 0x40, 0x20, 0x01}));
  // add qword ptr [r8+0x20], 0x3e8
  EXPECT_EQ(encode([](Asm& a) { a.alu_mem_imm(ADD, R8, 0x20, 1000); }),
            (std::vector<uint8_t>{0x49, 0x81, 0x40, 0x20, 0xE8, 0x03, 0x00, 0x00}));
  // and dword ptr [r8+0x200], 0x0
  EXPECT_EQ(encode([](Asm& a) { a.alu_mem_imm(AND, R8, 0x200, 0, false); }),
            (std::vector<uint8_t>{0x41, 0x83, 0xA0, 0x00, 0x02, 0x00, 0x00, 0x00}));
  // sub rsp, 0x8
  EXPECT_EQ(encode([](Asm& a) { a.alu_imm(SUB, RSP, 8); }), (std::vector<uint8_t>{0x48, 0x83, 0xEC, 0x08}));
  // add rax, 0x12345: as picks rax's own short opcode (48 05); this is the general form, as valid
  EXPECT_EQ(encode([](Asm& a) { a.alu_imm(ADD, RAX, 0x12345); }),
            (std::vector<uint8_t>{0x48, 0x81, 0xC0, 0x45, 0x23, 0x01, 0x00}));
  // cmp rcx, -0x80 and cmp rcx, 0x80: the edges of the 8-bit form
  EXPECT_EQ(encode([](Asm& a) { a.alu_imm(CMP, RCX, -128); }), (std::vector<uint8_t>{0x48, 0x83, 0xF9, 0x80}));
  EXPECT_EQ(encode([](Asm& a) { a.alu_imm(CMP, RCX, 128); }),
            (std::vector<uint8_t>{0x48, 0x81, 0xF9, 0x80, 0x00, 0x00, 0x00}));
}

}  // namespace
