// Runs a benchmark's work in S-mode with Sv39 translation on (the bench's
// "translation on" figure against the same work in M-mode, Bare): every
// address is identity-mapped by 1 GiB leaf pages with A and D set, PMP entry
// 0 opens all memory, and the work returns to M-mode with an ECALL, which the
// M-mode handler turns into a longjmp back into run_sv39. The same code runs
// on qemu-system-riscv64 (virt), so both sides translate.
#pragma once
#include <setjmp.h>
#include <stdint.h>

#include "avp/csr.h"

static uint64_t sv39_root[512] __attribute__((aligned(4096)));
static jmp_buf sv39_back;
static uint64_t (*volatile sv39_fn)(unsigned);
static volatile unsigned sv39_arg;
static volatile uint64_t sv39_result;

static void __attribute__((interrupt("machine"), aligned(4))) sv39_trap(void) { longjmp(sv39_back, 1); }

static void __attribute__((noreturn)) sv39_s_entry(void) {
  sv39_result = sv39_fn(sv39_arg);
  __asm__ volatile("ecall" ::: "memory");
  for (;;) {
  }
}

static uint64_t run_sv39(uint64_t (*fn)(unsigned), unsigned arg) {
  // Leaf i maps [i GiB, i+1 GiB) to itself: PPN i << 18, V R W X A D.
  for (uint64_t i = 0; i < 512; ++i) sv39_root[i] = (i << 28) | 0xCF;
  avp_csr_write(pmpaddr0, ~0ull >> 10);
  avp_csr_write(pmpcfg0, 0x1f);  // NAPOT, R W X: all memory
  avp_csr_write(mcounteren, ~0ull);
  sv39_fn = fn;
  sv39_arg = arg;
  const uint64_t old_mtvec = avp_csr_read(mtvec);
  if (setjmp(sv39_back) == 0) {
    avp_csr_write(mtvec, (uint64_t)sv39_trap);
    avp_csr_write(satp, (8ull << 60) | ((uint64_t)sv39_root >> 12));
    __asm__ volatile("sfence.vma" ::: "memory");
    avp_csr_clear(mstatus, 3ull << 11);
    avp_csr_set(mstatus, 1ull << 11);  // MPP = S
    avp_csr_write(mepc, (uint64_t)sv39_s_entry);
    __asm__ volatile("mret" ::: "memory");
  }
  avp_csr_write(satp, 0);
  avp_csr_write(mtvec, old_mtvec);
  return sv39_result;
}
