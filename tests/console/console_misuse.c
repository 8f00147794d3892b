// A byte store to TXDATA: the console answers with an error and the hart takes
// a store access fault (registers are 32-bit, 32-bit accesses only).
#include <stdint.h>

#include "avp/device.h"
#include "console/console_regs.h"

int main(int hart) {
  *(volatile uint8_t*)(uintptr_t)(AVP_CONSOLE_BASE + AVP_CONSOLE_TXDATA) = 'x';
  return 0;
}
