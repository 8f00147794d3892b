// The counter CSRs as hardware has them (docs/harts.md, "Performance
// counters"): mcycle counts every hart clock, stalls and WFI included
// (pointer chases of 1 KiB and 1 MiB, whose per-load cycles
// chase_closed_form.py compares with the cache model's parameters);
// mhpmevent selects what an mhpmcounter counts (WARL), mcountinhibit stops
// counters, and S/U-mode reads of the counters follow mcounteren/scounteren
// (an illegal instruction otherwise). The counters are read just before a
// reset of the statistics and just before a dump of them:
// chase_closed_form.py --hpm compares the differences with the dumped
// statistics.
#include <stdint.h>

#include "avp/csr.h"
#include "avp/device.h"
#include "avp/pointer_chase.h"
static volatile uint64_t lower_mcounteren;  // what the lower mode runs with (avp/lower_mode.h)
#define AVP_LOWER_MCOUNTEREN lower_mcounteren
#include "avp/lower_mode.h"
#include "avp/sysdev.h"
#include "harts/hpm_events.h"
#include "harts/perf_regs.h"

#define LINE 64
static uint64_t chase_buf[(1u << 20) / 8] __attribute__((aligned(4096)));
static int ok = 1;

#define CHECK(cond, ...)        \
  do {                          \
    if (!(cond)) {              \
      avp_printf(__VA_ARGS__);  \
      ok = 0;                   \
    }                           \
  } while (0)

// Per-load cost of a chase over `bytes` (after one pass to warm the cache), with the event counters around it.
static void measure(unsigned long bytes) {
  void* p = avp_chase_build(chase_buf, bytes, LINE);
  const unsigned long lines = bytes / LINE;
  const unsigned long loads = lines < 4096 ? 4096 : lines;
  p = avp_chase(p, (lines + AVP_CHASE_LOADS_PER_ITER - 1) / AVP_CHASE_LOADS_PER_ITER);
  const uint64_t c0 = avp_csr_read(mcycle), i0 = avp_csr_read(minstret);
  const uint64_t h0 = avp_csr_read(mhpmcounter3), m0 = avp_csr_read(mhpmcounter4), s0 = avp_csr_read(mhpmcounter5);
  p = avp_chase(p, loads / AVP_CHASE_LOADS_PER_ITER);
  const uint64_t c1 = avp_csr_read(mcycle), i1 = avp_csr_read(minstret);
  const uint64_t h1 = avp_csr_read(mhpmcounter3), m1 = avp_csr_read(mhpmcounter4), s1 = avp_csr_read(mhpmcounter5);
  avp_printf("chase %lu bytes stride 64: loads %lu cycles %lu instret %lu dcache_hits %lu dcache_misses %lu "
             "stall_memory %lu (%p)\n",
             bytes, loads, (unsigned long)(c1 - c0), (unsigned long)(i1 - i0), (unsigned long)(h1 - h0),
             (unsigned long)(m1 - m0), (unsigned long)(s1 - s0), p);
}

// S/U-mode reads: which counter (0 cycle, 1 time, 2 instret, 3 hpmcounter3) the lower mode reads.
static uint64_t read_user_counter(uint64_t which) {
  uint64_t v = 0;
  switch (which) {
    case 0: __asm__ volatile("csrr %0, cycle" : "=r"(v)); break;
    case 1: __asm__ volatile("csrr %0, time" : "=r"(v)); break;
    case 2: __asm__ volatile("csrr %0, instret" : "=r"(v)); break;
    default: __asm__ volatile("csrr %0, hpmcounter3" : "=r"(v)); break;
  }
  return v;
}

// Whether `mode` reading counter `which` with these enables takes an illegal-instruction trap.
static int traps(unsigned mode, uint64_t mcounteren, uint64_t scounteren, uint64_t which) {
  const uint64_t before = avp_lower_trap.count;
  lower_mcounteren = mcounteren;
  avp_csr_write(scounteren, scounteren);
  avp_run_lower(mode, 0, read_user_counter, which);
  const int trapped = avp_lower_trap.count != before;
  if (trapped)
    CHECK(avp_lower_trap.cause == 2, "counter read trapped with cause %lu\n", (unsigned long)avp_lower_trap.cause);
  return trapped;
}

static void check_counter_enables(void) {
  avp_csr_write(pmpaddr0, ~0ull >> 10);
  avp_csr_write(pmpcfg0, 0x1f);  // NAPOT R W X over all memory for S and U
  const uint64_t CY = 1, TM = 2, IR = 4, HPM3 = 8;
  CHECK(traps(AVP_MODE_S, 0, 0, 0), "S-mode read cycle with mcounteren 0\n");
  CHECK(!traps(AVP_MODE_S, CY, 0, 0), "S-mode cycle trapped with mcounteren.CY\n");
  CHECK(traps(AVP_MODE_S, CY, ~0ull, 2), "S-mode read instret with mcounteren.IR clear\n");
  CHECK(!traps(AVP_MODE_S, HPM3, 0, 3), "S-mode hpmcounter3 trapped with mcounteren.HPM3\n");
  CHECK(!traps(AVP_MODE_S, TM, 0, 1), "S-mode time trapped with mcounteren.TM\n");
  CHECK(traps(AVP_MODE_U, ~0ull, 0, 0), "U-mode read cycle with scounteren 0\n");
  CHECK(!traps(AVP_MODE_U, ~0ull, CY | IR, 2), "U-mode instret trapped with both enables\n");
  CHECK(traps(AVP_MODE_U, ~0ull, CY | IR, 3), "U-mode read hpmcounter3 with scounteren.HPM3 clear\n");
  CHECK(traps(AVP_MODE_U, 0, ~0ull, 0), "U-mode read cycle with mcounteren 0\n");
  avp_csr_write(scounteren, 0);
  avp_csr_write(pmpcfg0, 0);
}

static void check_events_and_inhibit(void) {
  avp_csr_write(mhpmevent9, 1000);  // not an event: WARL, reads AVP_HPM_NONE and counts nothing
  CHECK(avp_csr_read(mhpmevent9) == AVP_HPM_NONE, "mhpmevent9 after writing 1000: %lu\n",
        (unsigned long)avp_csr_read(mhpmevent9));
  avp_csr_write(mhpmcounter9, 7);
  avp_chase(avp_chase_build(chase_buf, 1024, LINE), 4);
  CHECK(avp_csr_read(mhpmcounter9) == 7, "a counter of no event moved\n");
  avp_csr_write(mhpmevent9, AVP_HPM_LOADS);  // counts on from its value
  avp_chase(chase_buf, 4);
  CHECK(avp_csr_read(mhpmcounter9) == 7 + 64, "mhpmcounter9 counting loads: %lu\n",
        (unsigned long)avp_csr_read(mhpmcounter9));
  // mcountinhibit stops mcycle, minstret and an event counter where they are; clearing it lets them go on.
  avp_csr_write(mcountinhibit, 1 | 4 | (1u << 9));
  const uint64_t c = avp_csr_read(mcycle), i = avp_csr_read(minstret), e = avp_csr_read(mhpmcounter9);
  avp_chase(chase_buf, 4);
  CHECK(avp_csr_read(mcycle) == c && avp_csr_read(minstret) == i && avp_csr_read(mhpmcounter9) == e,
        "an inhibited counter moved\n");
  avp_csr_write(mcountinhibit, 0);
  avp_chase(chase_buf, 4);
  CHECK(avp_csr_read(mcycle) > c && avp_csr_read(minstret) > i && avp_csr_read(mhpmcounter9) == e + 64,
        "a counter did not go on after mcountinhibit was cleared\n");
  avp_csr_write(mhpmevent9, AVP_HPM_NONE);
}

// Reads mcycle, minstret and mhpmcounter3..6 into v[0..5], then writes `op` to STATS_CONTROL: no data
// access in between, and the same instructions (in one I-cache line) each time, so a difference of
// two such reads spans exactly what the statistics count between the two writes (the code warm
// in the I-cache: one copy, run once before the first read that counts).
static void __attribute__((noinline)) read_then_control(uint64_t v[6], uint64_t op) {
  volatile uint64_t* control = (volatile uint64_t*)(uintptr_t)(AVP_PERF_BASE + AVP_PERF_STATS_CONTROL);
  uint64_t c, n, h, m, s, im;
  __asm__ volatile(
      ".balign 64\n"
      "csrr %0, mcycle\n csrr %1, minstret\n csrr %2, mhpmcounter3\n csrr %3, mhpmcounter4\n"
      "csrr %4, mhpmcounter5\n csrr %5, mhpmcounter6\n sd %7, 0(%6)\n"
      : "=&r"(c), "=&r"(n), "=&r"(h), "=&r"(m), "=&r"(s), "=&r"(im)
      : "r"(control), "r"(op)
      : "memory");
  v[0] = c, v[1] = n, v[2] = h, v[3] = m, v[4] = s, v[5] = im;
}

// WFI until a CLINT timer interrupt 20 us on (taken with mstatus.MIE clear: WFI wakes, no trap):
// mcycle counts the sleep, and the WFI stall event has it.
static void check_wfi(void) {
  avp_csr_write(mhpmevent7, AVP_HPM_STALL_WFI);
  const uint64_t c0 = avp_csr_read(mcycle), w0 = avp_csr_read(mhpmcounter7);
  *AVP_CLINT_MTIMECMP(0) = *AVP_CLINT_MTIME + 20 * (AVP_MTIME_HZ / 1000000);
  avp_csr_set(mie, 1u << 7);  // MTIE
  __asm__ volatile("wfi" ::: "memory");
  avp_csr_clear(mie, 1u << 7);
  *AVP_CLINT_MTIMECMP(0) = ~0ull;
  const uint64_t c1 = avp_csr_read(mcycle), w1 = avp_csr_read(mhpmcounter7);
  CHECK(w1 - w0 >= 15000 && c1 - c0 > w1 - w0, "WFI: %lu cycles asleep, mcycle moved %lu\n", (unsigned long)(w1 - w0),
        (unsigned long)(c1 - c0));
  avp_csr_write(mhpmevent7, AVP_HPM_LOADS_16B);
}

int main(int hart) {
  if (hart != 0) return 0;
  avp_csr_write(mhpmevent3, AVP_HPM_DCACHE_HITS);
  avp_csr_write(mhpmevent4, AVP_HPM_DCACHE_MISSES);
  avp_csr_write(mhpmevent5, AVP_HPM_STALL_MEMORY);
  avp_csr_write(mhpmevent6, AVP_HPM_ICACHE_MISSES);
  CHECK(avp_csr_read(mhpmevent4) == AVP_HPM_DCACHE_MISSES, "mhpmevent4 reads %lu\n",
        (unsigned long)avp_csr_read(mhpmevent4));
  CHECK(avp_csr_read(mhpmevent7) == AVP_HPM_LOADS_16B, "mhpmevent7 at reset reads %lu\n",
        (unsigned long)avp_csr_read(mhpmevent7));
  check_events_and_inhibit();  // before the counters are compared: it stops some of them
  // The counters against the statistics: from a reset of the statistics to a dump of them.
  static uint64_t at_reset[6], at_dump[6];
  read_then_control(at_reset, AVP_STATS_RESET);
  read_then_control(at_reset, AVP_STATS_RESET);
  measure(1024);
  measure(1u << 20);
  check_counter_enables();
  check_wfi();
  read_then_control(at_dump, AVP_STATS_DUMP);
  avp_printf("from reset to dump: mcycle %lu minstret %lu dcache_hits %lu dcache_misses %lu stall_memory %lu "
             "icache_misses %lu\n",
             (unsigned long)(at_dump[0] - at_reset[0]), (unsigned long)(at_dump[1] - at_reset[1]),
             (unsigned long)(at_dump[2] - at_reset[2]), (unsigned long)(at_dump[3] - at_reset[3]),
             (unsigned long)(at_dump[4] - at_reset[4]), (unsigned long)(at_dump[5] - at_reset[5]));
  avp_printf(ok ? "hpm_counters: checks OK\n" : "hpm_counters: FAILED\n");
  return ok ? 0 : 1;
}
