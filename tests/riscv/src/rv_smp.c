// Atomics across harts (run with 4 harts): AMO and LR/SC read-modify-writes
// on shared words must not lose updates, an amoswap spin lock must give
// mutual exclusion, and fence-ordered message passing must deliver data.
#include "avp/device.h"
#include "sig.h"

#define ITERS 2000
#define MAX_HARTS 16

static uint64_t amo_counter_d;
static uint32_t amo_counter_w;
static uint64_t lrsc_counter;
static uint32_t lock;
static uint64_t locked_counter;  // plain loads/stores under the lock
static uint64_t max_id, or_mask;
static uint64_t mailbox_data[MAX_HARTS];
static uint32_t mailbox_flag[MAX_HARTS];
static uint32_t message_errors;

static void spin_lock(void) {
  uint32_t old;
  do {
    __asm__ volatile("amoswap.w.aq %0, %1, (%2)" : "=r"(old) : "r"(1), "r"(&lock) : "memory");
  } while (old != 0);
}
static void spin_unlock(void) { __asm__ volatile("amoswap.w.rl x0, x0, (%0)" ::"r"(&lock) : "memory"); }

int main(int hart) {
  if (hart >= MAX_HARTS) return 0;
  avp_barrier();
  for (int i = 0; i < ITERS; i++) {
    __asm__ volatile("amoadd.d x0, %0, (%1)" ::"r"(1ull), "r"(&amo_counter_d) : "memory");
    __asm__ volatile("amoadd.w x0, %0, (%1)" ::"r"(3u), "r"(&amo_counter_w) : "memory");
    uint64_t t;
    __asm__ volatile("1: lr.d %0, (%1)\n addi %0, %0, 1\n sc.d %0, %0, (%1)\n bnez %0, 1b"
                     : "=&r"(t) : "r"(&lrsc_counter) : "memory");
    spin_lock();
    locked_counter = locked_counter + 1;
    spin_unlock();
  }
  __asm__ volatile("amomaxu.d x0, %0, (%1)" ::"r"((uint64_t)hart), "r"(&max_id) : "memory");
  __asm__ volatile("amoor.d x0, %0, (%1)" ::"r"(1ull << hart), "r"(&or_mask) : "memory");
  avp_barrier();
  unsigned harts = (unsigned)__builtin_popcountll(or_mask);
  // Message passing: hart h writes data then (fence w,w) the flag of hart
  // (h+1) % harts; the receiver waits for the flag, fences r,r, reads data.
  unsigned to = (hart + 1) % harts;
  mailbox_data[to] = 0x1000 + (uint64_t)hart;
  __asm__ volatile("fence w, w" ::: "memory");
  __atomic_store_n(&mailbox_flag[to], 1, __ATOMIC_RELAXED);
  while (__atomic_load_n(&mailbox_flag[hart], __ATOMIC_RELAXED) == 0) {
  }
  __asm__ volatile("fence r, r" ::: "memory");
  if (mailbox_data[hart] != 0x1000 + (hart + harts - 1) % harts) __atomic_add_fetch(&message_errors, 1, __ATOMIC_RELAXED);
  avp_barrier();
  if (hart != 0) return 0;

  sig_begin("rv_smp");
  sig("harts", harts);
  sig("amoadd.d total / harts", amo_counter_d / harts);
  sig("amoadd.w total / harts", amo_counter_w / harts);
  sig("lr/sc total / harts", lrsc_counter / harts);
  sig("amoswap lock: counter / harts", locked_counter / harts);
  sig("lost updates", amo_counter_d % harts + amo_counter_w % harts + lrsc_counter % harts + locked_counter % harts);
  sig("amomaxu hart id", max_id);
  sig("message passing errors", message_errors);
  sig_end();
  return 0;
}
