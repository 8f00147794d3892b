// Placing code in TCIM and data in TCDM with the accelvp.ld sections; the
// same source runs on the QEMU targets, where the sections are plain RAM.
#include <stdio.h>

#include "avp/device.h"

#define MAX_HARTS 64
static int scratch[MAX_HARTS] __attribute__((section(".tcdm")));        // this core's TCDM
static int shared[MAX_HARTS] __attribute__((section(".tcdm_global")));  // core 0's TCDM
__attribute__((section(".tcim"), noinline)) static int twice(int x) { return 2 * x; }

int main(int hart) {
  scratch[hart] = twice(21);
  shared[hart] = scratch[hart] + 1;
  avp_barrier();
  if (hart == 0) printf("tcim %d tcdm %d tcdm_global %d\n", twice(4), scratch[0], shared[0]);
  return 0;
}
