// Smallest device program: every hart greets, meets the others at a barrier,
// and hart 0 reports. Built for every program target as an SDK smoke test.
#include <stdio.h>

#include "avp/device.h"

static int counter = 41;  // .data
static int zeroed;        // .bss, cleared by hart 0 before main
static __thread int per_hart = 7;

int main(int hart) {
  per_hart += hart;
  printf("hello from hart %d (tls %d)\n", hart, per_hart);
  avp_barrier();
  if (hart == 0) {
    avp_printf("data %d bss %d hart_id %u\n", counter + 1, zeroed, avp_hart_id());
    double x = 1.5;
    printf("fp %d\n", (int)(x * 4.0));
  }
  return 0;
}
