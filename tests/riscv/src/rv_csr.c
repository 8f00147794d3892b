// Zicsr in user mode: csrrw/csrrs/csrrc and their immediate forms, the
// fflags/frm/fcsr aliasing, x0 source/destination rules, reserved fcsr bits,
// the user counters; Zifencei: code written at run time runs after fence.i.
#include "sig.h"

static void fcsr_aliasing(void) {
  uint64_t old, a, b, c;
  __asm__ volatile("csrrw %0, fcsr, %1" : "=r"(old) : "r"(0xffffffffull));
  __asm__ volatile("csrr %0, fcsr\n csrr %1, fflags\n csrr %2, frm" : "=r"(a), "=r"(b), "=r"(c));
  sig("fcsr after writing ~0", a);
  sig("fflags view", b);
  sig("frm view", c);
  __asm__ volatile("csrrwi %0, frm, 2\n csrr %1, fcsr" : "=r"(a), "=r"(b));
  sig("csrrwi frm old", a);
  sig("fcsr after frm=2", b);
  __asm__ volatile("csrrci %0, fflags, 0x15\n csrr %1, fcsr" : "=r"(a), "=r"(b));
  sig("csrrci fflags old", a);
  sig("fcsr after clearing NV|OF|NX", b);
  __asm__ volatile("csrrsi %0, fflags, 0x1\n csrr %1, fcsr" : "=r"(a), "=r"(b));
  sig("csrrsi fflags old", a);
  sig("fcsr after setting NX", b);
  __asm__ volatile("li t0, 0xe0\n csrrs %0, fcsr, t0\n csrr %1, fcsr" : "=r"(a), "=r"(b) :: "t0");
  sig("csrrs fcsr old", a);
  sig("fcsr after setting frm=7", b);
  __asm__ volatile("li t0, 0x60\n csrrc %0, fcsr, t0\n csrr %1, fcsr" : "=r"(a), "=r"(b) :: "t0");
  sig("csrrc fcsr old", a);
  sig("fcsr after clearing frm bits 6:5", b);
  // rs1 = x0 / uimm = 0: csrrs/csrrc read without writing.
  __asm__ volatile("csrrs %0, fcsr, x0\n csrrci %1, fcsr, 0\n csrr %2, fcsr" : "=r"(a), "=r"(b), "=r"(c));
  sig("csrrs x0", a);
  sig("csrrci 0", b);
  sig("fcsr unchanged", c);
  // rd = x0: csrrw writes without reading.
  __asm__ volatile("csrrw x0, fflags, %1\n csrr %0, fcsr" : "=r"(a) : "r"(0x3ull));
  sig("csrrw x0 fflags=3", a);
  __asm__ volatile("fsflags %0, %1" : "=r"(a) : "r"(0x1full));
  sig("fsflags old", a);
  __asm__ volatile("fsrm %0, %1\n frcsr %1" : "=r"(a), "=r"(b) : "1"(0x4ull));
  sig("fsrm old", a);
  sig("frcsr", b);
  __asm__ volatile("fscsr %0, %1\n frcsr %1" : "=r"(a), "=r"(b) : "1"(0x0ull));
  sig("fscsr old", a);
  sig("fcsr cleared", b);
  // An FP op sets flags in fflags seen through fcsr.
  __asm__ volatile("fmv.d.x ft0, x0\n fdiv.d ft0, ft0, ft0\n frcsr %0\n fscsr x0" : "=r"(a) :: "ft0");
  sig("fcsr after 0/0", a);
}

static void counters(void) {
  uint64_t c0, c1, t0, t1, i0, i1;
  __asm__ volatile("rdcycle %0\n rdtime %1\n rdinstret %2" : "=r"(c0), "=r"(t0), "=r"(i0));
  for (volatile int k = 0; k < 1000; k++) {
  }
  __asm__ volatile("rdcycle %0\n rdtime %1\n rdinstret %2" : "=r"(c1), "=r"(t1), "=r"(i1));
  sig("cycle advances", c1 > c0);
  sig("time does not go back", t1 >= t0);
  sig("instret advances", i1 > i0);
}

static uint32_t code[4] __attribute__((aligned(8)));
static void fence_i(void) {
  typedef long (*fn)(void);
  code[0] = 0x02a00513;  // addi a0, x0, 42
  code[1] = 0x00008067;  // jalr x0, 0(ra)
  __asm__ volatile("fence.i" ::: "memory");
  sig("generated code", (uint64_t)((fn)code)());
  code[0] = 0x02b00513;  // addi a0, x0, 43
  __asm__ volatile("fence.i" ::: "memory");
  sig("modified code after fence.i", (uint64_t)((fn)code)());
}

int main(int hart) {
  sig_begin("rv_csr");
  fcsr_aliasing();
  counters();
  fence_i();
  sig_end();
  return 0;
}
