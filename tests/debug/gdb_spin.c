// A bare-metal program that never ends by itself: the GDB test interrupts it
// (Ctrl-C) and kills it.
#include "avp/device.h"

volatile unsigned long spins;

int main(int hart) {
  for (;;) ++spins;
  return hart;
}
