// Region-of-interest statistics: reset, 10000 iterations of a 2-instruction
// loop, dump (ECALL); then 30000 iterations and dump-and-reset through the
// perf block's STATS_CONTROL register; then a short tail to the end of the run.
#include <stdint.h>

#include "avp/device.h"
#include "harts/perf_regs.h"

static void spin(unsigned long n) {
  __asm__ volatile("1: addi %0, %0, -1\n bnez %0, 1b" : "+r"(n));
}

int main(int hart) {
  volatile uint64_t* ctl = (volatile uint64_t*)(uintptr_t)(AVP_PERF_BASE + AVP_PERF_STATS_CONTROL);
  avp_printf("before the region\n");
  avp_stats_reset();
  spin(10000);
  avp_stats_dump();
  spin(30000);
  *ctl = AVP_STATS_DUMP | AVP_STATS_RESET;
  const uint64_t dumps = *ctl;
  spin(100);
  avp_printf("dumps %lu\n", (unsigned long)dumps);
  return 0;
}
