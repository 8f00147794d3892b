// A bare-metal program that stores to an unmapped address (0x30000000) from a
// named function, for the trap report and the instruction/memory trace.
#include <stdint.h>

#include "avp/device.h"

volatile uint64_t table[4];

__attribute__((noinline)) void store_to(volatile uint64_t* p, uint64_t v) { *p = v; }

int main(int hart) {
  table[1] = 7;
  avp_printf("storing %lu\n", (unsigned long)table[1]);
  store_to((volatile uint64_t*)0x30000000, table[1]);
  return 0;
}
