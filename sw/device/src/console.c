// The console device functions of avp/device.h: MMIO on accel-vp (programs
// and kernels), stdout on the QEMU targets.
#include <stdint.h>
#include <stdio.h>

#include "avp/device.h"
#include "io.h"

int avp_stdio_uses_console;

#if defined(AVP_TARGET_ACCELVP) || defined(AVP_TARGET_KERNEL)
#include "console/console_regs.h"

#define AVP_CONSOLE_REG(off) (*(volatile uint32_t*)(uintptr_t)(AVP_CONSOLE_BASE + (off)))

void avp_console_putc(char c) { AVP_CONSOLE_REG(AVP_CONSOLE_TXDATA) = (unsigned char)c; }
void avp_console_flush(void) { AVP_CONSOLE_REG(AVP_CONSOLE_FLUSH) = 1; }

void avp_stdio_console(int on) {
  avp_stdout_flush();  // what stdout collected so far comes first
  avp_stdio_uses_console = on;
}
#else
void avp_console_putc(char c) { putchar(c); }
void avp_console_flush(void) { avp_stdout_flush(); }
void avp_stdio_console(int on) { (void)on; }
#endif

void avp_console_puts(const char* s) {
  while (*s) avp_console_putc(*s++);
}
