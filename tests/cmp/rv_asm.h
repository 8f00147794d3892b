// A few RV64 instructions encoded by hand, for tiny test kernels placed in
// memory by the test itself (no cross compiler needed).
#pragma once
#include <cstdint>
#include <vector>

namespace avp::test::rv {

enum Reg : uint32_t { zero = 0, ra = 1, sp = 2, t0 = 5, t1 = 6, a0 = 10, a1 = 11, a2 = 12, a3 = 13 };

inline uint32_t i_type(uint32_t op, uint32_t f3, uint32_t rd, uint32_t rs1, int32_t imm) {
  return (static_cast<uint32_t>(imm) & 0xFFF) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
inline uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(0x13, 0, rd, rs1, imm); }
inline uint32_t slli(uint32_t rd, uint32_t rs1, uint32_t sh) { return i_type(0x13, 1, rd, rs1, static_cast<int32_t>(sh)); }
inline uint32_t add(uint32_t rd, uint32_t rs1, uint32_t rs2) { return rs2 << 20 | rs1 << 15 | rd << 7 | 0x33; }
inline uint32_t ld(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(0x03, 3, rd, rs1, imm); }
inline uint32_t sd(uint32_t rs2, uint32_t rs1, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm) & 0xFFF;
  return (u >> 5) << 25 | rs2 << 20 | rs1 << 15 | 3 << 12 | (u & 0x1F) << 7 | 0x23;
}
inline uint32_t ret() { return i_type(0x67, 0, zero, ra, 0); }  // jalr x0, 0(ra)
inline uint32_t wfi() { return 0x10500073; }
// jal x0, offset (a jump relative to this instruction; offset even, within +-1 MiB).
inline uint32_t j(int32_t off) {
  const uint32_t u = static_cast<uint32_t>(off);
  return ((u >> 20) & 1) << 31 | ((u >> 1) & 0x3FF) << 21 | ((u >> 11) & 1) << 20 | ((u >> 12) & 0xFF) << 12 | 0x6F;
}
// bne rs1, rs2, offset.
inline uint32_t bne(uint32_t rs1, uint32_t rs2, int32_t off) {
  const uint32_t u = static_cast<uint32_t>(off);
  return ((u >> 12) & 1) << 31 | ((u >> 5) & 0x3F) << 25 | rs2 << 20 | rs1 << 15 | 1 << 12 | ((u >> 1) & 0xF) << 8 |
         ((u >> 11) & 1) << 7 | 0x63;
}

}  // namespace avp::test::rv
