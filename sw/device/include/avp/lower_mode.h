// Running a function in S- or U-mode from an M-mode program (accel-vp
// `run --elf`, qemu-virt) and coming back: avp_run_lower() installs an M-mode
// trap handler, sets satp, drops to the mode with MRET, and returns the
// function's result when it ends (with an ECALL, which the handler turns
// into a longjmp). Any other exception the lower mode does not handle itself
// (medeleg) is recorded in avp_lower_trap and the faulting instruction is
// skipped, so a program can show what a fault looked like.
// Assumes the code runs at identity-mapped addresses (the handler reads the
// faulting instruction at mepc to skip it). Header-only: the state is per
// program. PMP is the caller's: with Sv39 on, or in S/U-mode at all, the
// caller opens the memory the function needs (see examples/sv39_paging.c).
#pragma once
#include <setjmp.h>
#include <stdint.h>

#include "avp/csr.h"

// The mcounteren the lower mode runs with: every counter readable unless the
// program defines AVP_LOWER_MCOUNTEREN (an expression) before the include.
#ifndef AVP_LOWER_MCOUNTEREN
#define AVP_LOWER_MCOUNTEREN (~0ull)
#endif

#define AVP_MODE_U 0u
#define AVP_MODE_S 1u

// The last exception M-mode took from the lower mode, and how many.
typedef struct {
  uint64_t cause, tval, epc, count;
} avp_lower_trap_record;
static volatile avp_lower_trap_record avp_lower_trap;

static jmp_buf avp_lower_back;
static uint64_t (*volatile avp_lower_fn)(uint64_t);
static volatile uint64_t avp_lower_arg, avp_lower_result;

static void __attribute__((interrupt("machine"), aligned(4))) avp_lower_m_trap(void) {
  const uint64_t cause = avp_csr_read(mcause);
  if (cause == 8 || cause == 9) longjmp(avp_lower_back, 1);  // ECALL from U/S: the function is done
  const uint64_t epc = avp_csr_read(mepc);
  avp_lower_trap.cause = cause;
  avp_lower_trap.tval = avp_csr_read(mtval);
  avp_lower_trap.epc = epc;
  avp_lower_trap.count++;
  const uint16_t low = *(volatile uint16_t*)epc;
  avp_csr_write(mepc, epc + ((low & 3) == 3 ? 4 : 2));
}

static void __attribute__((noreturn)) avp_lower_entry(void) {
  avp_lower_result = avp_lower_fn(avp_lower_arg);
  __asm__ volatile("ecall" ::: "memory");
  for (;;) {
  }
}

// Runs fn(arg) in `mode` (AVP_MODE_S or AVP_MODE_U) with satp = satp_value and returns its result.
static uint64_t avp_run_lower(unsigned mode, uint64_t satp_value, uint64_t (*fn)(uint64_t), uint64_t arg) {
  avp_lower_fn = fn;
  avp_lower_arg = arg;
  avp_csr_write(mcounteren, AVP_LOWER_MCOUNTEREN);
  const uint64_t old_mtvec = avp_csr_read(mtvec);
  if (setjmp(avp_lower_back) == 0) {
    avp_csr_write(mtvec, (uint64_t)avp_lower_m_trap);
    avp_csr_write(satp, satp_value);
    __asm__ volatile("sfence.vma" ::: "memory");
    avp_csr_clear(mstatus, 3ull << 11);
    avp_csr_set(mstatus, (uint64_t)mode << 11);  // MPP
    avp_csr_write(mepc, (uint64_t)avp_lower_entry);
    __asm__ volatile("mret" ::: "memory");
  }
  avp_csr_write(satp, 0);
  __asm__ volatile("sfence.vma" ::: "memory");
  avp_csr_write(mtvec, old_mtvec);
  return avp_lower_result;
}
