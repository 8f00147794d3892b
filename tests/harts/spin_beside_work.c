// Harts spinning while another runs other code, as OpenSBI's secondary
// harts wait for their start while hart 0 boots a kernel: every hart but
// hart 0 spins on a WFI that does not sleep (its MSIP pending, mstatus.MIE
// clear) until a flag is set, reading it through a call that saves and
// restores its return address on the stack (a store of the same value at
// every iteration). Hart 0 meanwhile fills and sums a buffer larger than
// its D-cache, stores into the flag's 256-byte granule without setting the
// flag halfway, prints, and then sets the flag. Each hart prints what its
// counters read after its part (wait_loop_equivalence.py compares runs with
// and without run-ahead: docs/harts.md, "Other code beside spinning harts").
#include <stdint.h>

#include "avp/device.h"
#include "avp/sysdev.h"
#include "wait_report.h"
#include "xintf.h"

// The flag and, in its granule, a word hart 0 writes while the others wait.
static volatile struct {
  int go;
  int beside;
} flag __attribute__((aligned(256)));

static uint64_t buffer[8192];  // 64 KiB

__attribute__((noinline)) static int flag_value(void) { return flag.go; }

__attribute__((noinline)) static int started(void) {
  const int v = flag_value();
  __asm__ volatile("" ::: "memory");  // a call that is not a tail call: ra goes to the stack
  return v;
}

__attribute__((noinline)) static uint64_t work(unsigned passes) {
  uint64_t x = 88172645463325252ull, sum = 0;
  for (unsigned p = 0; p < passes; ++p) {
    for (unsigned i = 0; i < sizeof buffer / sizeof buffer[0]; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      buffer[i] += x;
    }
    for (unsigned i = 0; i < sizeof buffer / sizeof buffer[0]; i += 3) sum += buffer[i];
  }
  return sum;
}

int main(int hart) {
  const uint64_t t0 = rdtime();
  if (hart == 0) {
    uint64_t sum = work(2);
    flag.beside = 1;
    avp_printf("hart 0 halfway: %lu\n", (unsigned long)sum);
    sum += work(2);
    flag.go = 1;
    avp_printf("hart 0 sum %lu\n", (unsigned long)sum);
    report(hart, "set the flag", t0);
  } else {
    const uint64_t lun = avp_xext(AVP_XINTF_UUID_HARTINFO), self = (uint64_t)hart;
    uint64_t r;
    AVP_XCMD(4, r, lun, self);                        // raise its own MSIP
    __asm__ volatile("csrs mie, %0" ::"r"(1u << 3));  // MSIE: WFI does not sleep, no trap is taken
    while (!started()) __asm__ volatile("wfi");
    AVP_XCMD(5, r, lun, self);
    report(hart, "wfi spin", t0);
  }
  return 0;
}
