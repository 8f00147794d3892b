// A pointer chase for load-latency measurements (lat_mem_rd style): a
// circular chain of pointers and a loop of dependent loads over it.
#pragma once
#include <stdint.h>

// Loads per iteration of avp_chase.
#define AVP_CHASE_LOADS_PER_ITER 16

// A circular chain through the first `bytes` of buf, one pointer every
// `stride` bytes, in address order; returns its start.
static inline void* avp_chase_build(uint64_t* buf, unsigned long bytes, unsigned long stride) {
  const unsigned long n = bytes / stride, step = stride / 8;
  for (unsigned long i = 0; i < n; ++i) buf[i * step] = (uint64_t)&buf[((i + 1) % n) * step];
  return buf;
}

// iters x AVP_CHASE_LOADS_PER_ITER dependent loads (p = *p); returns where it ended.
static inline void* avp_chase(void* p, unsigned long iters) {
  __asm__ volatile(
      "1:\n"
      "ld %0, 0(%0)\n ld %0, 0(%0)\n ld %0, 0(%0)\n ld %0, 0(%0)\n"
      "ld %0, 0(%0)\n ld %0, 0(%0)\n ld %0, 0(%0)\n ld %0, 0(%0)\n"
      "ld %0, 0(%0)\n ld %0, 0(%0)\n ld %0, 0(%0)\n ld %0, 0(%0)\n"
      "ld %0, 0(%0)\n ld %0, 0(%0)\n ld %0, 0(%0)\n ld %0, 0(%0)\n"
      "addi %1, %1, -1\n bnez %1, 1b\n"
      : "+r"(p), "+r"(iters)
      :
      : "memory");
  return p;
}
