// A loop whose code page competes with its data pages for the TLB (docs/harts.md,
// "Address translation and protection"). In S-mode with Sv39, a function
// alone on its page, mapped at TEST_VA, reads one word from each of four
// data pages (four virtual pages of one physical page) per iteration, 200
// iterations, between statistics dumps of the perf block. test_fetch_tlb.cpp
// runs it with five TLB entries (the five pages fit: walks only to fill) and
// with four, where fetching the loop needs its page's translation again
// after the data pages pushed it out, and the pages evict each other.
#include "priv.h"
#include "test_paging.h"

#define DATA_PAGES 4

static uint64_t data[512] __attribute__((aligned(4096)));
static volatile uint64_t sum;

// Position-independent: it runs at TEST_VA, its data pages follow it.
__attribute__((noinline, aligned(4096))) static uint64_t sweep(uint64_t va) {
  uint64_t s = 0;
  for (unsigned long n = 200; n; --n)
    for (unsigned p = 1; p <= DATA_PAGES; ++p) s += *(volatile uint64_t*)(va + 4096 * p + 8 * p);
  return s;
}

static void measured(void) {
  stats(AVP_STATS_RESET);
  sum = ((uint64_t(*)(uint64_t))TEST_VA)(TEST_VA);
  stats(AVP_STATS_DUMP | AVP_STATS_RESET);
}

int main(void) {
  priv_setup();
  map_test_pages();
  l0[0] = ppn((const void*)sweep) << 10 | AVP_PTE_V | AVP_PTE_X | AVP_PTE_A;
  for (unsigned k = 1; k <= DATA_PAGES; ++k) l0[k] = ppn(data) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_A;
  for (unsigned i = 0; i < 512; ++i) data[i] = i;
  avp_csr_write(satp, AVP_SATP_SV39 | ppn(root));
  __asm__ volatile("sfence.vma" ::: "memory");
  run_in_mode(MODE_S, measured);
  avp_csr_write(satp, 0);
  printf("fetch_tlb: %u traps, sum %llu\n", trap_count, (unsigned long long)sum);
  return 0;
}
