// qemu-virt I/O layer: NS16550 UART at 0x1000_0000 for output, the SiFive
// test device at 0x10_0000 to end the simulation. Only hart 0 runs on this
// target (crt0 parks the others), so the barrier has nothing to wait for.
#include <stdint.h>

#include "io.h"

#define UART_BASE 0x10000000ul
#define UART_THR 0
#define UART_LSR 5
#define UART_LSR_THRE 0x20
#define SIFIVE_TEST_BASE 0x100000ul
#define SIFIVE_TEST_PASS 0x5555u
#define SIFIVE_TEST_FAIL 0x3333u

static void uart_putc(char c) {
  volatile uint8_t* uart = (volatile uint8_t*)UART_BASE;
  while ((uart[UART_LSR] & UART_LSR_THRE) == 0) {
  }
  uart[UART_THR] = (uint8_t)c;
}

void avp_sys_print(const char* s) {
  while (*s) uart_putc(*s++);
}

void avp_sys_exit(int code) {
  volatile uint32_t* test = (volatile uint32_t*)SIFIVE_TEST_BASE;
  *test = code == 0 ? SIFIVE_TEST_PASS : ((uint32_t)(code & 0xffff) << 16) | SIFIVE_TEST_FAIL;
  for (;;) {
  }
}

void avp_sys_barrier(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
