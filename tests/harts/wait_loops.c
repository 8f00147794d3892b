// Loops that wait for the time CSR, as firmware and kernels write them, on
// every hart: U-Boot's udelay (a call per read, the count through the
// stack), Linux's __delay (a difference with the start), a signed deadline,
// and a loop that also counts its iterations (which carries a value from one
// iteration to the next, so it is never skipped); then hart 1 spins on a WFI
// that does not sleep (its MSIP pending, mstatus.MIE clear) until hart 0 sets
// a flag, as OpenSBI's secondary harts wait for their start. Each wait prints
// what the counters read after it, so the console carries them
// (wait_loop_equivalence.py compares runs with and without skipping).
// Built with PENDING_TIMER, hart 0 first sets its mtimecmp beyond the run's
// end (its interrupt not enabled), so that a timed notification of the CLINT
// is pending throughout: the harts run ahead past quantum ends beside it
// (base/run_ahead.h).
#include <stdint.h>

#include "avp/device.h"
#include "avp/sysdev.h"
#include "wait_report.h"
#include "xintf.h"

static volatile int go;

__attribute__((noinline)) static int timer_get_count(uint64_t* count) {
  *count = rdtime();
  return 0;
}

__attribute__((noinline)) static uint64_t get_ticks(void) {
  uint64_t count;
  if (timer_get_count(&count)) return 0;
  return count;
}

__attribute__((noinline)) static void udelay_ns(uint64_t ns) {
  const uint64_t end = get_ticks() + ns;
  while (get_ticks() < end + 1) {
  }
}

__attribute__((noinline)) static void linux_delay(uint64_t ns) {
  const uint64_t start = rdtime();
  while (rdtime() - start < ns) __asm__ volatile("nop");
}

__attribute__((noinline)) static void signed_deadline(int64_t ns) {
  const int64_t end = (int64_t)rdtime() + ns;
  while ((int64_t)rdtime() < end) {
  }
}

__attribute__((noinline)) static uint64_t counted_delay(uint64_t ns) {
  uint64_t n = 0;
  const uint64_t end = rdtime() + ns;
  while (rdtime() < end) ++n;
  return n;
}

int main(int hart) {
#ifdef PENDING_TIMER
  if (hart == 0) *AVP_CLINT_MTIMECMP(0) = rdtime() + AVP_MTIME_HZ;  // one second on
#endif
  // Lengths that end inside and across quanta, different per hart.
  const uint64_t lengths[] = {150, 2000, 9999 + 37 * (uint64_t)hart, 45000, 123457};
  for (unsigned i = 0; i < sizeof lengths / sizeof lengths[0]; ++i) {
    uint64_t t0 = rdtime();
    udelay_ns(lengths[i]);
    report(hart, "udelay", t0);
    t0 = rdtime();
    linux_delay(lengths[i] + 3);
    report(hart, "__delay", t0);
    t0 = rdtime();
    signed_deadline((int64_t)lengths[i] / 2);
    report(hart, "signed", t0);
  }
  uint64_t t0 = rdtime();
  const uint64_t n = counted_delay(20000);
  avp_printf("hart %d counted %lu iterations\n", hart, (unsigned long)n);
  report(hart, "counted", t0);

  const uint64_t lun = avp_xext(AVP_XINTF_UUID_HARTINFO);
  uint64_t r;
  t0 = rdtime();
  if (hart == 1) {
    const uint64_t self = 1;
    AVP_XCMD(4, r, lun, self);                                // raise its own MSIP
    __asm__ volatile("csrs mie, %0" ::"r"(1u << 3));          // MSIE: WFI does not sleep, no trap is taken
    while (!go) __asm__ volatile("wfi");
    AVP_XCMD(5, r, lun, self);
    report(hart, "wfi spin", t0);
  } else if (hart == 0) {
    udelay_ns(70000);
    go = 1;
    report(hart, "set the flag", t0);
  }
  return 0;
}
