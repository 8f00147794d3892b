// The event counters mhpmcounter3..17 (RefSi's counter ids) around a
// straight-line sequence with a known mix: each counter is read just before
// and just after the sequence, so only the sequence's own instructions count.
// Also: mhpmeventN reads N, a written counter goes on counting from the value
// written, and the perf block's per-hart registers show the same counters.
#include <stdint.h>

#include "avp/device.h"
#include "harts/perf_regs.h"

static uint64_t buf[8];
static double two = 2.0;

/* 3 lb, 2 lh, 4 lw + 1 flw, 5 ld + 1 fld; 2 sb, 1 sh, 3 sw, 4 sd + 1 fsd;
 * 3 integer (addi, add, mul), 2 FP (fadd.d), 2 branches (not taken). */
#define SEQ                                                                                     \
  "lb t2, 0(%[p])\n lb t2, 1(%[p])\n lbu t2, 2(%[p])\n lh t2, 0(%[p])\n lhu t2, 2(%[p])\n"       \
  "lw t2, 0(%[p])\n lw t2, 4(%[p])\n lwu t2, 8(%[p])\n lw t2, 12(%[p])\n flw ft0, 0(%[p])\n"     \
  "ld t2, 0(%[p])\n ld t2, 8(%[p])\n ld t2, 16(%[p])\n ld t2, 24(%[p])\n ld t2, 32(%[p])\n"      \
  "fld ft1, 0(%[f])\n"                                                                           \
  "sb zero, 40(%[p])\n sb zero, 41(%[p])\n sh zero, 42(%[p])\n sw zero, 44(%[p])\n"             \
  "sw zero, 48(%[p])\n sw zero, 52(%[p])\n sd zero, 56(%[p])\n sd zero, 48(%[p])\n"             \
  "sd zero, 40(%[p])\n sd zero, 32(%[p])\n fsd ft1, 24(%[p])\n"                                  \
  "addi t2, t2, 1\n add t2, t2, t2\n mul t2, t2, t2\n fadd.d ft1, ft1, ft1\n fadd.d ft1, ft1, ft1\n" \
  "beq zero, %[one], 1f\n 1: bne zero, zero, 2f\n 2:\n"

#define MEASURE(n)                                                                        \
  ({                                                                                      \
    uint64_t a, b;                                                                        \
    __asm__ volatile("csrr %[a], hpmcounter" #n "\n" SEQ "csrr %[b], hpmcounter" #n "\n" \
                     : [a] "=&r"(a), [b] "=&r"(b)                                        \
                     : [p] "r"(buf), [f] "r"(&two), [one] "r"(1)                         \
                     : "t2", "ft0", "ft1", "memory");                                     \
    b - a;                                                                                \
  })

int main(int hart) {
  const uint64_t got[15] = {MEASURE(3),  MEASURE(4),  MEASURE(5),  MEASURE(6),  MEASURE(7),
                            MEASURE(8),  MEASURE(9),  MEASURE(10), MEASURE(11), MEASURE(12),
                            MEASURE(13), MEASURE(14), MEASURE(15), MEASURE(16), MEASURE(17)};
  const uint64_t want[15] = {3, 2, 5, 6, 0, 16, 2, 1, 3, 5, 0, 11, 3, 2, 2};
  int ok = 1;
  for (int i = 0; i < 15; ++i)
    if (got[i] != want[i]) {
      avp_printf("counter %d: %lu, expected %lu\n", i + 3, (unsigned long)got[i], (unsigned long)want[i]);
      ok = 0;
    }
  uint64_t ev, v;
  __asm__ volatile("csrr %0, mhpmevent5" : "=r"(ev));
  if (ev != 5) avp_printf("mhpmevent5 reads %lu\n", (unsigned long)ev), ok = 0;
  /* A written counter counts on from the value written. */
  __asm__ volatile("csrw mhpmcounter3, %[v]\n lb t2, 0(%[p])\n csrr %[v], mhpmcounter3"
                   : [v] "=&r"(v) : "0"(1000), [p] "r"(buf) : "t2");
  if (v != 1001) avp_printf("mhpmcounter3 after writing 1000 and one lb: %lu\n", (unsigned long)v), ok = 0;
  /* The perf block's per-hart register of counter 5 (an ld, not a word load) equals the CSR. */
  volatile uint64_t* perf = (volatile uint64_t*)(uintptr_t)AVP_PERF_BASE;
  const uint64_t mmio = perf[5];
  __asm__ volatile("csrr %0, hpmcounter5" : "=r"(v));
  if (mmio != v) avp_printf("perf block counter 5 %lu, csr %lu\n", (unsigned long)mmio, (unsigned long)v), ok = 0;
  avp_printf(ok ? "perf_events: OK\n" : "perf_events: FAILED\n");
  return ok ? 0 : 1;
}
