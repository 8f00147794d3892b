// The 5-instruction integer loop of the ISS benchmark (addi, add, xor, slli,
// bne: no memory access) as a bare-metal program for accel-vp and QEMU, so its
// MIPS can be compared with qemu-system-riscv64's in the same run. Prints
// "bench loop hart H: result R instret N" like the other bench programs.
#include <stdint.h>
#include <stdio.h>

#include "avp/csr.h"
#include "avp/device.h"

#ifdef AVP_BENCH_EMPTY
#define LOOP_ITERATIONS 1
#else
#define LOOP_ITERATIONS 20000000
#endif

int main(int hart) {
  if (hart != 0) return 0;
  uint64_t n = LOOP_ITERATIONS, a = 0, b = 0, c = 0;
  const uint64_t i0 = avp_csr_read(minstret);
  __asm__ volatile(
      "1: addi %0, %0, -1\n"
      "   add  %1, %1, %0\n"
      "   xor  %2, %2, %1\n"
      "   slli %3, %2, 1\n"
      "   bnez %0, 1b\n"
      : "+r"(n), "+r"(a), "+r"(b), "+r"(c));
  const uint64_t i1 = avp_csr_read(minstret);
  printf("bench loop hart %d: result %016llx instret %llu\n", hart, (unsigned long long)(a ^ b ^ c),
         (unsigned long long)(i1 - i0));
  return 0;
}
