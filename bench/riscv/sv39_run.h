// Runs a benchmark's work in S-mode with Sv39 translation on (the bench's
// "translation on" figure against the same work in M-mode, Bare): every
// address is identity-mapped by 1 GiB leaf pages with A and D set, PMP entry
// 0 opens all memory, and avp_run_lower (the SDK's avp/lower_mode.h) runs the
// work and comes back. The same code runs on qemu-system-riscv64 (virt), so
// both sides translate.
#pragma once
#include <stdint.h>

#include "avp/csr.h"
#include "avp/lower_mode.h"

static uint64_t sv39_root[512] __attribute__((aligned(4096)));
static uint64_t (*sv39_work)(unsigned);

static uint64_t sv39_call(uint64_t arg) { return sv39_work((unsigned)arg); }

static uint64_t run_sv39(uint64_t (*fn)(unsigned), unsigned arg) {
  // Leaf i maps [i GiB, i+1 GiB) to itself: PPN i << 18, V R W X A D.
  for (uint64_t i = 0; i < 512; ++i) sv39_root[i] = (i << 28) | 0xCF;
  avp_csr_write(pmpaddr0, ~0ull >> 10);
  avp_csr_write(pmpcfg0, 0x1f);  // NAPOT, R W X: all memory
  sv39_work = fn;
  return avp_run_lower(AVP_MODE_S, (8ull << 60) | ((uint64_t)sv39_root >> 12), sv39_call, arg);
}
