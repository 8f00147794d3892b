// RV64A: every AMO in .w and .d form (old value returned, sign extension of
// .w results, memory afterwards), the aq/rl variants, and LR/SC success and
// failure cases.
#include "sig.h"

static volatile uint64_t cell[2] __attribute__((aligned(64)));
static volatile uint64_t far_cell[2] __attribute__((aligned(4096)));

static const uint64_t mem_vals[] = {0x0, 0x1, 0x00000000ffffffff, 0xffffffff80000000, 0x7fffffffffffffff,
                                    0x8000000000000000, 0x123456789abcdef0};
static const uint64_t src_vals[] = {0x1, 0xffffffffffffffff, 0x0000000080000000, 0x8000000000000001,
                                    0x00000000fffffffe};

#define AMO(insn)                                                                         \
  for (unsigned i = 0; i < ARRAY_SIZE(mem_vals); i++)                                     \
    for (unsigned j = 0; j < ARRAY_SIZE(src_vals); j++) {                                 \
      uint64_t old;                                                                       \
      cell[0] = mem_vals[i];                                                              \
      cell[1] = 0x5a5a5a5a5a5a5a5aull;                                                    \
      __asm__ volatile(#insn " %0, %1, (%2)" : "=r"(old) : "r"(src_vals[j]), "r"(cell) : "memory"); \
      printf(#insn " %llx %llx: %016llx %016llx %016llx\n", (unsigned long long)mem_vals[i], \
             (unsigned long long)src_vals[j], (unsigned long long)old,                    \
             (unsigned long long)cell[0], (unsigned long long)cell[1]);                   \
    }

static void amos(void) {
  AMO(amoswap.w) AMO(amoadd.w) AMO(amoxor.w) AMO(amoand.w) AMO(amoor.w)
  AMO(amomin.w) AMO(amomax.w) AMO(amominu.w) AMO(amomaxu.w)
  AMO(amoswap.d) AMO(amoadd.d) AMO(amoxor.d) AMO(amoand.d) AMO(amoor.d)
  AMO(amomin.d) AMO(amomax.d) AMO(amominu.d) AMO(amomaxu.d)
  AMO(amoadd.w.aq) AMO(amoadd.d.rl) AMO(amoswap.d.aqrl)
}

static void lrsc(void) {
  uint64_t v, rc, rc2;
  cell[0] = 0xffffffff80000001ull;
  __asm__ volatile("lr.w %0, (%1)" : "=r"(v) : "r"(cell) : "memory");
  sig("lr.w sign-extends", v);
  __asm__ volatile("sc.w %0, %1, (%2)" : "=r"(rc) : "r"(0x1122334455667788ull), "r"(cell) : "memory");
  sig("sc.w after lr.w: rc", rc);
  sig("sc.w after lr.w: memory", cell[0]);
  __asm__ volatile("sc.w %0, %1, (%2)" : "=r"(rc) : "r"(7ull), "r"(cell) : "memory");
  sig("sc.w again (reservation used): rc", rc != 0);
  sig("sc.w again: memory", cell[0]);

  cell[0] = 0x8000000000000000ull;
  __asm__ volatile("lr.d.aq %0, (%2)\n sc.d.rl %1, %3, (%2)" : "=&r"(v), "=&r"(rc) : "r"(cell), "r"(0x42ull) : "memory");
  sig("lr.d.aq", v);
  sig("sc.d.rl rc", rc);
  sig("sc.d.rl memory", cell[0]);

  // SC to an address outside the reservation set (another page) fails.
  far_cell[0] = 0x33;
  __asm__ volatile("lr.d %0, (%2)\n sc.d %1, %3, (%4)" : "=&r"(v), "=&r"(rc)
                   : "r"(cell), "r"(0x99ull), "r"(far_cell) : "memory");
  sig("sc.d other address: fails", rc != 0);
  sig("sc.d other address: memory", far_cell[0]);
  __asm__ volatile("sc.d %0, %1, (%2)" : "=r"(rc2) : "r"(0x77ull), "r"(cell) : "memory");
  sig("sc.d after failed sc: fails", rc2 != 0);

  // An LR/SC retry loop implements fetch-and-add.
  cell[0] = 40;
  __asm__ volatile("1: lr.d %0, (%1)\n addi %0, %0, 2\n sc.d t0, %0, (%1)\n bnez t0, 1b" : "=&r"(v) : "r"(cell) : "t0", "memory");
  sig("lr/sc loop", cell[0]);
}

int main(int hart) {
  sig_begin("rv_atomic");
  amos();
  lrsc();
  __asm__ volatile("fence\n fence.tso\n fence rw, rw\n fence r, r\n fence w, w\n fence i, o" ::: "memory");
  sig("fences executed", 1);
  sig_end();
  return 0;
}
