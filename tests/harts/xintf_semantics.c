// Overloadable-opcode semantics on the harts: xext/xext0/xextm1 for known and
// unknown uuids, the fallback luns, a device call, and the illegal-instruction
// traps of lun 0 and of an unmapped lun.
#include <stdint.h>

#include "avp/device.h"
#include "xintf.h"

static volatile uint64_t trap_cause, trap_value;

// mtvec holds a 4-byte aligned address (its low bits are the mode).
__attribute__((interrupt("machine"), aligned(4))) static void on_trap(void) {
  uint64_t cause, tval, epc;
  __asm__ volatile("csrr %0, mcause" : "=r"(cause));
  __asm__ volatile("csrr %0, mtval" : "=r"(tval));
  __asm__ volatile("csrr %0, mepc" : "=r"(epc));
  trap_cause = cause;
  trap_value = tval;
  __asm__ volatile("csrw mepc, %0" ::"r"(epc + 4));
}

int main(int hart) {
  if (hart != 0) return 0;
  __asm__ volatile("csrw mtvec, %0" ::"r"((uint64_t)&on_trap));
  const uint64_t unknown = 0x12345ull << 12, data = 0xABC;
  uint64_t r0, r1, r2, rd;
  AVP_XEXT(r0, unknown, data);
  AVP_XEXT0(r1, unknown, data);
  AVP_XEXTM1(r2, unknown, data);
  avp_printf("unknown uuid: xext %lu xext0 %lu xextm1 %lu\n", (unsigned long)r0, (unsigned long)r1, (unsigned long)r2);
  AVP_XCMD(3, rd, r1, data);
  avp_printf("lun 1 returns %ld\n", (long)rd);
  AVP_XCMD(3, rd, r2, data);
  avp_printf("lun 2 returns %ld\n", (long)rd);
  uint64_t lun;
  const uint64_t info = AVP_XINTF_UUID_HARTINFO << 12;
  AVP_XEXT(lun, info, data);
  avp_printf("hartinfo lun %lu data 0x%lx\n", (unsigned long)(lun & 0xFFF), (unsigned long)(lun >> 12));
  AVP_XCMD(2, rd, lun, data);
  avp_printf("harts per core %lu\n", (unsigned long)rd);
  AVP_XCMD(0, rd, r0, data);  // lun 0: trap
  avp_printf("lun 0 trap cause %lu\n", (unsigned long)trap_cause);
  trap_cause = 0;
  const uint64_t unmapped = 40;
  AVP_XCMD(1, rd, unmapped, data);
  avp_printf("unmapped lun trap cause %lu, tval 0x%lx\n", (unsigned long)trap_cause, (unsigned long)trap_value);
  return 0;
}
