// A bare-metal program that prints more console lines than the manifest keeps
// (HartCluster::kKeptConsoleLines), then exits 0.
#include "avp/device.h"

int main(int hart) {
  for (int i = 0; i < 10100; ++i) avp_printf("line %d\n", i);
  return 0;
}
