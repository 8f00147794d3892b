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
#include "avp/pointer_chase.h"

#define LINE 64
#define MAX_BYTES (8ul << 20)
#define ROW_MISS_STRIDE (128ul << 10)
static uint64_t buf[MAX_BYTES / 8] __attribute__((aligned(4096)));

// Cycles per load of a chase through `bytes` with pointers `stride` apart, after one pass.
static void measure(unsigned long bytes, unsigned long stride) {
  void* p = avp_chase_build(buf, bytes, stride);
  const unsigned long n = bytes / stride;
  const unsigned long loads = n < 4096 ? 4096 : n;
  // One pass: the caches hold what they can.
  p = avp_chase(p, (n + AVP_CHASE_LOADS_PER_ITER - 1) / AVP_CHASE_LOADS_PER_ITER);
  const uint64_t c0 = avp_csr_read(mcycle), i0 = avp_csr_read(minstret);
  p = avp_chase(p, loads / AVP_CHASE_LOADS_PER_ITER);
  const uint64_t c1 = avp_csr_read(mcycle), i1 = avp_csr_read(minstret);
  avp_printf("chase %lu bytes stride %lu: loads %lu cycles %lu instret %lu (%p)\n", bytes, stride, loads,
             (unsigned long)(c1 - c0), (unsigned long)(i1 - i0), p);
}

int main(int hart) {
  if (hart != 0) return 0;
  for (unsigned long bytes = 1024; bytes <= MAX_BYTES; bytes *= 2) measure(bytes, LINE);
  // Pointers 128 KiB apart: every load misses in the L1 (one set), and with
  // DRAM banks of rows interleaved over up to 16 banks x 8 KiB (the default
  // DDR4-3200) every load opens another row of the same bank: the row-miss latency.
  measure(MAX_BYTES, ROW_MISS_STRIDE);
  return 0;
}
