// Loops that poll a device register on two harts (docs/harts.md, "Polling
// loops"), in two builds:
//  - POLL_MTIME: M-mode delays on the CLINT's mtime read as memory (a
//    deadline and a difference with the start, of lengths inside and across
//    quanta, different per hart), and one on mtime's low half (which the CLINT
//    does not declare a clock: never skipped);
//  - POLL_UART: hart 1 waits for a UART byte (LSR.DR), which never comes,
//    until hart 0 sets a flag, then in the same way on IIR (reading it may
//    clear an interrupt: never skipped), then for a byte with a timeout on
//    the time CSR; hart 0 waits by counting, which is never skipped either,
//    so every skip of the run is of an LSR loop.
// Each wait prints what the counters read after it, so the console carries
// them (wait_loop_equivalence.py compares runs with and without skipping).
#include <stdint.h>

#include "avp/device.h"
#include "avp/sysdev.h"

static volatile int go;

static inline uint64_t rdtime(void) {
  uint64_t t;
  __asm__ volatile("rdtime %0" : "=r"(t));
  return t;
}

static void report(int hart, const char* what, uint64_t t0) {
  uint64_t cycle, instret;
  __asm__ volatile("rdcycle %0" : "=r"(cycle));
  __asm__ volatile("rdinstret %0" : "=r"(instret));
  avp_printf("hart %d %s: %lu ns, cycle %lu, instret %lu\n", hart, what, (unsigned long)(rdtime() - t0),
             (unsigned long)cycle, (unsigned long)instret);
}

#if defined(POLL_MTIME)
__attribute__((noinline)) static void mtime_deadline(uint64_t ticks) {
  const uint64_t end = *AVP_CLINT_MTIME + ticks;
  while (*AVP_CLINT_MTIME < end) {
  }
}

__attribute__((noinline)) static void mtime_difference(uint64_t ticks) {
  const uint64_t start = *AVP_CLINT_MTIME;
  while (*AVP_CLINT_MTIME - start < ticks) __asm__ volatile("nop");
}

__attribute__((noinline)) static void mtime_low_half(uint32_t ticks) {
  volatile uint32_t* low = (volatile uint32_t*)AVP_CLINT_MTIME;
  const uint32_t start = *low;
  while (*low - start < ticks) {
  }
}

int main(int hart) {
  const uint64_t lengths[] = {150, 2000, 9999 + 37 * (uint64_t)hart, 45000, 123457};
  for (unsigned i = 0; i < sizeof lengths / sizeof lengths[0]; ++i) {
    uint64_t t0 = rdtime();
    mtime_deadline(lengths[i]);
    report(hart, "mtime deadline", t0);
    t0 = rdtime();
    mtime_difference(lengths[i] + 3);
    report(hart, "mtime difference", t0);
  }
  const uint64_t t0 = rdtime();
  mtime_low_half(20000);
  report(hart, "mtime low half", t0);
  return 0;
}
#elif defined(POLL_UART)
static volatile int done;

__attribute__((noinline)) static void count_to(unsigned n) {
  for (volatile unsigned i = 0; i < n; ++i) {
  }
}

int main(int hart) {
  uint64_t t0 = rdtime();
  if (hart == 1) {
    while (!(*AVP_UART_REG(AVP_UART_LSR) & AVP_UART_LSR_DR) && !go) {
    }
    report(hart, "LSR poll", t0);
    t0 = rdtime();
    while ((*AVP_UART_REG(2) & 0x0f) == 0x01 && !done) {  // IIR: no interrupt pending
    }
    report(hart, "IIR poll", t0);
    t0 = rdtime();
    const uint64_t end = t0 + 30000;
    while (!(*AVP_UART_REG(AVP_UART_LSR) & AVP_UART_LSR_DR) && rdtime() < end) {
    }
    report(hart, "LSR poll with a timeout", t0);
  } else if (hart == 0) {
    count_to(20000);
    go = 1;
    report(hart, "set the flag", t0);
    t0 = rdtime();
    count_to(5000);
    done = 1;
    report(hart, "set the second flag", t0);
  }
  return 0;
}
#else
#error "build with POLL_MTIME or POLL_UART"
#endif
