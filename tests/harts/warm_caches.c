// Caches warmed by a functional run (harts.warm_caches, docs/timing.md): the
// program writes a 16 KiB array (half the default D-cache), resets the
// statistics (the switch point stats-reset), reads the array twice and dumps
// them. Timed throughout, or functional and warming the caches up to the
// reset, the region has the same counters; switched with cold caches, its
// first reads miss.
#include <stdint.h>

#include "avp/device.h"

#define WORDS (16 * 1024 / 8)
static uint64_t data[WORDS];

__attribute__((noinline)) static uint64_t sweep(int write, uint64_t seed) {
  uint64_t sum = 0;
  for (int i = 0; i < WORDS; i++) {
    if (write) data[i] = seed + (uint64_t)i;
    else sum += data[i];
  }
  return sum;
}

int main(int hart) {
  if (hart) return 0;
  sweep(1, 7);
  avp_stats_reset();
  uint64_t sum = sweep(0, 0);
  sum += sweep(0, 0);
  avp_stats_dump();
  avp_printf("sum %lu\n", (unsigned long)sum);
  return 0;
}
