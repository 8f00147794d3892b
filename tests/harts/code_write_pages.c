// A store into decoded code drops only the blocks of the written granules
// (docs/harts.md, "Invalidation"): in S-mode with Sv39, where decoding a
// block looks its page up in the TLB, a loop on one code page runs after a
// store into another code page and after a store into data, each between
// statistics dumps. The loop's blocks stay decoded across the code store,
// so both windows make the same TLB lookups (test_code_write_pages.cpp); if
// a code store dropped every block, the loop and its caller would be decoded
// again, each block with a lookup.
#include "priv.h"
#include "test_paging.h"

// Position-independent, each at the start of its own page (TEST_VA, TEST_VA + 4096).
__attribute__((noinline, aligned(4096))) static uint64_t loop_a(uint64_t n) {
  uint64_t s = 0;
  for (uint64_t i = 0; i < n; ++i) s += (i & 3) ? i : 2 * i;
  return s;
}
__attribute__((noinline, aligned(4096))) static uint64_t code_b(uint64_t x) { return x + 7; }

static volatile uint32_t scratch[64];
static volatile uint64_t sum;

// The window: one store (into code_b's first word, rewritten as it is, or into data), then the loop.
static void window(volatile uint32_t* target) {
  stats(AVP_STATS_RESET);
  *target = *target;
  sum += ((uint64_t(*)(uint64_t))TEST_VA)(100);
  stats(AVP_STATS_DUMP | AVP_STATS_RESET);
}

static void windows(void) {
  volatile uint32_t* code = (volatile uint32_t*)(uintptr_t)code_b;  // its identity-mapped physical address
  for (int round = 0; round < 2; ++round) {  // the second round's dumps are compared
    sum += ((uint64_t(*)(uint64_t))(TEST_VA + 4096))(1);  // code_b decoded: its granule holds code
    window(code);
    sum += ((uint64_t(*)(uint64_t))(TEST_VA + 4096))(1);
    window(&scratch[0]);
  }
}

int main(void) {
  priv_setup();
  map_test_pages();
  l0[0] = ppn((const void*)loop_a) << 10 | AVP_PTE_V | AVP_PTE_X | AVP_PTE_A;
  l0[1] = ppn((const void*)code_b) << 10 | AVP_PTE_V | AVP_PTE_X | AVP_PTE_A;
  avp_csr_write(satp, AVP_SATP_SV39 | ppn(root));
  __asm__ volatile("sfence.vma" ::: "memory");
  run_in_mode(MODE_S, windows);
  avp_csr_write(satp, 0);
  printf("code_write_pages: %u traps, sum %llu\n", trap_count, (unsigned long long)sum);
  return 0;
}
