// What the integer instructions do, written once for the hart's two
// interpreter loops (hart_exec.cpp: the switch of the observed loop;
// hart_chain.cpp: the threaded loop). Each list entry names an Op and gives
// an expression over a = x[rs1], b = x[rs2], d (the Insn) and pc (its
// address), evaluated inside Hart (loads and stores call its load/store).
#pragma once
#include <cstdint>

namespace avp::rv::sem {

inline uint64_t sx32(uint64_t v) { return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v))); }
inline uint64_t mulhu(uint64_t a, uint64_t b) { return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64); }
inline uint64_t mulh(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<__int128>(static_cast<int64_t>(a)) * static_cast<int64_t>(b)) >> 64);
}
inline uint64_t mulhsu(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>(
      (static_cast<__int128>(static_cast<int64_t>(a)) * static_cast<__int128>(static_cast<unsigned __int128>(b))) >> 64);
}
// Division by zero and the one overflowing case give the results the ISA fixes (no trap).
inline uint64_t div(uint64_t a, uint64_t b) {
  if (b == 0) return ~0ull;
  if (a == (1ull << 63) && b == ~0ull) return a;
  return static_cast<uint64_t>(static_cast<int64_t>(a) / static_cast<int64_t>(b));
}
inline uint64_t rem(uint64_t a, uint64_t b) {
  if (b == 0) return a;
  if (a == (1ull << 63) && b == ~0ull) return 0;
  return static_cast<uint64_t>(static_cast<int64_t>(a) % static_cast<int64_t>(b));
}
inline uint64_t divw(uint64_t a, uint64_t b) {
  const int32_t p = static_cast<int32_t>(a), q = static_cast<int32_t>(b);
  if (q == 0) return ~0ull;
  if (p == INT32_MIN && q == -1) return static_cast<uint64_t>(static_cast<int64_t>(INT32_MIN));
  return static_cast<uint64_t>(static_cast<int64_t>(p / q));
}
inline uint64_t divuw(uint64_t a, uint64_t b) {
  const uint32_t p = static_cast<uint32_t>(a), q = static_cast<uint32_t>(b);
  return q == 0 ? ~0ull : sx32(p / q);
}
inline uint64_t remw(uint64_t a, uint64_t b) {
  const int32_t p = static_cast<int32_t>(a), q = static_cast<int32_t>(b);
  if (q == 0) return static_cast<uint64_t>(static_cast<int64_t>(p));
  if (p == INT32_MIN && q == -1) return 0;
  return static_cast<uint64_t>(static_cast<int64_t>(p % q));
}
inline uint64_t remuw(uint64_t a, uint64_t b) {
  const uint32_t p = static_cast<uint32_t>(a), q = static_cast<uint32_t>(b);
  return q == 0 ? sx32(p) : sx32(p % q);
}

}  // namespace avp::rv::sem

// Instructions that write a result to rd and go on to the next one.
#define AVP_RV_RESULT_OPS(X)                                                  \
  X(LUI, static_cast<uint64_t>(d.imm))                                        \
  X(AUIPC, pc + d.imm)                                                        \
  X(ADDI, a + d.imm)                                                          \
  X(SLTI, static_cast<int64_t>(a) < d.imm)                                    \
  X(SLTIU, a < static_cast<uint64_t>(d.imm))                                  \
  X(XORI, a ^ d.imm)                                                          \
  X(ORI, a | d.imm)                                                           \
  X(ANDI, a & d.imm)                                                          \
  X(SLLI, a << d.imm)                                                         \
  X(SRLI, a >> d.imm)                                                         \
  X(SRAI, static_cast<int64_t>(a) >> d.imm)                                   \
  X(ADD, a + b)                                                               \
  X(SUB, a - b)                                                               \
  X(SLL, a << (b & 63))                                                       \
  X(SLT, static_cast<int64_t>(a) < static_cast<int64_t>(b))                   \
  X(SLTU, a < b)                                                              \
  X(XOR, a ^ b)                                                               \
  X(SRL, a >> (b & 63))                                                       \
  X(SRA, static_cast<int64_t>(a) >> (b & 63))                                 \
  X(OR, a | b)                                                                \
  X(AND, a & b)                                                               \
  X(ADDIW, sem::sx32(a + d.imm))                                              \
  X(SLLIW, sem::sx32(static_cast<uint32_t>(a) << d.imm))                      \
  X(SRLIW, sem::sx32(static_cast<uint32_t>(a) >> d.imm))                      \
  X(SRAIW, sem::sx32(static_cast<uint32_t>(static_cast<int32_t>(a) >> d.imm))) \
  X(ADDW, sem::sx32(a + b))                                                   \
  X(SUBW, sem::sx32(a - b))                                                   \
  X(SLLW, sem::sx32(static_cast<uint32_t>(a) << (b & 31)))                    \
  X(SRLW, sem::sx32(static_cast<uint32_t>(a) >> (b & 31)))                    \
  X(SRAW, sem::sx32(static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31)))) \
  X(MUL, a * b)                                                               \
  X(MULH, sem::mulh(a, b))                                                    \
  X(MULHSU, sem::mulhsu(a, b))                                                \
  X(MULHU, sem::mulhu(a, b))                                                  \
  X(DIV, sem::div(a, b))                                                      \
  X(DIVU, b == 0 ? ~0ull : a / b)                                             \
  X(REM, sem::rem(a, b))                                                      \
  X(REMU, b == 0 ? a : a % b)                                                 \
  X(MULW, sem::sx32(a * b))                                                   \
  X(DIVW, sem::divw(a, b))                                                    \
  X(DIVUW, sem::divuw(a, b))                                                  \
  X(REMW, sem::remw(a, b))                                                    \
  X(REMUW, sem::remuw(a, b))

// Loads: the loaded value, extended to 64 bits.
#define AVP_RV_LOAD_OPS(X)                                  \
  X(LB, static_cast<int8_t>(load<uint8_t>(a + d.imm)))      \
  X(LH, static_cast<int16_t>(load<uint16_t>(a + d.imm)))    \
  X(LW, static_cast<int32_t>(load<uint32_t>(a + d.imm)))    \
  X(LD, load<uint64_t>(a + d.imm))                          \
  X(LBU, load<uint8_t>(a + d.imm))                          \
  X(LHU, load<uint16_t>(a + d.imm))                         \
  X(LWU, load<uint32_t>(a + d.imm))

// Stores: the type stored at a + imm (the low bytes of b).
#define AVP_RV_STORE_OPS(X) X(SB, uint8_t) X(SH, uint16_t) X(SW, uint32_t) X(SD, uint64_t)

// Conditional branches: the condition for going to pc + imm.
#define AVP_RV_BRANCH_OPS(X)                                              \
  X(BEQ, a == b)                                                          \
  X(BNE, a != b)                                                          \
  X(BLT, static_cast<int64_t>(a) < static_cast<int64_t>(b))               \
  X(BGE, static_cast<int64_t>(a) >= static_cast<int64_t>(b))              \
  X(BLTU, a < b)                                                          \
  X(BGEU, a >= b)

// Jumps: the target; rd gets the address of the next instruction.
#define AVP_RV_JUMP_OPS(X) X(JAL, pc + d.imm) X(JALR, (a + d.imm) & ~1ull)
