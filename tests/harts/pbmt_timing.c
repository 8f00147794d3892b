// Svpbmt's page attributes in the timing (docs/harts.md, "Address
// translation and protection"): the same 4 KiB of DRAM mapped three times,
// with PBMT 0 (the PMA: cacheable), 1 (NC) and 2 (IO). In S-mode, 8 lines of
// each mapping are read 64 times between statistics dumps of the perf block;
// then a loop of code runs through its cacheable address and through an NC
// mapping of its page. test_pbmt_timing.cpp reads the dumps: the cacheable
// mappings hit the caches, the uncached ones bypass them and reach DRAM on
// every read and every entry of the loop's block.
#include "priv.h"
#include "test_paging.h"


static uint64_t data[512] __attribute__((aligned(4096)));
static volatile uint64_t sum;

// 100 iterations of a one-block loop, alone on its page (mapped NC at TEST_VA + 3 pages).
__attribute__((noinline, aligned(4096))) static void spin(void) {
  for (unsigned long n = 100; n;) __asm__ volatile("addi %0, %0, -1" : "+r"(n));
}

static void read_lines(uint64_t va) {
  uint64_t s = 0;
  for (int r = 0; r < 64; ++r)
    for (int i = 0; i < 8; ++i) s += *(volatile uint64_t*)(va + 64 * i);
  sum += s;
}

static void regions(void) {
  stats(AVP_STATS_RESET);
  for (int k = 0; k < 3; ++k) {
    read_lines(TEST_VA + 4096 * k);
    stats(AVP_STATS_DUMP | AVP_STATS_RESET);
  }
  spin();
  stats(AVP_STATS_DUMP | AVP_STATS_RESET);
  ((void (*)(void))(TEST_VA + 3 * 4096))();
  stats(AVP_STATS_DUMP | AVP_STATS_RESET);
}

int main(void) {
  priv_setup();
  map_test_pages();
  for (unsigned k = 0; k < 3; ++k) l0[k] = ppn(data) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_W | AVP_PTE_A | AVP_PTE_D | AVP_PTE_PBMT(k);
  l0[3] = ppn((const void*)spin) << 10 | AVP_PTE_V | AVP_PTE_X | AVP_PTE_A | AVP_PTE_PBMT(1);
  for (unsigned i = 0; i < 512; ++i) data[i] = i;
  avp_csr_set(0x30a, AVP_MENVCFG_PBMTE);  // menvcfg
  avp_csr_write(satp, AVP_SATP_SV39 | ppn(root));
  __asm__ volatile("sfence.vma" ::: "memory");
  run_in_mode(MODE_S, regions);
  avp_csr_write(satp, 0);
  printf("pbmt_timing: %u traps, sum %llu\n", trap_count, (unsigned long long)sum);
  return 0;
}
