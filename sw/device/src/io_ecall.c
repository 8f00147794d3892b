// accel-vp I/O layer: ECALLs in M-mode, handled by the hart cluster.
#include "avp/device.h"
#include "io.h"

static inline long avp_ecall(long fn, long arg) {
  register long a0 __asm__("a0") = arg;
  register long a7 __asm__("a7") = fn;
  __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
  return a0;
}

void avp_sys_exit(int code) {
  avp_ecall(AVP_ECALL_EXIT, code);
  for (;;) {
  }
}

void avp_sys_print(const char* s) { avp_ecall(AVP_ECALL_PRINT, (long)s); }

void avp_sys_barrier(void) { avp_ecall(AVP_ECALL_BARRIER, 0); }

void avp_sys_stats(unsigned op) { avp_ecall(AVP_ECALL_STATS, op); }
