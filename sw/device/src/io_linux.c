// Linux user-mode I/O layer (qemu-riscv64): write(64) and exit_group(94).
// One thread, so the barrier has nothing to wait for.
#include <string.h>

#include "io.h"

static long linux_syscall3(long nr, long a, long b, long c) {
  register long a0 __asm__("a0") = a;
  register long a1 __asm__("a1") = b;
  register long a2 __asm__("a2") = c;
  register long a7 __asm__("a7") = nr;
  __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
  return a0;
}

void avp_sys_print(const char* s) {
  size_t n = strlen(s);
  while (n > 0) {
    long w = linux_syscall3(64, 1, (long)s, (long)n);
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

void avp_sys_exit(int code) {
  linux_syscall3(94, code, 0, 0);
  for (;;) {
  }
}

void avp_sys_barrier(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// QEMU keeps no statistics of the platform's.
void avp_sys_stats(unsigned op) { (void)op; }
