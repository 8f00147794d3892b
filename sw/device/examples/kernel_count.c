// A kernel whose cost is known, for sampling the performance counters with
// COPY_MEM64 after it ran: `iterations` loop turns of a few instructions.
#include <stdint.h>

#include "avp/device.h"

AVP_KERNEL void kernel_main(uint64_t instance, uint64_t iterations, volatile uint64_t* sink) {
  uint64_t x = instance;
  for (uint64_t i = 0; i < iterations; ++i) x = x * 3 + i;
  sink[instance] = x;
}
