// RV64I + M: every register-register, immediate, W-form, load/store, branch
// and jump instruction over operands that hit the corner cases (sign bits,
// shift amounts 31/32/63/64+, division by zero, signed overflow).
#include "sig.h"

static const uint64_t ops[] = {
    0x0, 0x1, 0xffffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000,
    0x000000007fffffff, 0xffffffff80000000, 0x123456789abcdef0,
};
// Second operands add the 32-bit boundaries and the shift amounts 31/32/63/65.
static const uint64_t ops2[] = {
    0x0, 0x1, 0xffffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000, 0x0000000080000000,
    0x00000000ffffffff, 0x1f, 0x20, 0x3f, 0x41,
};

#define RR(insn)                                                                     \
  for (unsigned i = 0; i < ARRAY_SIZE(ops); i++)                                     \
    for (unsigned j = 0; j < ARRAY_SIZE(ops2); j++) {                                \
      uint64_t r;                                                                    \
      __asm__ volatile(#insn " %0, %1, %2" : "=r"(r) : "r"(ops[i]), "r"(ops2[j]));   \
      sig3(#insn, ops[i], ops2[j], r);                                                \
    }

#define RI(insn, imm)                                                          \
  for (unsigned i = 0; i < ARRAY_SIZE(ops); i++) {                             \
    uint64_t r;                                                                \
    __asm__ volatile(#insn " %0, %1, " #imm : "=r"(r) : "r"(ops[i]));          \
    sig3(#insn, ops[i], (uint64_t)(imm), r);                                   \
  }

static void alu(void) {
  RR(add) RR(sub) RR(sll) RR(slt) RR(sltu) RR(xor) RR(srl) RR(sra) RR(or) RR(and)
  RR(addw) RR(subw) RR(sllw) RR(srlw) RR(sraw)
  RI(addi, 0) RI(addi, -1) RI(addi, 2047) RI(addi, -2048)
  RI(slti, -1) RI(slti, 0) RI(sltiu, -1) RI(sltiu, 1)
  RI(xori, -1) RI(xori, 0x555) RI(ori, -2048) RI(andi, -2048) RI(andi, 2047)
  RI(slli, 0) RI(slli, 1) RI(slli, 31) RI(slli, 32) RI(slli, 63)
  RI(srli, 0) RI(srli, 1) RI(srli, 31) RI(srli, 32) RI(srli, 63)
  RI(srai, 0) RI(srai, 1) RI(srai, 31) RI(srai, 32) RI(srai, 63)
  RI(addiw, 0) RI(addiw, -1) RI(addiw, 2047) RI(addiw, -2048)
  RI(slliw, 0) RI(slliw, 1) RI(slliw, 31) RI(srliw, 0) RI(srliw, 1) RI(srliw, 31)
  RI(sraiw, 0) RI(sraiw, 1) RI(sraiw, 31)
}

static void muldiv(void) {
  RR(mul) RR(mulh) RR(mulhsu) RR(mulhu) RR(mulw)
  RR(div) RR(divu) RR(rem) RR(remu) RR(divw) RR(divuw) RR(remw) RR(remuw)
}

static void upper(void) {
  uint64_t r;
  __asm__ volatile("lui %0, 0x80000" : "=r"(r));
  sig("lui 0x80000", r);
  __asm__ volatile("lui %0, 0x7ffff" : "=r"(r));
  sig("lui 0x7ffff", r);
  __asm__ volatile("lui %0, 0xfffff" : "=r"(r));
  sig("lui 0xfffff", r);
  uint64_t a, b;
  __asm__ volatile("1: auipc %0, 0\n la %1, 1b" : "=r"(a), "=r"(b));
  sig("auipc 0 - label", a - b);
  __asm__ volatile("1: auipc %0, 1\n la %1, 1b" : "=r"(a), "=r"(b));
  sig("auipc 1 - label", a - b);
}

static void loadstore(void) {
  static uint64_t buf[4];
  uint64_t pattern = 0x8182838485868788ull, r;
  buf[0] = pattern;
  buf[1] = 0x7f7e7d7c7b7a7978ull;
  const char* names[] = {"lb", "lh", "lw", "ld", "lbu", "lhu", "lwu"};
  for (unsigned off = 0; off < 8; off++) {
    char* p = (char*)buf + off;
    __asm__ volatile("lb %0, 0(%1)" : "=r"(r) : "r"(p)); sig2(names[0], off, r);
    __asm__ volatile("lbu %0, 0(%1)" : "=r"(r) : "r"(p)); sig2(names[4], off, r);
    if (off % 2 == 0) {
      __asm__ volatile("lh %0, 0(%1)" : "=r"(r) : "r"(p)); sig2(names[1], off, r);
      __asm__ volatile("lhu %0, 0(%1)" : "=r"(r) : "r"(p)); sig2(names[5], off, r);
    }
    if (off % 4 == 0) {
      __asm__ volatile("lw %0, 0(%1)" : "=r"(r) : "r"(p)); sig2(names[2], off, r);
      __asm__ volatile("lwu %0, 0(%1)" : "=r"(r) : "r"(p)); sig2(names[6], off, r);
    }
  }
  __asm__ volatile("ld %0, 8(%1)" : "=r"(r) : "r"(buf)); sig("ld +8", r);
  __asm__ volatile("ld %0, -8(%1)" : "=r"(r) : "r"(&buf[2])); sig("ld -8", r);
  buf[2] = 0;
  __asm__ volatile("sb %0, 1(%1)" ::"r"(pattern), "r"(&buf[2]) : "memory"); sig("sb", buf[2]);
  __asm__ volatile("sh %0, 2(%1)" ::"r"(pattern), "r"(&buf[2]) : "memory"); sig("sh", buf[2]);
  __asm__ volatile("sw %0, 4(%1)" ::"r"(pattern), "r"(&buf[2]) : "memory"); sig("sw", buf[2]);
  __asm__ volatile("sd %0, -8(%1)" ::"r"(pattern), "r"(&buf[3]) : "memory"); sig("sd", buf[2]);
  // x0 as destination discards; as source reads zero.
  __asm__ volatile("sd x0, 0(%0)\n lb x0, 0(%0)" ::"r"(&buf[3]) : "memory"); sig("sd x0", buf[3]);
  __asm__ volatile("addi x0, x0, 5\n mv %0, x0" : "=r"(r)); sig("x0 write ignored", r);
}

#define BR(insn)                                                                              \
  for (unsigned i = 0; i < ARRAY_SIZE(ops); i++)                                              \
    for (unsigned j = 0; j < ARRAY_SIZE(ops); j += 2) {                                       \
      uint64_t t;                                                                             \
      __asm__ volatile("li %0, 1\n " #insn " %1, %2, 1f\n li %0, 0\n1:"                      \
                       : "=&r"(t) : "r"(ops[i]), "r"(ops[j]));                                \
      sig3(#insn, ops[i], ops[j], t);                                                         \
    }

static void branches(void) {
  BR(beq) BR(bne) BR(blt) BR(bge) BR(bltu) BR(bgeu)
  uint64_t link, target;
  __asm__ volatile("jal %0, 1f\n 1: la %1, 1b" : "=r"(link), "=r"(target));
  sig("jal link - next", link - target);
  // jalr clears bit 0 of the target; rd is written after reading rs1.
  __asm__ volatile("la t0, 1f\n addi t0, t0, 1\n jalr t0, 0(t0)\n1: la %1, 1b\n sub %0, t0, %1" : "=r"(link), "=r"(target) :: "t0");
  sig("jalr odd target: link - target", link);
  __asm__ volatile("la t1, 1f\n addi t1, t1, -4\n jalr %0, 4(t1)\n li %0, 0\n1:" : "=r"(link) :: "t1");
  sig("jalr offset taken", link != 0);
  __asm__ volatile("la %0, 1f\n jalr %0, 0(%0)\n1: la %1, 1b" : "=r"(link), "=r"(target));
  sig("jalr rd=rs1: link - target", link - target);
}

int main(int hart) {
  sig_begin("rv_int");
  alu();
  muldiv();
  upper();
  loadstore();
  branches();
  sig_end();
  return 0;
}
