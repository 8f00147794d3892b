// Never ends: a bare-metal program for tests that stop a run from outside
// (signals, GDB). Hart 0 prints once, then every hart counts forever.
#include "avp/device.h"

int main(int hart) {
  if (hart == 0) avp_printf("spinning\n");
  for (volatile unsigned long i = 0;; ++i) {
  }
  return 0;
}
