// Memory read latency, lmbench's lat_mem_rd style: a chain of pointers one
// cache line (64 bytes) apart through a working set of 1 KiB to 8 MiB, read
// as dependent loads (p = *p) and timed with mcycle, which counts every hart
// clock, stalls included. One line per working set:
//   chase <bytes> bytes: loads <n> cycles <c> instret <i>
// (accel-vp run --elf; tests/harts/chase_closed_form.py compares the cycles
// per load with the closed form of the configured caches and memory,
// docs/timing.md). The plateaus are the L1 hit and the memory latency.
#include <stdint.h>

#include "avp/csr.h"
#include "avp/device.h"

#define LINE 64
#define MAX_BYTES (8ul << 20)
#define LOADS_PER_ITER 16
static uint64_t buf[MAX_BYTES / 8] __attribute__((aligned(4096)));

// A circular chain through the first `bytes` of buf, one pointer per line, in address order.
static void* build_chain(unsigned long bytes) {
  const unsigned long lines = bytes / LINE, step = LINE / 8;
  for (unsigned long i = 0; i < lines; ++i) buf[i * step] = (uint64_t)&buf[((i + 1) % lines) * step];
  return buf;
}

// iters x 16 dependent loads.
static void* chase(void* p, unsigned long iters) {
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

int main(int hart) {
  if (hart != 0) return 0;
  for (unsigned long bytes = 1024; bytes <= MAX_BYTES; bytes *= 2) {
    void* p = build_chain(bytes);
    const unsigned long lines = bytes / LINE;
    const unsigned long loads = lines < 4096 ? 4096 : lines;
    p = chase(p, (lines + LOADS_PER_ITER - 1) / LOADS_PER_ITER);  // one pass: the caches hold what they can
    const uint64_t c0 = avp_csr_read(mcycle), i0 = avp_csr_read(minstret);
    p = chase(p, loads / LOADS_PER_ITER);
    const uint64_t c1 = avp_csr_read(mcycle), i1 = avp_csr_read(minstret);
    avp_printf("chase %lu bytes: loads %lu cycles %lu instret %lu (%p)\n", bytes, loads, (unsigned long)(c1 - c0),
               (unsigned long)(i1 - i0), p);
  }
  return 0;
}
