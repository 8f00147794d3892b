// Multi-hart start-up contract of the device SDK (run with 4 harts): every
// hart sees .bss cleared and constructors run before main, gets its own
// stack and TLS block, and avp_barrier really waits for all harts.
#include "avp/device.h"
#include "sig.h"

#define ROUNDS 8
#define MAX_HARTS 16

static uint64_t untouched_bss[8];
static int ctor_ran;
static __thread uint64_t tls_value = 100;
static uint64_t id_mask;
static uint64_t stack_addr[MAX_HARTS], tls_addr[MAX_HARTS], tls_seen[MAX_HARTS];
static uint32_t arrivals;
static uint32_t barrier_errors, start_errors;

__attribute__((constructor)) static void mark_ctor(void) { ctor_ran = 1; }

int main(int hart) {
  if (hart >= MAX_HARTS) return 0;
  int local = 0;
  uint64_t sum = 0;
  for (unsigned i = 0; i < ARRAY_SIZE(untouched_bss); i++) sum |= untouched_bss[i];
  if (sum != 0 || !ctor_ran || avp_hart_id() != (unsigned)hart) __atomic_add_fetch(&start_errors, 1, __ATOMIC_RELAXED);
  tls_value += (uint64_t)hart;
  stack_addr[hart] = (uint64_t)&local;
  tls_addr[hart] = (uint64_t)&tls_value;
  __atomic_or_fetch(&id_mask, 1ull << hart, __ATOMIC_RELAXED);
  avp_barrier();
  unsigned harts = (unsigned)__builtin_popcountll(id_mask);
  for (uint32_t r = 1; r <= ROUNDS; r++) {
    __atomic_add_fetch(&arrivals, 1, __ATOMIC_ACQ_REL);
    avp_barrier();
    if (__atomic_load_n(&arrivals, __ATOMIC_ACQUIRE) != r * harts) __atomic_add_fetch(&barrier_errors, 1, __ATOMIC_RELAXED);
    avp_barrier();
  }
  tls_seen[hart] = tls_value;
  avp_barrier();
  if (hart != 0) return 0;

  int stacks_distinct = 1, tls_distinct = 1, tls_ok = 1;
  for (unsigned a = 0; a < harts; a++) {
    if (tls_seen[a] != 100 + a) tls_ok = 0;
    for (unsigned b = a + 1; b < harts; b++) {
      if (stack_addr[a] == stack_addr[b]) stacks_distinct = 0;
      if (tls_addr[a] == tls_addr[b]) tls_distinct = 0;
    }
  }
  sig_begin("sdk_harts");
  sig("hart id mask", id_mask);
  sig("start-up errors (bss, constructors, hart id)", start_errors);
  sig("stacks distinct", stacks_distinct);
  sig("tls blocks distinct", tls_distinct);
  sig("tls values per hart", tls_ok);
  sig("barrier rounds", ROUNDS);
  sig("barrier errors", barrier_errors);
  sig_end();
  return 0;
}
