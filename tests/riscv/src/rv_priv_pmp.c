// Physical memory protection (privileged spec, "Physical Memory Protection"):
// NAPOT, NA4 and TOR regions against S- and U-mode loads, stores and fetches;
// the lowest-numbered matching entry wins and must cover every byte; M-mode
// ignores unlocked entries; S/U accesses that match no entry fail; locked
// entries bind M-mode and ignore writes (a locked TOR entry locks the address
// below it too); pmpcfg/pmpaddr read back. Results are printed without
// addresses so the signature does not depend on where the program is loaded.
#include "priv.h"

#define CFG_R 0x01
#define CFG_W 0x02
#define CFG_X 0x04
#define CFG_TOR 0x08
#define CFG_NA4 0x10
#define CFG_NAPOT 0x18
#define CFG_L 0x80
#define RET_INSN 0x00008067u

static uint32_t region[3][1024] __attribute__((aligned(4096)));
static volatile uint64_t g_addr, g_value;
static volatile int g_kind, g_wide;  // kind: 0 load, 1 store, 2 fetch; wide: 8-byte load/store

static uint64_t napot(const void* base, uint64_t size) { return ((uint64_t)base >> 2) | ((size >> 3) - 1); }
static uint64_t word(unsigned page, unsigned offset) { return (uint64_t)&region[page][offset / 4]; }

static void access_fn(void) {
  const uint64_t a = g_addr;
  if (g_kind == 0) {
    g_value = g_wide ? *(volatile uint64_t*)a : *(volatile uint32_t*)a;
  } else if (g_kind == 1) {
    if (g_wide) *(volatile uint64_t*)a = 0x5a5a5a5a5a5a5a5aull;
    else *(volatile uint32_t*)a = 0x5a5a5a5au;
  } else {
    __asm__ volatile("la t0, 1f\n sd t0, 0(%0)\n jalr ra, 0(%1)\n1:" ::"r"(&resume_pc), "r"(a) : "t0", "ra", "memory");
    resume_pc = 0;
  }
}

// One access in `mode` (MODE_M runs it directly); prints the trap cause (0: none).
static void check(const char* what, uint64_t mode, int kind, int wide, uint64_t addr) {
  static const char* const kinds[] = {"load", "store", "fetch"};
  static const char* const modes[] = {"U", "S", "?", "M"};
  g_addr = addr;
  g_kind = kind;
  g_wide = wide;
  trap_count = 0;
  if (mode == MODE_M) access_fn();
  else run_in_mode(mode, access_fn);
  printf("%s: %s %s%s cause=%llx tval_ok=%d\n", what, modes[mode], kinds[kind], wide ? "64" : "32",
         (unsigned long long)(trap_count ? last.cause : 0), trap_count ? last.tval == addr : 1);
  trap_count = 0;
}

static void catch_all(int on) {  // entry 15: everything RWX, the lowest priority
  avp_csr_write(pmpaddr15, ~0ull >> 10);
  avp_csr_write(pmpcfg2, on ? (uint64_t)(CFG_NAPOT | CFG_R | CFG_W | CFG_X) << 56 : 0);
}

static void modes_and_permissions(void) {
  for (unsigned perm = 0; perm < 8; ++perm) {
    if ((perm & CFG_W) && !(perm & CFG_R)) continue;  // R=0 W=1 is reserved
    avp_csr_write(pmpaddr0, napot(region[0], 4096));
    avp_csr_write(pmpcfg0, CFG_NAPOT | perm);
    char what[32];
    snprintf(what, sizeof what, "napot rwx=%u", perm);
    for (uint64_t mode = MODE_U; mode <= MODE_S; ++mode) {
      check(what, mode, 0, 0, word(0, 0x10));
      check(what, mode, 1, 0, word(0, 0x80));
      check(what, mode, 2, 0, word(0, 0x40));
    }
    check(what, MODE_M, 1, 0, word(0, 0x80));  // unlocked: M-mode is not checked
  }
  avp_csr_write(pmpcfg0, 0);
}

static void matching(void) {
  // Entry 0: NA4 at +8, no permissions; entry 1: the page, RW. Entry 0 wins.
  avp_csr_write(pmpaddr0, word(0, 8) >> 2);
  avp_csr_write(pmpaddr1, napot(region[0], 4096));
  avp_csr_write(pmpcfg0, (CFG_NAPOT | CFG_R | CFG_W) << 8 | CFG_NA4);
  check("na4 before napot, in na4", MODE_S, 0, 0, word(0, 8));
  check("na4 before napot, next word", MODE_S, 0, 0, word(0, 12));
  check("na4 before napot, straddling", MODE_S, 0, 1, word(0, 4));
  check("na4 before napot, straddling", MODE_U, 1, 1, word(0, 12) - 8);
  // Entry 0 as the TOR base (OFF), entry 1: TOR [+0, +0x100) without permissions.
  avp_csr_write(pmpaddr0, word(0, 0) >> 2);
  avp_csr_write(pmpaddr1, word(0, 0x100) >> 2);
  avp_csr_write(pmpcfg0, CFG_TOR << 8);
  check("tor, last word", MODE_S, 0, 0, word(0, 0xfc));
  check("tor, first word above", MODE_S, 0, 0, word(0, 0x100));
  check("tor, straddling the top", MODE_S, 0, 1, word(0, 0xfc));
  check("tor, below the base", MODE_S, 0, 0, word(0, 0) - 4);
  // TOR with base >= top matches nothing.
  avp_csr_write(pmpaddr0, word(0, 0x100) >> 2);
  avp_csr_write(pmpaddr1, word(0, 0) >> 2);
  check("tor, empty range", MODE_S, 0, 0, word(0, 0x80));
  avp_csr_write(pmpcfg0, 0);
}

static void no_match(void) {
  // [0, page 1) and [page 2, top) are open; page 1 matches no entry.
  avp_csr_write(pmpaddr12, 0);
  avp_csr_write(pmpaddr13, word(1, 0) >> 2);
  avp_csr_write(pmpaddr14, word(2, 0) >> 2);
  avp_csr_write(pmpcfg2, (uint64_t)(CFG_TOR | CFG_R | CFG_W | CFG_X) << 56 | (uint64_t)(CFG_TOR | CFG_R | CFG_W | CFG_X) << 40);
  check("no entry matches", MODE_S, 0, 0, word(1, 0x10));
  check("no entry matches", MODE_U, 1, 0, word(1, 0x80));
  check("no entry matches", MODE_M, 0, 0, word(1, 0x10));
  check("entry above matches", MODE_S, 0, 0, word(2, 0x10));
  catch_all(1);
}

static void read_back(void) {
  avp_csr_write(pmpaddr3, 0x123456789abull);
  avp_csr_write(pmpcfg0, (uint64_t)(CFG_NAPOT | CFG_R) << 24 | (uint64_t)(CFG_TOR | CFG_X) << 16);
  printf("pmpcfg0=%016llx pmpaddr3=%016llx\n", (unsigned long long)avp_csr_read(pmpcfg0),
         (unsigned long long)avp_csr_read(pmpaddr3));
  avp_csr_write(pmpcfg0, 0);
}

static void locks(void) {
  // Entry 2: NA4 at page 0 +0x20, read-only, locked: binds M-mode too.
  avp_csr_write(pmpaddr2, word(0, 0x20) >> 2);
  avp_csr_write(pmpcfg0, (uint64_t)(CFG_L | CFG_NA4 | CFG_R) << 16);
  check("locked na4 read-only", MODE_M, 0, 0, word(0, 0x20));
  check("locked na4 read-only", MODE_M, 1, 0, word(0, 0x20));
  check("locked na4 read-only", MODE_M, 0, 0, word(0, 0x24));
  avp_csr_write(pmpcfg0, (uint64_t)(CFG_NAPOT | CFG_R | CFG_W) << 16);  // ignored
  avp_csr_write(pmpaddr2, 0x1000);                                      // ignored
  printf("locked entry after writes: pmpcfg0=%016llx pmpaddr2 unchanged=%d\n",
         (unsigned long long)avp_csr_read(pmpcfg0), avp_csr_read(pmpaddr2) == word(0, 0x20) >> 2);
  // Entry 4: TOR [page 2, page 2 + 0x100), RWX, locked: pmpaddr3 (its base) is locked too.
  avp_csr_write(pmpaddr3, word(2, 0) >> 2);
  avp_csr_write(pmpaddr4, word(2, 0x100) >> 2);
  avp_csr_write(pmpcfg0, (uint64_t)(CFG_L | CFG_TOR | CFG_R | CFG_W | CFG_X) << 32 | (uint64_t)(CFG_L | CFG_NA4 | CFG_R) << 16);
  avp_csr_write(pmpaddr3, 0x2000);
  avp_csr_write(pmpaddr4, 0x3000);
  printf("locked tor: pmpaddr3 unchanged=%d pmpaddr4 unchanged=%d\n", avp_csr_read(pmpaddr3) == word(2, 0) >> 2,
         avp_csr_read(pmpaddr4) == word(2, 0x100) >> 2);
  check("locked tor rwx", MODE_M, 1, 0, word(2, 0x80));
  check("locked tor rwx", MODE_U, 0, 0, word(2, 0x80));
}

int main(void) {
  sig_begin("rv_priv_pmp");
  priv_setup();
  for (unsigned p = 0; p < 3; ++p)
    for (unsigned i = 0; i < 1024; ++i) region[p][i] = RET_INSN;
  catch_all(1);
  avp_csr_write(pmpcfg0, 0);
  modes_and_permissions();
  matching();
  no_match();
  read_back();
  locks();
  sig_end();
  return 0;
}
