// LR/SC and AMOs stay atomic across harts, whatever the host threads do
// (docs/harts.md, "Parallel harts"): every hart adds 1 to one shared counter
// with amoadd.w and to another with an lr.w/sc.w loop, N times each; after
// a barrier hart 0 checks that no increment was lost.
#include <stdint.h>

#include "avp/device.h"

#define N 65536

static volatile uint32_t amo_count, lrsc_count, harts;
static volatile uint64_t sc_failures;

static void lrsc_increment(volatile uint32_t* p) {
  uint32_t v, fail;
  do {
    __asm__ volatile("lr.w %0, (%2)\n\taddi %0, %0, 1\n\tsc.w %1, %0, (%2)" : "=&r"(v), "=&r"(fail) : "r"(p) : "memory");
    if (fail) __atomic_fetch_add(&sc_failures, 1, __ATOMIC_RELAXED);
  } while (fail);
}

int main(int hart) {
  __atomic_fetch_add(&harts, 1, __ATOMIC_RELAXED);
  for (int i = 0; i < N; ++i) {
    __atomic_fetch_add(&amo_count, 1, __ATOMIC_RELAXED);
    lrsc_increment(&lrsc_count);
  }
  avp_barrier();
  if (hart == 0) {
    const int ok = amo_count == harts * N && lrsc_count == harts * N;
    avp_printf("atomics: %u harts x %d: amoadd %u, lr/sc %u (%lu sc retries): %s\n", harts, N, amo_count, lrsc_count,
               (unsigned long)sc_failures, ok ? "no increment lost" : "INCREMENTS LOST");
    return ok ? 0 : 1;
  }
  return 0;
}
