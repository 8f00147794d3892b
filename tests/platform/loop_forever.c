// A bare-metal program that never ends: the instruction limit or
// platform.time_limit must stop it.
#include "avp/device.h"

int main(int hart) {
  volatile unsigned long n = 0;
  for (;;) ++n;
  return hart;
}
