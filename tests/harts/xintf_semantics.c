// Overloadable-opcode semantics on the harts: xext/xext0/xextm1 for known and
// unknown uuids, the fallback luns and the standard fallback interfaces
// (uuids 1 and 2), a device call, and the illegal-instruction traps of lun 0,
// of an unmapped lun and of a device's unknown command (tval = the instruction).
#include <stdint.h>

#include "avp/device.h"
#include "xintf.h"

static volatile uint64_t trap_cause, trap_value, trap_insn;

// mtvec holds a 4-byte aligned address (its low bits are the mode).
__attribute__((interrupt("machine"), aligned(4))) static void on_trap(void) {
  uint64_t cause, tval, epc;
  __asm__ volatile("csrr %0, mcause" : "=r"(cause));
  __asm__ volatile("csrr %0, mtval" : "=r"(tval));
  __asm__ volatile("csrr %0, mepc" : "=r"(epc));
  trap_cause = cause;
  trap_value = tval;
  const volatile uint16_t* at = (const volatile uint16_t*)epc;
  trap_insn = at[0] | (uint64_t)at[1] << 16;
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
  // The standard fallback interfaces are found by xext like any device.
  uint64_t zero_lun, minus_lun;
  const uint64_t return_zero = AVP_XINTF_UUID_RETURN_ZERO << 12, return_minus_one = AVP_XINTF_UUID_RETURN_MINUS_ONE << 12;
  AVP_XEXT(zero_lun, return_zero, data);
  AVP_XEXT(minus_lun, return_minus_one, data);
  avp_printf("ReturnZero uuid 1: lun %lu data 0x%lx\n", (unsigned long)(zero_lun & 0xFFF), (unsigned long)(zero_lun >> 12));
  avp_printf("ReturnMinusOne uuid 2: lun %lu data 0x%lx\n", (unsigned long)(minus_lun & 0xFFF),
             (unsigned long)(minus_lun >> 12));
  AVP_XCMD(6, rd, zero_lun, data);
  avp_printf("ReturnZero xcmd6 returns %ld\n", (long)rd);
  AVP_XCMD(6, rd, minus_lun, data);
  avp_printf("ReturnMinusOne xcmd6 returns %ld\n", (long)rd);
  // A device's unknown command: illegal instruction with the instruction in tval.
  trap_cause = trap_value = trap_insn = 0;
  AVP_XCMD(7, rd, lun, data);  // hartinfo has commands 0..5
  avp_printf("unknown device command trap cause %lu, tval is the instruction: %s\n", (unsigned long)trap_cause,
             trap_value != 0 && trap_value == trap_insn ? "yes" : "no");
  return 0;
}
