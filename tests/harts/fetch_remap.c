// A code page's translation changing under its decoded blocks (docs/harts.md,
// "Invalidation"): the blocks stay decoded across SFENCE.VMA and satp writes,
// and must run what their virtual page maps to now. In S-mode with Sv39:
// - the page at TEST_VA maps to one of two physical pages holding different
//   functions, changed between loops of calls (SFENCE.VMA of every address,
//   then of that address only; satp writes between two address spaces,
//   ASIDs 1 and 2, which map the page differently);
// - the page loses its execute permission: the call faults (instruction page
//   fault, to M-mode), and runs again once the permission is back;
// - an instruction crossing from one page into the next, whose second page
//   maps to one of two physical pages with different upper halves.
// Each check prints "fetch_remap: NAME ok" or what it got and wanted.
#include "priv.h"
#include "test_paging.h"

// Position-independent, each at the start of its own page.
__attribute__((noinline, aligned(4096))) static uint64_t code_a(uint64_t x) { return x * 3 + 1; }
__attribute__((noinline, aligned(4096))) static uint64_t code_b(uint64_t x) { return x * 5 + 2; }

// The crossing instruction: `addi a0, a0, imm` (0x00000513 | imm << 20) whose
// low half ends cross_lo, and whose high half (with c.ret after it) starts
// cross_hi1 (imm 1) or cross_hi2 (imm 2).
static uint16_t cross_lo[2048] __attribute__((aligned(4096)));
static uint16_t cross_hi1[2048] __attribute__((aligned(4096)));
static uint16_t cross_hi2[2048] __attribute__((aligned(4096)));
#define CROSS_VA (TEST_VA + 2 * 4096 - 2)  // pages 1 (cross_lo) and 2 (a high half)

// A second address space: the same identity gigapages, another page at TEST_VA.
static uint64_t root2[512] __attribute__((aligned(4096)));
static uint64_t l1b[512] __attribute__((aligned(4096)));
static uint64_t l0b[512] __attribute__((aligned(4096)));

// The checks' results, printed in M-mode (printf is a host call there).
struct result {
  const char* name;
  uint64_t got, want;
};
static struct result results[16];
static unsigned n_results;

static uint64_t code_pte(const void* page) { return ppn(page) << 10 | AVP_PTE_V | AVP_PTE_X | AVP_PTE_A; }

// n calls of the function at va (a loop whose blocks chain to it).
static uint64_t calls(uint64_t va, unsigned n) {
  uint64_t s = 0;
  for (unsigned i = 0; i < n; ++i) s += ((uint64_t(*)(uint64_t))va)(i);
  return s;
}

static uint64_t sum_a(unsigned n) { return 3ull * n * (n - 1) / 2 + n; }
static uint64_t sum_b(unsigned n) { return 5ull * n * (n - 1) / 2 + 2ull * n; }

static void check(const char* name, uint64_t got, uint64_t want) {
  results[n_results++] = (struct result){name, got, want};
}

static void sfence_all(void) { __asm__ volatile("sfence.vma" ::: "memory"); }
static void sfence_va(uint64_t va) { __asm__ volatile("sfence.vma %0" ::"r"(va) : "memory"); }

// One call of the function at va that resumes after the call when its fetch
// faults (m_trap goes to resume_pc): returns a0, x itself after a fault.
static uint64_t call_resuming(uint64_t va, uint64_t x) {
  register uint64_t a0 __asm__("a0") = x;
  __asm__ volatile(
      "la t0, 1f\n"
      "sd t0, 0(%[resume])\n"
      "jalr %[f]\n"
      "1:\n"
      : "+r"(a0)
      : [f] "r"(va), [resume] "r"((uint64_t*)&resume_pc)
      : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "memory");
  return a0;
}

static void remaps(void) {
  const unsigned n = 50;
  l0[0] = code_pte((const void*)code_a);
  sfence_all();
  check("first-mapping", calls(TEST_VA, n), sum_a(n));
  l0[0] = code_pte((const void*)code_b);
  sfence_all();
  check("remapped-sfence-all", calls(TEST_VA, n), sum_b(n));
  l0[0] = code_pte((const void*)code_a);
  sfence_va(TEST_VA);
  check("remapped-sfence-va", calls(TEST_VA, n), sum_a(n));

  // Address spaces: satp writes alone (the TLB's entries are tagged with their ASID).
  avp_csr_write(satp, AVP_SATP_SV39 | 2ull << 44 | ppn(root2));
  check("asid2", calls(TEST_VA, n), sum_b(n));
  avp_csr_write(satp, AVP_SATP_SV39 | 1ull << 44 | ppn(root));
  check("asid1", calls(TEST_VA, n), sum_a(n));
  avp_csr_write(satp, AVP_SATP_SV39 | 2ull << 44 | ppn(root2));
  check("asid2-again", calls(TEST_VA, n), sum_b(n));
  avp_csr_write(satp, AVP_SATP_SV39 | 1ull << 44 | ppn(root));

  // Execute permission taken away, then given back.
  l0[0] = ppn((const void*)code_a) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_A;
  sfence_all();
  trap_count = 0;
  const uint64_t r = call_resuming(TEST_VA, 7);
  check("not-executable-faults", trap_count == 1 && last.cause == 12 && last.tval == TEST_VA && r == 7, 1);
  trap_count = 0;
  l0[0] = code_pte((const void*)code_a);
  sfence_all();
  check("executable-again", calls(TEST_VA, n), sum_a(n));

  // The second page of a crossing instruction remapped.
  const unsigned m = 20;
  check("crossing-hi1", calls(CROSS_VA, m), m * (m - 1) / 2 + m);
  l0[2] = code_pte(cross_hi2);
  sfence_all();
  check("crossing-hi2", calls(CROSS_VA, m), m * (m - 1) / 2 + 2 * m);
  l0[2] = code_pte(cross_hi1);
  sfence_va(TEST_VA + 2 * 4096);
  check("crossing-hi1-again", calls(CROSS_VA, m), m * (m - 1) / 2 + m);
}

int main(void) {
  priv_setup();
  map_test_pages();
  for (unsigned i = 0; i < 3; ++i) root2[i] = root[i];
  root2[8] = ppn(l1b) << 10 | AVP_PTE_V;
  l1b[0] = ppn(l0b) << 10 | AVP_PTE_V;
  l0b[0] = code_pte((const void*)code_b);
  cross_lo[2047] = 0x0513;  // addi a0, a0, imm: its low half
  cross_hi1[0] = 0x0015;    // imm 1 (rs1 a0's upper bits, imm << 4)
  cross_hi2[0] = 0x0025;    // imm 2
  cross_hi1[1] = cross_hi2[1] = 0x8082;  // c.ret
  __asm__ volatile("fence.i" ::: "memory");
  l0[1] = code_pte(cross_lo);
  l0[2] = code_pte(cross_hi1);
  avp_csr_write(satp, AVP_SATP_SV39 | ppn(root));
  sfence_all();
  run_in_mode(MODE_S, remaps);
  avp_csr_write(satp, 0);
  unsigned failures = 0;
  for (unsigned i = 0; i < n_results; ++i) {
    const struct result* r = &results[i];
    if (r->got == r->want) {
      printf("fetch_remap: %s ok\n", r->name);
    } else {
      printf("fetch_remap: %s FAILED: got %llu, want %llu\n", r->name, (unsigned long long)r->got,
             (unsigned long long)r->want);
      ++failures;
    }
  }
  printf("fetch_remap: %u failed, %u traps\n", failures, trap_count);
  return failures != 0;
}
