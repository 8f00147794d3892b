// A timer interrupt every millisecond through the CLINT, taken in M-mode
// (runs on accel-vp with `accel-vp run --elf` and on qemu-system-riscv64
// virt): the handler moves mtimecmp one period on, main sleeps in WFI until
// ten interrupts have come. mtime counts AVP_MTIME_HZ ticks per second
// (accel-vp: clint.frequency, in simulated time).
#include <stdio.h>

#include "avp/csr.h"
#include "avp/sysdev.h"

#define PERIOD (AVP_MTIME_HZ / 1000)
#define MIE_MTIE (1u << 7)
#define CAUSE_MTI ((1ull << 63) | 7)

static volatile unsigned ticks, other_traps;

static void __attribute__((interrupt("machine"), aligned(4))) on_trap(void) {
  if (avp_csr_read(mcause) == CAUSE_MTI) {
    *AVP_CLINT_MTIMECMP(0) += PERIOD;  // also clears the pending interrupt
    if (++ticks == 10) avp_csr_clear(mie, MIE_MTIE);  // the tenth is the last
  } else {
    ++other_traps;
    avp_csr_write(mepc, avp_csr_read(mepc) + 4);
  }
}

int main(int hart) {
  if (hart != 0) return 0;
  avp_csr_write(mtvec, (uint64_t)on_trap);
  const uint64_t start = *AVP_CLINT_MTIME;
  *AVP_CLINT_MTIMECMP(0) = start + PERIOD;
  avp_csr_set(mie, MIE_MTIE);
  while (ticks < 10) avp_wfi_take_interrupts();  // mstatus.MIE stays clear between the check and WFI
  const uint64_t elapsed = *AVP_CLINT_MTIME - start;
  printf("timer: %u interrupts, at least 10 ms of mtime: %d, other traps: %u\n", ticks, elapsed >= 10 * PERIOD,
         other_traps);
  return 0;
}
