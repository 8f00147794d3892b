// Skipping the iterations of a loop that waits for the time CSR or on a
// device register (wait_loop.h; docs/harts.md, "Polling loops"). At a time
// read, a WFI or a device read the hart is settled: its counters are exact up
// to it. When the last two
// iterations from this read around to it again added the same to every
// counter, without a cache miss or a page walk, the caches and the TLB are at
// a fixed point (the same accesses hit the same lines in the same order), so
// every further iteration on the same path adds the same again. The iteration
// is evaluated at the time value the read is about to see; if it qualifies,
// the hart skips the iterations that stay on their path and inside its
// quantum -- where nothing else in the simulation runs, so nothing the loop
// reads can change -- adding their counts, and takes the registers and
// memory the last skipped one leaves; the devices count the reads of theirs
// it skipped (base/stable_read.h, Repeat). The read then runs at the new time.
#include <algorithm>
#include <cstring>

#include "base/page_writes.h"
#include "base/stable_read.h"
#include "base/unit.h"
#include "harts/hart.h"
#include "harts/hart_cluster.h"
#include "harts/wait_loop.h"

namespace avp {

using namespace rv;

namespace {

enum LoopCounter : unsigned {
  kLoopTimePs,
  kLoopStalls,
  kLoopMinstret = kLoopStalls + kStallCauses,
  kLoopExtraCycles,
  kLoopEvents,
  kLoopICacheHits = kLoopEvents + kNumPerfEvents,
  kLoopICacheClock,
  kLoopDCacheHits,
  kLoopDCacheClock,
  kLoopTlbHits,
  kLoopNoChange,  // the counts from here on must not move in a skipped iteration
  kLoopCountersUsed = kLoopNoChange + 7,
};
static_assert(kLoopCountersUsed <= Hart::kLoopCounters, "Hart::LoopCounters holds them all");

// The instructions a skipped iteration may be at most.
constexpr unsigned kMaxLoopInsns = 1024;
// Iterations that must be skipped at least for the evaluation to pay.
constexpr uint64_t kMinSkip = 4;

// Whether the `n` bytes (an integer load's 1, 2, 4 or 8) at `at` are the low `n` bytes of `value` (little-endian host).
bool holds_value(const uint8_t* at, unsigned n, uint64_t value) {
  uint64_t held;
  switch (n) {  // fixed sizes: no library call
    case 1: held = *at; break;
    case 2: { uint16_t v; std::memcpy(&v, at, 2); held = v; break; }
    case 4: { uint32_t v; std::memcpy(&v, at, 4); held = v; break; }
    default: std::memcpy(&held, at, 8); return held == value;
  }
  return held == (value & ((1ull << 8 * n) - 1));
}

}  // namespace

class Hart::WaitLoopReader final : public WaitLoopView {
 public:
  explicit WaitLoopReader(Hart& h) : h_(h) {}
  std::pair<const Insn*, size_t> block_at(uint64_t pc) const override {
    if (const Block* b = h_.blocks_.decoded(pc, h_.hot_.fetch_key)) return {b->insns.data(), b->insns.size()};
    // The rest of the block the hart is in (after a device load, which does not end its block).
    if (const Block* b = h_.hot_.lazy; b && pc - b->pc < b->bytes) {
      size_t i = 0;
      for (uint64_t at = b->pc; at != pc && i < b->insns.size(); ++i) at += b->insns[i].len;
      if (i < b->insns.size()) return {b->insns.data() + i, b->insns.size() - i};
    }
    return {nullptr, 0};
  }
  bool read(uint64_t va, void* to, unsigned n) const override {
    const uint8_t* at = host(va, n, false);
    if (at) std::memcpy(to, at, n);
    return at;
  }
  // Where `n` bytes at `pa` are in host memory (nullptr: not in a DMI region allowing the access).
  uint8_t* host(uint64_t pa, unsigned n, bool write) const {
    const DmiRegion* r = region(pa, n, write);
    return r ? r->ptr + (pa - r->base) : nullptr;
  }
  bool plain_store(uint64_t va, unsigned n) const override {
    if (!region(va, n, true) || h_.dmi_.read_only(va, n) || near_reservation(va, n)) return false;
    if (h_.blocks_.holds_code_page(va >> 12) || h_.blocks_.holds_code_page((va + n - 1) >> 12)) return false;
    return true;
  }
  // A store that would break the LR/SC reservation (checked again at each skip: an LR does not change the code).
  bool near_reservation(uint64_t va, unsigned n) const {
    return h_.reservation_ != ~0ull && h_.reservation_ >> 3 <= (va + n - 1) >> 3 && va >> 3 <= h_.reservation_ >> 3;
  }
  DeviceRead device_read(uint64_t va, unsigned n, uint64_t& value) const override {
    if (h_.slice_.in_slice()) return DeviceRead::Unstable;  // asking a device is the kernel's: not evaluated
    StableReadExtension s;
    value = ask(va, n, s);
    return s.answer == StableReadExtension::Clock      ? DeviceRead::Clock
           : s.answer == StableReadExtension::Constant ? DeviceRead::Constant
                                                       : DeviceRead::Unstable;
  }
  // The device's answer for a read of `n` bytes at `pa` (what it returns now, in `s` the rest).
  uint64_t ask(uint64_t pa, unsigned n, StableReadExtension& s) const {
    uint64_t value = 0;
    if (h_.slice_.in_slice()) return value;  // Unstable, as device_read
    if (!transport_dbg(pa, n, &value, s)) s.answer = StableReadExtension::Unstable;
    return value;
  }
  // The device counts `times` more reads of `n` bytes at `pa`, as their b_transport would have.
  void repeat(uint64_t pa, unsigned n, uint64_t times) const {
    StableReadExtension s;
    s.kind = StableReadExtension::Repeat;
    s.times = times;
    uint64_t value = 0;
    transport_dbg(pa, n, &value, s);
  }

 private:
  bool transport_dbg(uint64_t pa, unsigned n, uint64_t* data, StableReadExtension& s) const {
    tlm::tlm_generic_payload gp;
    set_unit(gp, make_unit(UnitKind::Hart, h_.id_), h_.core_);
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(pa);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(data));
    gp.set_data_length(n);
    gp.set_streaming_width(n);
    gp.set_extension(&s);
    const bool ok = h_.bus->transport_dbg(gp) == n;
    gp.clear_extension(&s);
    return ok;
  }
  // Physical addresses only: loops of translated data accesses are not
  // evaluated (Hart::skip_wait_loop). In a slice beside others in its
  // batch, only bytes the hart holds claims on, which no other slice writes
  // (page_claims.h).
  const DmiRegion* region(uint64_t pa, unsigned n, bool write) const {
    for (const DmiRegion& r : h_.dmi_.all())
      if (r.holds(pa, n) && (write ? r.wr : r.rd)) {
        const bool beside_none = !h_.slice_.in_slice() || h_.slice_.alone_in_batch();
        return beside_none || h_.data_.holds_claims(r.ptr + (pa - r.base), n, write) ? &r : nullptr;
      }
    return nullptr;
  }
  Hart& h_;
};

Hart::LoopCounters Hart::loop_counters() const {
  LoopCounters c{};
  c[kLoopTimePs] = to_ps(sc_core::sc_time_stamp()) + hot_.time.ps();  // the local time: a sync does not move it
  for (unsigned s = 0; s < kStallCauses; ++s) c[kLoopStalls + s] = hot_.stall_ps[s];
  c[kLoopMinstret] = hot_.s.minstret;
  c[kLoopExtraCycles] = hot_.s.extra_cycles;
  for (unsigned e = 0; e < kNumPerfEvents; ++e) c[kLoopEvents + e] = hot_.s.events[e];
  c[kLoopICacheHits] = hot_.icache.hits;
  c[kLoopICacheClock] = hot_.icache.clock;
  c[kLoopDCacheHits] = hot_.dcache.hits;
  c[kLoopDCacheClock] = hot_.dcache.clock;
  c[kLoopTlbHits] = mmu_.stats().tlb_hits;
  const uint64_t no_change[] = {icache_.misses(), icache_.writebacks(), data_.dcache().misses(), data_.dcache().writebacks(),
                                mmu_.stats().tlb_misses, mmu_.stats().page_walks, hot_.tlb_inserts};
  std::copy(std::begin(no_change), std::end(no_change), c.begin() + kLoopNoChange);
  return c;
}

void Hart::add_loop_counters(const LoopCounters& d) {
  hot_.time.add_ps(d[kLoopTimePs]);
  for (unsigned s = 0; s < kStallCauses; ++s) hot_.stall_ps[s] += d[kLoopStalls + s];
  hot_.s.minstret += d[kLoopMinstret];
  hot_.s.extra_cycles += d[kLoopExtraCycles];
  for (unsigned e = 0; e < kNumPerfEvents; ++e) hot_.s.events[e] += d[kLoopEvents + e];
  hot_.icache.hits += d[kLoopICacheHits];
  hot_.icache.clock += d[kLoopICacheClock];
  hot_.dcache.hits += d[kLoopDCacheHits];
  hot_.dcache.clock += d[kLoopDCacheClock];
  mmu_.count_tlb_hits(d[kLoopTlbHits]);
}

const WaitLoopIteration& Hart::wait_loop_iteration(const WaitLoopReader& reader, const Insn& d, uint64_t pc,
                                                    uint64_t time) {
  WaitLoopWatch& w = wait_loop_;
  if (w.known && w.iteration.closed && w.at_pc == pc && w.epoch == blocks_.epoch() && w.dmi_gen == hot_.dmi_gen) {
    bool same = true;
    for (uint32_t read = w.iteration.reads & ~1u; read && same; read &= read - 1)
      same = hot_.s.x[__builtin_ctz(read)] == w.x[__builtin_ctz(read)];
    // In a slice, on lines the hart still holds claims on: another hart's
    // thread may have taken them since (which changes no dmi_gen).
    if (slice_.in_slice()) {
      for (size_t i = 0; i < w.iteration.loads.size() && same; ++i)
        same = data_.holds_claims(w.load_host[i], w.iteration.loads[i].size, false);
      for (size_t i = 0; i < w.iteration.stores.size() && same; ++i)
        same = data_.holds_claims(w.store_host[i], w.iteration.stores[i].size, true);
    }
    // The host bytes of the loads stay where they were while no DMI region changed (dmi_gen).
    for (size_t i = 0; i < w.iteration.loads.size() && same; ++i)
      same = holds_value(w.load_host[i], w.iteration.loads[i].size, w.iteration.loads[i].value);
    for (const WaitLoopStore& l : w.iteration.device_loads) {  // the clock was asked at the start
      if (!same) break;
      uint64_t v = 0;
      same = l.offset || (reader.device_read(l.va, l.size, v) == WaitLoopView::DeviceRead::Constant && v == l.value);
    }
    // The same inputs: the same path while the time stays below exit_from.
    if (same && time < w.iteration.exit_from) return w.iteration;
  }
  w.iteration = evaluate_wait_loop(reader, d, pc, hot_.s.x, time, kMaxLoopInsns);
  ++w.evaluations;
  ++w.sequence;
  w.known = w.iteration.refused.empty();
  w.load_host.clear();
  w.store_host.clear();
  for (const WaitLoopStore& l : w.iteration.loads) w.load_host.push_back(reader.host(l.va, l.size, false));
  for (const WaitLoopStore& st : w.iteration.stores) w.store_host.push_back(reader.host(st.va, st.size, true));
  std::memcpy(w.x, hot_.s.x, sizeof w.x);
  w.at_pc = pc;
  w.epoch = blocks_.epoch();
  w.dmi_gen = hot_.dmi_gen;
  return w.iteration;
}

// Not when skipping is off or every instruction is observed. In the
// parallel schedule, up to the quantum's end (quanta_to_pass), and in a
// slice over memory the hart holds claims on, with no device register
// (WaitLoopReader).
bool Hart::wait_loops_skippable() const { return cluster_.skip_wait_loops.get() && !observed(); }

// In the parallel schedule the harts' steps in their threads go in hart
// order, not in the order of their local times: a register another hart
// may change before this one's local time (a UART's) is not skipped over,
// only a clock (CLINT mtime). In a slice no device is asked at all (an
// iteration the hart's thread kept; repeat is the kernel's).
bool Hart::parallel_device_loads(const WaitLoopIteration& it) const {
  if (!slice_.parallel) return false;
  return std::any_of(it.device_loads.begin(), it.device_loads.end(),
                     [this](const WaitLoopStore& l) { return slice_.in_slice() || !l.offset; });
}

bool Hart::wait_loop_due(uint64_t pc, const LoopCounters& now) const {
  const WaitLoopWatch& w = wait_loop_;
  if (w.pc != pc || w.pass > 0 || !wait_loops_skippable()) return false;
  for (unsigned i = 0; i < kLoopCounters; ++i)
    if (now[i] - w.at[i] != w.per_iteration[i]) return false;
  return true;
}

bool Hart::skip_wait_loop(const Insn& d, uint64_t pc) {
  WaitLoopWatch& w = wait_loop_;
  const LoopCounters now = loop_counters();
  if (w.pc != pc) {
    w.pc = pc;
    w.device = load_bytes(d) != 0;
    w.at = now;
    w.per_iteration = LoopCounters{};
    w.same = 0;
    ++w.sequence;
    return false;
  }
  LoopCounters per_iteration;
  for (unsigned i = 0; i < kLoopCounters; ++i) per_iteration[i] = now[i] - w.at[i];
  w.same = per_iteration == w.per_iteration ? w.same + 1 : 0;
  if (w.same == 0) {
    w.per_iteration = per_iteration;
    ++w.sequence;
  }
  w.at = now;
  if (w.same == 0 || w.pass > 0) {
    if (w.pass > 0) --w.pass;
    return false;
  }
  if (!wait_loops_skippable() || mmu_.translates(mmu_.data_priv())) return false;
  for (unsigned i = kLoopNoChange; i < kLoopCountersUsed; ++i)
    if (per_iteration[i]) return false;
  const uint64_t period = per_iteration[kLoopTimePs];
  const uint64_t insns = per_iteration[kLoopMinstret];
  if (period == 0) return false;

  // How many iterations stay before the quantum's end (an offset from
  // SystemC time) and before every limit the run loop checks at block ends;
  // iteration i would read the time at now + i * period.
  const uint64_t offset = hot_.time.ps(), end = hot_.time.quantum_end_ps();
  if (offset >= end) return false;
  const uint64_t now_ps = to_ps(sc_core::sc_time_stamp()) + offset;
  const auto iterations_before = [&](uint64_t end) {
    uint64_t most = (end - offset - 1) / period;
    const auto below = [&](uint64_t limit, uint64_t at, uint64_t step) {
      uint64_t reach;  // most <= (limit - at - 1) / step, told without a division
      if (!limit || (limit > at && !__builtin_mul_overflow(most, step, &reach) && reach <= limit - at - 1)) return;
      most = std::min(most, limit > at ? (limit - at - 1) / step : 0);
    };
    below(limit_, hot_.s.minstret, insns);
    below(hot_.insn_stop(), hot_.s.minstret, insns);
    below(switch_ps_, now_ps, period);
    return most;
  };
  uint64_t most = iterations_before(end);
  if (most < kMinSkip) return false;

  const WaitLoopReader reader(*this);
  // What iteration i reads as the time: the time CSR at its start, or the
  // clock of the device register it starts with, reached `delay` later.
  StableReadExtension start;
  if (const unsigned n = load_bytes(d)) reader.ask(hot_.s.x[d.rs1] + d.imm, n, start);
  const ReadClock* clock = start.answer == StableReadExtension::Clock ? start.clock : nullptr;
  const uint64_t delay = to_ps(start.delay);
  const auto time_at = [&](uint64_t i) {
    const uint64_t ps = now_ps + i * period;
    return clock ? clock->value_at(from_ps(ps + delay)) : cluster_.time_ns_at_ps(ps);
  };
  const WaitLoopIteration& it = wait_loop_iteration(reader, d, pc, time_at(0));
  if (!it.refused.empty() || it.insns != insns || parallel_device_loads(it)) {
    w.known = false;
    w.backoff = std::min(2 * w.backoff + 1, 63u);  // an iteration that does not qualify: evaluated less often
    w.pass = w.backoff;
    return false;
  }
  w.backoff = 0;
  uint64_t passed_ps = quanta_to_pass();
  if (slice_.parallel && passed_ps) {
    // The quantum of the grid passed_ps later, when no limit and no exit of
    // the loop falls before its end (the schedule's own bound, and so the
    // other harts', is in passed_ps).
    const uint64_t beyond = iterations_before(end + passed_ps);
    if (beyond == (end + passed_ps - offset - 1) / period &&
        (it.exit_from == ~0ull || time_at(beyond - 1) < it.exit_from))
      most = beyond;
    else
      passed_ps = 0;
  } else {
    most += passed_ps / period;
  }
  // Iterations 0 .. n - 1 are skipped: each reads a time before the exit
  // (the time never goes back; mostly the exit is beyond the quantum).
  uint64_t n = most;
  if (it.exit_from != ~0ull && time_at(most - 1) >= it.exit_from) {
    uint64_t hi = most - 1;
    for (n = 1; n < hi;) {
      const uint64_t mid = n + (hi - n + 1) / 2;
      if (time_at(mid - 1) < it.exit_from) n = mid;
      else hi = mid - 1;
    }
  }
  if (n < kMinSkip) return false;
  note_loop_end(it, n < most ? n : ~0ull, now_ps, period, time_at);
  // The stores still reach plain memory: checked when the iteration was
  // evaluated, as long as no block was decoded or dropped and no DMI region
  // changed since (wait_loop_iteration).
  for (const WaitLoopStore& s : it.stores)
    if (reader.near_reservation(s.va, s.size)) return false;
  // What the last skipped iteration leaves.
  const uint64_t t = time_at(n - 1);
  if (it.closed) {
    for (uint32_t r = it.writes & ~1u; r; r &= r - 1) hot_.s.x[__builtin_ctz(r)] = it.x_at(__builtin_ctz(r), t);
    for (size_t i = 0; i < it.stores.size(); ++i) {
      const uint64_t v = it.stored_at(it.stores[i], t);
      std::memcpy(w.store_host[i], &v, it.stores[i].size);  // little-endian host
    }
  } else {
    const WaitLoopIteration last = evaluate_wait_loop(reader, d, pc, hot_.s.x, t, kMaxLoopInsns);
    if (!last.refused.empty() || last.insns != insns) return false;  // the same path as at time_at(0): cannot happen
    std::memcpy(hot_.s.x, last.x, sizeof last.x);
    for (const WaitLoopStore& s : last.stores) std::memcpy(reader.host(s.va, s.size, true), &s.value, s.size);
  }
  for (const WaitLoopStore& l : it.device_loads) reader.repeat(l.va, l.size, n);  // the same on every path
  LoopCounters skipped;
  for (unsigned i = 0; i < kLoopCounters; ++i) {
    skipped[i] = n * per_iteration[i];
    w.at[i] += skipped[i];  // w.at is loop_counters() now
  }
  add_loop_counters(skipped);
  {
    const auto lk = shared_lock();  // other harts' slices count too
    cluster_.wait_loop_skipped(n);
    if (slice_.parallel && passed_ps) cluster_.passed_quanta(passed_ps / to_ps(cluster_.quantum()));
  }
  if (passed_ps && slice_.parallel) {
    hot_.time.pass_grid_quanta(passed_ps);
  } else if (passed_ps) {
    hot_.time.pass_quanta(passed_ps);
    for (unsigned i = 0; i < std::min<unsigned>(w.ends_seen, w.ends.size()); ++i) w.ends[i].at += passed_ps;
    cluster_.passed_quanta(passed_ps / w.cycle_ps * w.cycle_quanta);
  }
  w.skipped_in = systemc_ps() + hot_.time.quantum_end_ps();
  return true;
}

// Where the loop the hart skipped in ends (WaitLoopWatch::until_ps): the
// read of the first iteration that reads a time at or past its exit
// (`exit_at` when the skip stopped there, else searched beyond the
// quantum), or the last iteration within an instruction limit. Its reads are
// at now_ps + i * period for every i while the watch sees the same
// iteration again and again, so this is found once per such sequence.
template <class TimeAt>
void Hart::note_loop_end(const WaitLoopIteration& it, uint64_t exit_at, uint64_t now_ps, uint64_t period,
                         const TimeAt& time_at) {
  WaitLoopWatch& w = wait_loop_;
  if (w.until_sequence == w.sequence && exit_at == ~0ull && w.limits[0] == limit_ && w.limits[1] == hot_.insn_stop())
    return;
  uint64_t until = ~0ull;
  if (exit_at != ~0ull) {
    until = now_ps + exit_at * period;
  } else if (it.exit_from != ~0ull) {
    // time_at(most - 1) is before the exit: doubling, then halving, for the
    // first at or past it. Beyond `far` iterations (2^40, or where the reads'
    // times would leave 64 bits) the exit counts as that far.
    const uint64_t far = std::min<uint64_t>(uint64_t{1} << 40, (~0ull / 2 - now_ps) / period);
    uint64_t lo = 1, hi = std::min<uint64_t>(2, far);
    while (hi < far && time_at(hi) < it.exit_from) lo = hi + 1, hi = std::min(2 * hi, far);
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (time_at(mid) < it.exit_from) lo = mid + 1;
      else hi = mid;
    }
    until = now_ps + hi * period;
  }
  const uint64_t insns = w.per_iteration[kLoopMinstret];
  for (const uint64_t limit : {limit_, hot_.insn_stop()}) {
    if (!limit) continue;
    const uint64_t left = limit > hot_.s.minstret ? (limit - hot_.s.minstret) / insns : 0;
    if (left < (until - now_ps) / period) until = now_ps + left * period;
  }
  w.until_ps = until;
  w.until_sequence = exit_at == ~0ull ? w.sequence : ~0ull;  // an exit within the quantum ends the sequence
  w.limits[0] = limit_;
  w.limits[1] = hot_.insn_stop();
}

uint64_t Hart::loop_until_ps() const {
  uint64_t until = wait_loop_.until_ps;
  if (switch_ps_) until = std::min(until, switch_ps_);
  if (deadline_ > sc_core::SC_ZERO_TIME) until = std::min(until, to_ps(deadline_));
  return until;
}

// The local time (ps, absolute) up to which every instruction the hart runs
// is an iteration of the wait loop it skipped in during this quantum, while
// nothing else changes what the loop reads; 0 when it is in none. Harts
// whose loops do not touch what the others' load or store may run on beside
// such a hart's wait (Hart::run_on, "Beside spinning harts" in docs/harts.md).
uint64_t Hart::spin_horizon_ps() const {
  const WaitLoopWatch& w = wait_loop_;
  if (!w.known || !w.iteration.closed || w.skipped_in != systemc_ps() + hot_.time.quantum_end_ps() ||
      !wait_loops_skippable())
    return 0;
  const uint64_t until = loop_until_ps();
  return until > hot_.time.now_ps() ? until : 0;
}

// A quantum's end the hart reached spinning (at run_on or its sync): its
// quantum ends follow each other as its iterations' block ends fall (the
// first at or past a quantum from the last), so once one falls at the same
// point of an iteration as one before it, they repeat from there: each that
// many quantum ends later, as many ps later.
void Hart::note_quantum_end() {
  WaitLoopWatch& w = wait_loop_;
  const uint64_t at = hot_.time.now_ps(), period = w.per_iteration[kLoopTimePs];
  const uint64_t quantum = to_ps(cluster_.quantum());
  if (w.ends_sequence == w.sequence && w.ends_seen) {
    const uint64_t last = w.ends[(w.ends_seen - 1) % w.ends.size()].at;
    if (at == last) return;  // the same end again (run_on and the sync after it)
    if (at < last + quantum || at >= last + quantum + period) w.ends_seen = 0;  // not the next one: start again
  } else {
    w.ends_sequence = w.sequence;
    w.ends_seen = 0;
    w.cycle_ps = 0;
  }
  const uint64_t phase = (at - w.at[kLoopTimePs]) % period;
  for (unsigned back = 1; back <= std::min<unsigned>(w.ends_seen, w.ends.size()) && !w.cycle_ps; ++back) {
    const WaitLoopWatch::QuantumEnd& e = w.ends[(w.ends_seen - back) % w.ends.size()];
    if (e.phase == phase) {
      w.cycle_ps = at - e.at;
      w.cycle_quanta = back;
    }
  }
  w.ends[w.ends_seen++ % w.ends.size()] = {at, phase};
}

// Where the hart may run on to (RunAhead::run_on_limit) beside the spinning
// waits it may pass over, its turns `turn_ps` long; nothing else runs while
// it runs on, so the limit holds until SystemC moves.
// `spinning`: in its loop (else running other code, whose stores into what
// the loops read wait for them first: Hart::storing).
const Hart::RunOnLimit& Hart::run_on_limit(uint64_t turn_ps, bool spinning) {
  RunOnLimit& l = run_on_limit_;
  const WaitLoopWatch& w = wait_loop_;
  const uint64_t loop = spinning ? w.evaluations : ~0ull;
  if (l.systemc_ps != systemc_ps() || l.delta != sc_core::sc_delta_count() || l.turn_ps != turn_ps ||
      l.loop != loop || l.touches != cluster_.spin_touches()) {
    RunAhead::Passable passable[RunAhead::kMostTimed];
    const unsigned n = cluster_.spinning_beside(*this, spinning ? &w.iteration : nullptr, turn_ps, passable,
                                                RunAhead::kMostTimed);
    l = {systemc_ps(), sc_core::sc_delta_count(), turn_ps, loop, cluster_.spin_touches(),
         RunAhead::run_on_limit(passable, n), n > 0};
  }
  return l;
}

// Where a hart spinning in a loop that lasts until `until` (ps, absolute)
// may run on to: before run-ahead's limit beside the spinning waits it may
// pass over, and with its next turn (a quantum, to the block end that passes
// it) inside the loop; 0: nowhere. `beside`: whether that passes over any.
uint64_t Hart::spin_run_on_limit(uint64_t until, bool& beside) {
  const uint64_t turn = to_ps(cluster_.quantum()) + wait_loop_.per_iteration[kLoopTimePs];
  const RunOnLimit& l = run_on_limit(turn, true);
  beside = l.beside;
  return until > turn ? std::min(l.limit_ps, until - turn) : 0;
}

bool Hart::run_on() {
  if (const uint64_t until = spin_horizon_ps()) {
    note_quantum_end();
    bool beside = false;
    const uint64_t limit = spin_run_on_limit(until, beside);
    if (beside && hot_.time.run_on_before(limit)) {
      cluster_.ran_on_beside_spinning();
      return true;
    }
  } else if (cluster_.spin_waits() && wait_loops_skippable() && run_on_beside_spinning()) {
    return true;
  }
  return hot_.time.run_on();
}

// A hart running other code beside harts spinning in loops it can reach
// only through what Hart::storing catches (HartCluster::spinning_beside):
// its turn (a quantum, to the block end that passes it) starts after every
// one of theirs passed over; none due at its own time, whose order
// SystemC's queue would decide.
bool Hart::run_on_beside_spinning() {
  const uint64_t now = hot_.time.now_ps();
  const RunOnLimit& l = run_on_limit(to_ps(cluster_.quantum()), false);
  if (!l.beside || cluster_.spin_wait_due_at(now) || !hot_.time.run_on_before(l.limit_ps)) return false;
  cluster_.ran_on_beside_spinning();
  return true;
}

// At a skip in a quantum whose end, and the ends after it, repeat in a
// cycle (note_quantum_end): the whole cycles of quantum ends ahead that the
// hart would run on past (ps; 0: none), each start of a quantum before
// where it may run on to, while it stays in its loop. Their iterations are
// then skipped with this quantum's: the hart lands at the read where the
// skip in the last of them would have left it, in that quantum.
// In the parallel schedule the harts meet at every boundary of the quantum
// grid: whole quanta up to where the schedule allows (before the batch:
// every hart that may run meanwhile spins in a loop apart from the others',
// and nothing else is due; HartSlices::allow_passing), in a slice.
uint64_t Hart::quanta_to_pass() {
  if (slice_.parallel) {
    const uint64_t end = systemc_ps() + hot_.time.quantum_end_ps(), until = slice_.pass_until_ps();
    const uint64_t quantum = to_ps(cluster_.quantum());
    return until > end ? (until - end) / quantum * quantum : 0;
  }
  const WaitLoopWatch& w = wait_loop_;
  if (!w.cycle_ps || w.ends_sequence != w.sequence || w.until_sequence != w.sequence) return 0;
  const uint64_t start = systemc_ps() + hot_.time.quantum_end_ps() - to_ps(cluster_.quantum());  // this quantum's
  if (start != w.ends[(w.ends_seen - 1) % w.ends.size()].at) return 0;  // not the cycle's last end
  bool beside = false;  // passing over spinning waits or not, the limit holds at every end ahead
  const uint64_t limit = spin_run_on_limit(loop_until_ps(), beside);
  return limit > start + w.cycle_ps ? (limit - start - 1) / w.cycle_ps * w.cycle_ps : 0;
}

uint64_t Hart::parallel_spin_until() const {
  const uint64_t until = spin_horizon_ps(), period = wait_loop_.per_iteration[kLoopTimePs];
  // A device register (the clock) is read in the hart's thread, not in a slice.
  if (!wait_loop_.iteration.device_loads.empty() || until <= period) return 0;
  return until - period;
}

void Hart::sync_spinning() {
  const uint64_t until = spin_horizon_ps();
  if (!until) return sync();
  note_quantum_end();
  HartCluster::SpinningWait w{hot_.time.now_ps(), until, wait_loop_.per_iteration[kLoopTimePs],
                              &wait_loop_.iteration};
  w.generation = footprint_generation(wait_loop_.iteration);
  cluster_.spin_wait_begin(*this, w);
  sync();
  cluster_.spin_wait_end(*this);
}

uint64_t Hart::footprint_generation(const WaitLoopIteration& loop) {
  uint64_t g = 0;
  for (const std::vector<WaitLoopStore>* accesses : {&loop.loads, &loop.stores}) {
    for (const WaitLoopStore& a : *accesses) {
      const DmiRegion* r = dmi_.known(a.va, false);
      if (!r || !r->holds(a.va, a.size) || !r->writes || !r->writes->tracked()) return ~0ull;
      g += r->writes->generation(r->ptr + (a.va - r->base), a.size);
    }
  }
  return g;
}

// A device read, the hart settled (Hart::bus_access): when it is the load the
// instruction executing does, a loop may wait on that register.
void Hart::skip_device_poll(uint64_t pa, unsigned len) {
  const Insn* d = cur_;
  if (!d || load_bytes(*d) != len) return;
  // From translated code it is the load's access (whose registers in memory
  // may be behind the code's), and no skip is due (device_poll_due).
  if (!in_translated_load_ && hot_.s.x[d->rs1] + d->imm != pa) return;
  // A loop that also reads the time or spins on a WFI is watched from there
  // (the device loads are inputs of its iterations), not from both in turn.
  const WaitLoopWatch& w = wait_loop_;
  if (w.pc != hot_.s.pc && !w.device && hot_.s.minstret - w.at[kLoopMinstret] < kMaxLoopInsns) return;
  skip_wait_loop(*d, hot_.s.pc);
}

bool Hart::device_poll_due(uint64_t addr, uint64_t pc) {
  if (wait_loop_.pc != pc || dmi_.known(addr, false, false)) return false;
  settle();  // the counters up to the load, as Hart::bus_access has them
  return wait_loop_due(pc, loop_counters());
}

}  // namespace avp
