// What the wait-loop test programs print after each wait (wait_loops.c,
// spin_beside_work.c): the time it took and the counters read after it, so
// that the console carries them (wait_loop_equivalence.py compares runs).
#pragma once
#include <stdint.h>

#include "avp/device.h"

static inline uint64_t rdtime(void) {
  uint64_t t;
  __asm__ volatile("rdtime %0" : "=r"(t));
  return t;
}
static inline uint64_t rdcycle(void) {
  uint64_t t;
  __asm__ volatile("rdcycle %0" : "=r"(t));
  return t;
}
static inline uint64_t rdinstret(void) {
  uint64_t t;
  __asm__ volatile("rdinstret %0" : "=r"(t));
  return t;
}

static void report(int hart, const char* what, uint64_t t0) {
  avp_printf("hart %d %s: %lu ns, cycle %lu, instret %lu\n", hart, what, (unsigned long)(rdtime() - t0),
             (unsigned long)rdcycle(), (unsigned long)rdinstret());
}
