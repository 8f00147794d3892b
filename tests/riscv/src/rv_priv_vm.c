// Virtual memory (privileged spec, "Supervisor-Level ISA", Sv39/Sv48): every
// combination of the leaf PTE's R W X U A D bits against loads, stores and
// fetches from S-mode (SUM and MXR off and on) and U-mode, with the A/D bits
// the walk leaves behind; superpages and misaligned superpages; invalid and
// non-canonical addresses; MPRV; SFENCE.VMA; Sv48; satp WARL; PMP on the
// page-table walk; Svnapot's 64 KiB pages and Svpbmt's page attributes
// (QEMU runs with svnapot=true,svpbmt=true). Results are printed relative to the test addresses so the
// signature does not depend on where the program is loaded.
#include "priv.h"
#include "avp/pte.h"

#define TEST_VA 0x200000000ull  // vpn2 = 8: outside the identity-mapped first 3 GiB
#define MEGA_VA (TEST_VA + 0x200000)
#define GIGA_VA 0x240000000ull  // vpn2 = 9
#define RET_INSN 0x00008067u

static uint64_t root_s[512] __attribute__((aligned(4096)));   // code and data: S-only
static uint64_t root_u[512] __attribute__((aligned(4096)));   // code and data: U
static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l0[512] __attribute__((aligned(4096)));
static uint64_t root48[512] __attribute__((aligned(4096)));
static uint64_t l2_48[512] __attribute__((aligned(4096)));
static uint32_t pages[2][1024] __attribute__((aligned(4096)));
static uint32_t napot_pages[16][1024] __attribute__((aligned(65536)));

static volatile uint64_t g_va, g_value, g_done;
static volatile int g_kind;  // 0 load, 1 store, 2 fetch

static uint64_t ppn(const void* p) { return (uint64_t)p >> 12; }
static uint64_t table(const void* next) { return ppn(next) << 10 | AVP_PTE_V; }
static void sfence_all(void) { __asm__ volatile("sfence.vma" ::: "memory"); }
// A load in M-mode with MPRV set and MPP = mpp (one asm block: no stack access in between).
static uint32_t mprv_load(uint64_t va, uint64_t mpp) {
  uint32_t v = 0;
  const uint64_t bits = AVP_MSTATUS_MPRV | mpp << 11;
  avp_csr_clear(mstatus, 3ull << 11);
  __asm__ volatile("csrs mstatus, %1\n lw %0, 0(%2)\n csrc mstatus, %1" : "+r"(v) : "r"(bits), "r"(va) : "memory");
  avp_csr_clear(mstatus, AVP_MSTATUS_MPRV | 3ull << 11);
  return v;
}

static void access_fn(void) {
  uint64_t va = g_va;
  if (g_kind == 0) {
    g_value = *(volatile uint32_t*)va;
  } else if (g_kind == 1) {
    *(volatile uint32_t*)(va + 4) = 0x5a5a0000u | (uint32_t)g_done;
  } else {
    __asm__ volatile("la t0, 1f\n sd t0, 0(%0)\n jalr ra, 0(%1)\n1:" ::"r"(&resume_pc), "r"(va)
                     : "t0", "ra", "memory");
    resume_pc = 0;
  }
  g_done = 1;
}

// One access in `mode` with satp = root; prints the trap cause (0: none),
// whether tval is the address, the leaf's A/D bits after it and the value.
static void try_access(const char* what, uint64_t mode, uint64_t* root, uint64_t va, int kind,
                       volatile uint64_t* leaf) {
  static const char* const kinds[] = {"load", "store", "fetch"};
  avp_csr_write(satp, AVP_SATP_SV39 | ppn(root));
  sfence_all();
  g_va = va;
  g_kind = kind;
  g_done = 0;
  g_value = 0;
  pages[0][1] = 0;
  trap_count = 0;
  run_in_mode(mode, access_fn);
  uint64_t cause = trap_count ? last.cause : 0;
  uint64_t tval_ok = trap_count ? last.tval == va + (kind == 1 ? 4 : 0) : 1;
  uint64_t ad = leaf ? (*leaf & (AVP_PTE_A | AVP_PTE_D)) : 0;
  // After a fault the destination register was not written: no value to show.
  uint64_t value = cause ? 0 : kind == 0 ? g_value : kind == 1 ? pages[0][1] : g_done;
  trap_count = 0;
  avp_csr_write(satp, 0);
  sfence_all();
  printf("%s %s: cause=%llx tval_ok=%llu ad=%02llx value=%08llx\n", what, kinds[kind], (unsigned long long)cause,
         (unsigned long long)tval_ok, (unsigned long long)ad, (unsigned long long)value);
}

static void permission_matrix(void) {
  static const char* const modes[] = {"S", "S+SUM", "S+MXR", "U"};
  for (unsigned flags = 0; flags < 64; ++flags) {
    const uint64_t bits = ((flags & 7) << 1) | ((flags & 8) ? AVP_PTE_U : 0) | ((flags & 16) ? AVP_PTE_A : 0) |
                          ((flags & 32) ? AVP_PTE_D : 0);
    for (unsigned m = 0; m < 4; ++m) {
      for (int kind = 0; kind < 3; ++kind) {
        l0[0] = ppn(pages[0]) << 10 | AVP_PTE_V | bits;
        avp_csr_clear(mstatus, AVP_MSTATUS_SUM | AVP_MSTATUS_MXR);
        if (m == 1) avp_csr_set(mstatus, AVP_MSTATUS_SUM);
        if (m == 2) avp_csr_set(mstatus, AVP_MSTATUS_MXR);
        char what[48];
        snprintf(what, sizeof what, "pte %02llx %s", (unsigned long long)(bits | AVP_PTE_V), modes[m]);
        try_access(what, m == 3 ? MODE_U : MODE_S, m == 3 ? root_u : root_s, TEST_VA, kind, &l0[0]);
      }
    }
  }
  avp_csr_clear(mstatus, AVP_MSTATUS_SUM | AVP_MSTATUS_MXR);
}

static void superpages(void) {
  const uint64_t rwxad = AVP_PTE_V | AVP_PTE_R | AVP_PTE_W | AVP_PTE_X | AVP_PTE_A | AVP_PTE_D;
  // The 2 MiB page and the 1 GiB page holding pages[0], mapped at MEGA_VA and GIGA_VA.
  const uint64_t mega = (uint64_t)pages[0] & ~0x1fffffull, giga = (uint64_t)pages[0] & ~0x3fffffffull;
  l1[1] = (mega >> 12) << 10 | rwxad;
  pages[0][0] = RET_INSN;
  try_access("megapage", MODE_S, root_s, MEGA_VA + ((uint64_t)pages[0] - mega), 0, &l1[1]);
  l1[1] = ((mega >> 12) + 1) << 10 | rwxad;  // ppn[0] != 0: misaligned
  try_access("misaligned megapage", MODE_S, root_s, MEGA_VA + ((uint64_t)pages[0] - mega), 0, &l1[1]);
  l1[1] = 0;
  root_s[9] = (giga >> 12) << 10 | rwxad;
  try_access("gigapage", MODE_S, root_s, GIGA_VA + ((uint64_t)pages[0] - giga), 0, &root_s[9]);
  root_s[9] = ((giga >> 12) + 0x200) << 10 | rwxad;  // ppn[1] != 0: misaligned
  try_access("misaligned gigapage", MODE_S, root_s, GIGA_VA + ((uint64_t)pages[0] - giga), 2, &root_s[9]);
  root_s[9] = ((giga >> 12) + 1) << 10 | rwxad;  // ppn[0] != 0: misaligned
  try_access("misaligned gigapage ppn0", MODE_S, root_s, GIGA_VA + ((uint64_t)pages[0] - giga), 1, &root_s[9]);
  root_s[9] = 0;
}

static void walk_errors(void) {
  l0[0] = ppn(pages[0]) << 10 | AVP_PTE_R | AVP_PTE_A;  // V = 0
  try_access("invalid pte", MODE_S, root_s, TEST_VA, 0, &l0[0]);
  l0[0] = table(pages[1]);  // a pointer at level 0
  try_access("pointer at level 0", MODE_S, root_s, TEST_VA, 0, &l0[0]);
  l0[0] = ppn(pages[0]) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_A | (1ull << 60);  // reserved bits 63:54
  try_access("reserved pte bits", MODE_S, root_s, TEST_VA, 0, &l0[0]);
  l0[0] = ppn(pages[0]) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_A;
  try_access("non-canonical va", MODE_S, root_s, 0x4000000000ull, 0, 0);
  try_access("unmapped va", MODE_S, root_s, 0x300000000ull, 0, 0);
  try_access("page offset", MODE_S, root_s, TEST_VA + 0x123, 0, &l0[0]);
}

// Svnapot: a level-0 leaf with N and ppn[3:0] = 1000 maps 64 KiB, each 4 KiB
// page to the page of the same index in the aligned physical range (all 16
// PTEs of the range hold it); other sizes, N above level 0 and N in a
// pointer are reserved: page faults.
static void napot(void) {
  const uint64_t base = ppn(napot_pages) | 8, leaf = AVP_PTE_V | AVP_PTE_R | AVP_PTE_W | AVP_PTE_A | AVP_PTE_N;
  for (unsigned k = 0; k < 16; ++k) {
    napot_pages[k][0] = 0x4e000000u | k;
    l0[k] = base << 10 | leaf;
  }
  try_access("napot page 0", MODE_S, root_s, TEST_VA, 0, &l0[0]);
  try_access("napot page 5", MODE_S, root_s, TEST_VA + 5 * 4096 + 0x40, 0, &l0[5]);
  napot_pages[15][0x10] = 0x4e0000ffu;
  try_access("napot page 15", MODE_S, root_s, TEST_VA + 15 * 4096 + 0x40, 0, &l0[15]);
  try_access("napot store sets d", MODE_S, root_s, TEST_VA + 7 * 4096, 1, &l0[7]);
  l0[0] = (ppn(napot_pages) | 4) << 10 | leaf;  // 32 KiB: reserved
  try_access("napot ppn 0100", MODE_S, root_s, TEST_VA, 0, &l0[0]);
  l0[0] = ppn(napot_pages) << 10 | leaf;  // ppn[3:0] = 0000: reserved
  try_access("napot ppn 0000", MODE_S, root_s, TEST_VA, 0, &l0[0]);
  for (unsigned k = 0; k < 16; ++k) l0[k] = 0;
  const uint64_t mega = (uint64_t)pages[0] & ~0x1fffffull;
  l1[1] = (mega >> 12) << 10 | leaf;  // N on an aligned 2 MiB page (a megapage without N)
  try_access("napot megapage", MODE_S, root_s, MEGA_VA + ((uint64_t)pages[0] - mega), 0, &l1[1]);
  l1[1] = 0;
}

// Svpbmt: with menvcfg.PBMTE a leaf's PBMT 1 (NC) and 2 (IO) map the page
// (uncached: the same data here) and 3 is reserved; without PBMTE, or in a
// pointer, PBMT is reserved: page faults.
static void pbmt(void) {
  const uint64_t leaf = ppn(pages[0]) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_W | AVP_PTE_X | AVP_PTE_A | AVP_PTE_D;
  static const char* const names[] = {"pbmt pma", "pbmt nc", "pbmt io", "pbmt 3"};
  avp_csr_set(0x30a, AVP_MENVCFG_PBMTE);  // menvcfg
  printf("menvcfg.pbmte: %llu\n", (unsigned long long)((avp_csr_read(0x30a) & AVP_MENVCFG_PBMTE) != 0));
  pages[0][0] = RET_INSN;
  for (unsigned k = 0; k < 4; ++k)
    for (int kind = 0; kind < 3; ++kind) {
      l0[0] = leaf | AVP_PTE_PBMT(k);
      try_access(names[k], MODE_S, root_s, TEST_VA, kind, &l0[0]);
    }
  l0[0] = leaf;
  l1[0] = table(l0) | AVP_PTE_PBMT(1);
  try_access("pbmt in a pointer", MODE_S, root_s, TEST_VA, 0, &l0[0]);
  l1[0] = table(l0);
  avp_csr_clear(0x30a, AVP_MENVCFG_PBMTE);
  l0[0] = leaf | AVP_PTE_PBMT(1);
  try_access("pbmt nc without pbmte", MODE_S, root_s, TEST_VA, 0, &l0[0]);
  l0[0] = 0;
}

static void mprv(void) {
  static const uint64_t mpp[] = {MODE_S, MODE_U};
  for (int u = 0; u < 2; ++u)
    for (int m = 0; m < 2; ++m) {
      l0[0] = ppn(pages[0]) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_A | (u ? AVP_PTE_U : 0);
      avp_csr_write(satp, AVP_SATP_SV39 | ppn(root_s));
      sfence_all();
      trap_count = 0;
      uint32_t v = mprv_load(TEST_VA, mpp[m]);
      avp_csr_write(satp, 0);
      printf("mprv mpp=%llu pte.u=%d: cause=%llx value=%08x\n", (unsigned long long)mpp[m], u,
             (unsigned long long)(trap_count ? last.cause : 0), trap_count ? 0 : v);
      trap_count = 0;
    }
}

static void sfence_behaviour(void) {
  const uint64_t leaf = AVP_PTE_V | AVP_PTE_R | AVP_PTE_W | AVP_PTE_A | AVP_PTE_D;
  pages[0][0] = 0xaaaa0000u;
  pages[1][0] = 0xbbbb0000u;
  static const char* const names[] = {"sfence.vma x0,x0", "sfence.vma va,x0", "sfence.vma x0,asid"};
  for (int k = 0; k < 3; ++k) {
    l0[0] = ppn(pages[0]) << 10 | leaf;
    avp_csr_write(satp, AVP_SATP_SV39 | 1ull << 44 | ppn(root_s));
    __asm__ volatile("sfence.vma" ::: "memory");
    uint32_t before = mprv_load(TEST_VA, MODE_S);
    l0[0] = ppn(pages[1]) << 10 | leaf;
    uint64_t va = TEST_VA, asid = 1;
    if (k == 0) __asm__ volatile("sfence.vma x0, x0" ::: "memory");
    if (k == 1) __asm__ volatile("sfence.vma %0, x0" ::"r"(va) : "memory");
    if (k == 2) __asm__ volatile("sfence.vma x0, %0" ::"r"(asid) : "memory");
    uint32_t after = mprv_load(TEST_VA, MODE_S);
    avp_csr_write(satp, 0);
    printf("%s: before=%08x after=%08x traps=%u\n", names[k], before, after, trap_count);
    trap_count = 0;
  }
  pages[0][0] = RET_INSN;
}

static void sv48_and_satp(void) {
  avp_csr_write(satp, AVP_SATP_SV39 | 5ull << 44 | ppn(root_s));
  avp_csr_write(satp, (5ull << 60) | ppn(root48));  // reserved mode: the write has no effect
  printf("satp after a reserved mode: mode=%llu asid=%llu\n", (unsigned long long)(avp_csr_read(satp) >> 60),
         (unsigned long long)((avp_csr_read(satp) >> 44) & 0xffff));
  avp_csr_write(satp, 0);
  l0[0] = ppn(pages[0]) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_W | AVP_PTE_X | AVP_PTE_A | AVP_PTE_D;
  avp_csr_write(satp, AVP_SATP_SV48 | ppn(root48));
  printf("satp sv48 mode=%llu\n", (unsigned long long)(avp_csr_read(satp) >> 60));
  sfence_all();
  trap_count = 0;
  uint32_t v = mprv_load(TEST_VA, MODE_S);
  uint32_t w = mprv_load(TEST_VA + (1ull << 39), MODE_S);  // vpn3 = 1: invalid
  avp_csr_write(satp, 0);
  printf("sv48 load: value=%08x, unmapped vpn3: cause=%llx value=%08x\n", v,
         (unsigned long long)(trap_count ? last.cause : 0), trap_count ? 0 : w);
  trap_count = 0;
}

// PMP applies to the walk's own accesses (as S-mode reads): a page table the
// PMP hides gives an access fault of the original access, not a page fault.
static void pmp_on_walk(void) {
  l0[0] = ppn(pages[0]) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_W | AVP_PTE_A | AVP_PTE_D;
  avp_csr_write(pmpaddr1, ~0ull >> 10);  // entry 1 opens everything else
  avp_csr_write(pmpcfg0, 0x1f1f);
  avp_csr_write(pmpaddr0, ((uint64_t)l0 >> 2) | 0x1ff);  // NAPOT 4 KiB over l0, no permissions
  avp_csr_write(pmpcfg0, 0x1f18);
  try_access("pmp denies the pte", MODE_S, root_s, TEST_VA, 0, 0);
  try_access("pmp denies the pte", MODE_S, root_s, TEST_VA, 1, 0);
  avp_csr_write(pmpcfg0, 0x1f1f);
  avp_csr_write(pmpaddr0, ~0ull >> 10);
  avp_csr_write(pmpcfg0, 0x1f);
}

int main(void) {
  sig_begin("rv_priv_vm");
  priv_setup();
  for (unsigned i = 0; i < 3; ++i) {  // identity gigapages 0..3 GiB: code, data, stacks, devices
    root_s[i] = ((uint64_t)i << 18) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_W | AVP_PTE_X | AVP_PTE_A | AVP_PTE_D;
    root_u[i] = root_s[i] | AVP_PTE_U;
    l2_48[i] = root_s[i];
  }
  root_s[8] = root_u[8] = l2_48[8] = table(l1);
  root48[0] = table(l2_48);
  l1[0] = table(l0);
  pages[0][0] = RET_INSN;
  permission_matrix();
  superpages();
  walk_errors();
  napot();
  pbmt();
  mprv();
  sfence_behaviour();
  sv48_and_satp();
  pmp_on_walk();
  sig_end();
  return 0;
}
