// qemu-virt I/O layer: NS16550 UART at 0x1000_0000 for output, the SiFive
// test device at 0x10_0000 to end the simulation. The number of running harts
// comes from qemu-virt.ld (__avp_boot_params). Like accel-vp, the run ends
// when every hart has exited; the exit code is the first non-zero one.
#include <stdint.h>

#include "io.h"

#define UART_BASE 0x10000000ul
#define UART_THR 0
#define UART_LSR 5
#define UART_LSR_THRE 0x20
#define SIFIVE_TEST_BASE 0x100000ul
#define SIFIVE_TEST_PASS 0x5555u
#define SIFIVE_TEST_FAIL 0x3333u

extern const uint64_t __avp_boot_params[2];  // harts, stack size

static uint32_t print_lock;
static uint32_t exited, exit_code;
static uint32_t barrier_count, barrier_phase;

static void uart_putc(char c) {
  volatile uint8_t* uart = (volatile uint8_t*)UART_BASE;
  while ((uart[UART_LSR] & UART_LSR_THRE) == 0) {
  }
  uart[UART_THR] = (uint8_t)c;
}

void avp_sys_print(const char* s) {
  while (__atomic_exchange_n(&print_lock, 1, __ATOMIC_ACQUIRE) != 0) {
  }
  while (*s) uart_putc(*s++);
  __atomic_store_n(&print_lock, 0, __ATOMIC_RELEASE);
}

void avp_sys_exit(int code) {
  uint32_t expected = 0;
  if (code != 0) __atomic_compare_exchange_n(&exit_code, &expected, (uint32_t)code, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  if (__atomic_add_fetch(&exited, 1, __ATOMIC_SEQ_CST) == __avp_boot_params[0]) {
    uint32_t c = __atomic_load_n(&exit_code, __ATOMIC_SEQ_CST);
    volatile uint32_t* test = (volatile uint32_t*)SIFIVE_TEST_BASE;
    *test = c == 0 ? SIFIVE_TEST_PASS : ((c & 0xffff) << 16) | SIFIVE_TEST_FAIL;
  }
  for (;;) __asm__ volatile("wfi");
}

// Sense-reversing barrier over all running harts.
void avp_sys_barrier(void) {
  uint32_t phase = __atomic_load_n(&barrier_phase, __ATOMIC_ACQUIRE);
  if (__atomic_add_fetch(&barrier_count, 1, __ATOMIC_ACQ_REL) == __avp_boot_params[0]) {
    __atomic_store_n(&barrier_count, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&barrier_phase, phase + 1, __ATOMIC_RELEASE);
  } else {
    while (__atomic_load_n(&barrier_phase, __ATOMIC_ACQUIRE) == phase) {
    }
  }
}

// QEMU keeps no statistics of the platform's.
void avp_sys_stats(unsigned op) { (void)op; }
