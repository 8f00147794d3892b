// Svpbmt's page attributes in the timing (docs/harts.md, "Address
// translation and protection"): the same 4 KiB of DRAM mapped three times,
// with PBMT 0 (the PMA: cacheable), 1 (NC) and 2 (IO). In S-mode, 8 lines of
// each mapping are read 64 times between statistics dumps of the perf block;
// then a loop of code runs through its cacheable address and through an NC
// mapping of its page. test_pbmt_timing.cpp reads the dumps: the cacheable
// mappings hit the caches, the uncached ones bypass them and reach DRAM on
// every read and every entry of the loop's block.
#include "harts/perf_regs.h"
#include "priv.h"

#define PTE_V 0x01
#define PTE_R 0x02
#define PTE_W 0x04
#define PTE_X 0x08
#define PTE_A 0x40
#define PTE_D 0x80
#define PBMT(k) ((uint64_t)(k) << 61)
#define SATP_SV39 (8ull << 60)
#define MENVCFG_PBMTE (1ull << 62)
#define TEST_VA 0x200000000ull  // vpn2 = 8: outside the identity-mapped first 3 GiB

static uint64_t root[512] __attribute__((aligned(4096)));
static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l0[512] __attribute__((aligned(4096)));
static uint64_t data[512] __attribute__((aligned(4096)));
static volatile uint64_t sum;

static uint64_t ppn(const void* p) { return (uint64_t)p >> 12; }

// 100 iterations of a one-block loop, alone on its page (mapped NC at TEST_VA + 3 pages).
__attribute__((noinline, aligned(4096))) static void spin(void) {
  for (unsigned long n = 100; n;) __asm__ volatile("addi %0, %0, -1" : "+r"(n));
}

static void dump_and_reset(void) {
  *(volatile uint64_t*)(uintptr_t)(AVP_PERF_BASE + AVP_PERF_STATS_CONTROL) = AVP_STATS_DUMP | AVP_STATS_RESET;
}

static void read_lines(uint64_t va) {
  uint64_t s = 0;
  for (int r = 0; r < 64; ++r)
    for (int i = 0; i < 8; ++i) s += *(volatile uint64_t*)(va + 64 * i);
  sum += s;
}

static void regions(void) {
  *(volatile uint64_t*)(uintptr_t)(AVP_PERF_BASE + AVP_PERF_STATS_CONTROL) = AVP_STATS_RESET;
  for (int k = 0; k < 3; ++k) {
    read_lines(TEST_VA + 4096 * k);
    dump_and_reset();
  }
  spin();
  dump_and_reset();
  ((void (*)(void))(TEST_VA + 3 * 4096))();
  dump_and_reset();
}

int main(void) {
  priv_setup();
  for (unsigned i = 0; i < 3; ++i)  // identity gigapages 0..3 GiB: code, data, stacks, devices
    root[i] = ((uint64_t)i << 18) << 10 | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D;
  root[8] = ppn(l1) << 10 | PTE_V;
  l1[0] = ppn(l0) << 10 | PTE_V;
  for (unsigned k = 0; k < 3; ++k) l0[k] = ppn(data) << 10 | PTE_V | PTE_R | PTE_W | PTE_A | PTE_D | PBMT(k);
  l0[3] = ppn((const void*)spin) << 10 | PTE_V | PTE_X | PTE_A | PBMT(1);
  for (unsigned i = 0; i < 512; ++i) data[i] = i;
  avp_csr_set(0x30a, MENVCFG_PBMTE);  // menvcfg
  avp_csr_write(satp, SATP_SV39 | ppn(root));
  __asm__ volatile("sfence.vma" ::: "memory");
  run_in_mode(MODE_S, regions);
  avp_csr_write(satp, 0);
  printf("pbmt_timing: %u traps, sum %llu\n", trap_count, (unsigned long long)sum);
  return 0;
}
