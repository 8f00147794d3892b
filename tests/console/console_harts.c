// Console device from several harts: bytes of different harts interleave on
// the device, yet every hart's lines come out whole and prefixed with it.
#include <stdint.h>
#include <stdio.h>

#include "avp/device.h"
#include "console/console_regs.h"

static uint32_t console_status(void) { return *(volatile uint32_t*)(uintptr_t)(AVP_CONSOLE_BASE + AVP_CONSOLE_STATUS); }

int main(int hart) {
  avp_console_puts("console line from hart ");
  avp_console_putc((char)('0' + hart));
  avp_console_putc('\n');
  avp_barrier();
  avp_console_puts("flushed without newline");
  avp_console_flush();
  avp_console_puts("abc");
  const uint32_t status = console_status();
  avp_console_flush();
  avp_stdio_console(1);
  printf("printf through the console: hart %d, status 0x%lx\n", hart, (unsigned long)status);
  return 0;
}
