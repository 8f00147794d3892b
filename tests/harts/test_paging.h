// The Sv39 page tables of the harts' paging tests (pbmt_timing.c,
// fetch_tlb.c): identity gigapages over the first 3 GiB (code, data, stacks,
// devices) and one table of 4 KiB pages (l0) at TEST_VA, which the test
// fills; and the perf block's statistics control, for dumps around the
// measured part.
#pragma once
#include <stdint.h>

#include "harts/perf_regs.h"
#include "avp/pte.h"

#define TEST_VA 0x200000000ull  // vpn2 = 8: outside the identity-mapped first 3 GiB

static uint64_t root[512] __attribute__((aligned(4096)));
static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l0[512] __attribute__((aligned(4096)));

static uint64_t ppn(const void* p) { return (uint64_t)p >> 12; }

static void map_test_pages(void) {
  for (unsigned i = 0; i < 3; ++i)
    root[i] = ((uint64_t)i << 18) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_W | AVP_PTE_X | AVP_PTE_A | AVP_PTE_D;
  root[8] = ppn(l1) << 10 | AVP_PTE_V;
  l1[0] = ppn(l0) << 10 | AVP_PTE_V;
}

__attribute__((unused)) static void stats(uint64_t control) {  // the perf block's STATS_CONTROL (reachable through identity gigapage 0)
  *(volatile uint64_t*)(uintptr_t)(AVP_PERF_BASE + AVP_PERF_STATS_CONTROL) = control;
}
