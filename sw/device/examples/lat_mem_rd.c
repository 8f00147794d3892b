// Memory read latency, lmbench's lat_mem_rd style: a chain of pointers one
// cache line (64 bytes) apart through a working set of 1 KiB to 8 MiB, read
// as dependent loads (p = *p) and timed with mcycle, which counts every hart
// clock, stalls included; then 8 MiB with pointers 128 KiB apart (DRAM row
// misses). One line per working set:
//   chase <bytes> bytes stride <s>: loads <n> cycles <c> instret <i>
// (accel-vp run --elf; tests/harts/chase_closed_form.py compares the cycles
// per load with the closed form of the configured caches and memory,
// docs/timing.md). The plateaus are the L1 hit and the memory latency.
#include <stdint.h>

#include "avp/csr.h"
#include "avp/device.h"

#define LINE 64
#define MAX_BYTES (8ul << 20)
#define LOADS_PER_ITER 16
#define ROW_MISS_STRIDE (128ul << 10)
static uint64_t buf[MAX_BYTES / 8] __attribute__((aligned(4096)));

// A circular chain through the first `bytes` of buf, one pointer every `stride` bytes, in address order.
static void* build_chain(unsigned long bytes, unsigned long stride) {
  const unsigned long n = bytes / stride, step = stride / 8;
  for (unsigned long i = 0; i < n; ++i) buf[i * step] = (uint64_t)&buf[((i + 1) % n) * step];
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

// Cycles per load of a chase through `bytes` with pointers `stride` apart, after one pass.
static void measure(unsigned long bytes, unsigned long stride) {
  void* p = build_chain(bytes, stride);
  const unsigned long n = bytes / stride;
  const unsigned long loads = n < 4096 ? 4096 : n;
  p = chase(p, (n + LOADS_PER_ITER - 1) / LOADS_PER_ITER);  // one pass: the caches hold what they can
  const uint64_t c0 = avp_csr_read(mcycle), i0 = avp_csr_read(minstret);
  p = chase(p, loads / LOADS_PER_ITER);
  const uint64_t c1 = avp_csr_read(mcycle), i1 = avp_csr_read(minstret);
  avp_printf("chase %lu bytes stride %lu: loads %lu cycles %lu instret %lu (%p)\n", bytes, stride, loads,
             (unsigned long)(c1 - c0), (unsigned long)(i1 - i0), p);
}

int main(int hart) {
  if (hart != 0) return 0;
  for (unsigned long bytes = 1024; bytes <= MAX_BYTES; bytes *= 2) measure(bytes, LINE);
  // Pointers 128 KiB apart: every load misses in the L1 (one set), and with
  // DRAM banks of rows interleaved over up to 16 banks x 8 KiB (the DDR4
  // preset) every load opens another row of the same bank: the row-miss latency.
  measure(MAX_BYTES, ROW_MISS_STRIDE);
  return 0;
}
