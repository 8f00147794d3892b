// The counter CSRs (docs/harts.md, "Performance counters"): mcycle,
// minstret and mhpmcounter3..31 are views of monotonic sources. mcycle's is
// the hart's clock cycles since its start, taken from its local time, which
// every execution engine keeps (the instructions' cycles and every stall), so
// no engine counts cycles for it; minstret's the retired instructions; an
// mhpmcounter's the event its mhpmevent selects. A counter holds its source
// minus its value, or while mcountinhibit stops it, the value itself.
#include "harts/hart.h"
#include "harts/hart_cluster.h"
#include "harts/hpm_events.h"

namespace avp {

using namespace rv;

static_assert(StallFetch == 0 && kStallCauses == AVP_HPM_STALL_XINTF - AVP_HPM_STALL_FETCH + 1,
              "the stall events follow the order of HartStall");
static_assert(AVP_HPM_LOADS_1B == kFirstEventCounter && AVP_HPM_BRANCHES == kLastEventCounter,
              "events 3..17 are the instruction-class counters of perf_events.h");

uint64_t Hart::clock_cycles() const {
  // A stopped hart's clock does not run (a RefSi hart reads 0 before it starts).
  if (!running_) return cycles_at_stop_;
  return (hot_.time.now_ps() - to_ps(started_)) / to_ps(cluster_.clock_period.get());
}

uint64_t Hart::event_count(unsigned event) const {
  switch (event) {
    case AVP_HPM_ICACHE_HITS: return icache_.hits();
    case AVP_HPM_ICACHE_MISSES: return icache_.misses();
    case AVP_HPM_DCACHE_HITS: return data_.dcache().hits();
    case AVP_HPM_DCACHE_MISSES: return data_.dcache().misses();
    case AVP_HPM_STALL_FETCH: case AVP_HPM_STALL_MEMORY: case AVP_HPM_STALL_BARRIER: case AVP_HPM_STALL_WFI:
    case AVP_HPM_STALL_XINTF:
      return hot_.stall_ps[event - AVP_HPM_STALL_FETCH] / to_ps(cluster_.clock_period.get());
    case AVP_HPM_TLB_HITS: return mmu_.stats().tlb_hits;
    case AVP_HPM_TLB_MISSES: return mmu_.stats().tlb_misses;
    case AVP_HPM_PAGE_WALKS: return mmu_.stats().page_walks;
    default:
      return event >= kFirstEventCounter && event <= kLastEventCounter
                 ? event_counter(hot_.s.events, hot_.s.minstret, event)
                 : 0;
  }
}

uint64_t Hart::counter_source(unsigned i) const {
  if (i == 0) return clock_cycles();
  if (i == 2) return hot_.s.minstret;
  return event_count(hot_.s.mhpmevent[i]);
}

uint64_t Hart::counter(unsigned i) const {
  return (hot_.s.mcountinhibit >> i) & 1 ? hot_.s.counter[i] : counter_source(i) - hot_.s.counter[i];
}

void Hart::write_counter(unsigned i, uint64_t v) {
  hot_.s.counter[i] = (hot_.s.mcountinhibit >> i) & 1 ? v : counter_source(i) - v;
}

void Hart::reset_counters() {
  for (unsigned i = kFirstEventCounter; i <= kLastEventCounter; ++i) hot_.s.mhpmevent[i] = i;
  for (unsigned i = 0; i < 32; ++i)
    if (i != 1) write_counter(i, 0);
}

void Hart::write_counter_event(unsigned i, uint64_t event) {
  const uint64_t v = counter(i);
  const bool known = event >= AVP_HPM_LOADS_1B && event <= AVP_HPM_LAST_EVENT;
  hot_.s.mhpmevent[i] = known ? static_cast<uint32_t>(event) : AVP_HPM_NONE;  // WARL
  write_counter(i, v);
}

void Hart::write_counter_inhibit(uint32_t mask) {
  mask &= ~2u;  // time is not a hart counter: TM is read-only zero
  for (unsigned i = 0; i < 32; ++i) {
    if (!(((mask ^ hot_.s.mcountinhibit) >> i) & 1)) continue;
    const uint64_t v = counter(i);
    hot_.s.mcountinhibit ^= 1u << i;
    write_counter(i, v);
  }
}

}  // namespace avp
