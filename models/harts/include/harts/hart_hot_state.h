// Everything a hart's translated code reads or writes, in one declared
// layout: the code addresses it from one base pointer (the hart's
// HartHotState) at offsets fixed at compile time (offsetof), and the hart's
// C++ paths use the same fields through the same small functions the
// emitters mirror (CacheQuickState's quick hits, data_quick_hit,
// fetch_quick_hit, chain_ends, retire, HistoryRing::record), so translated
// and interpreted blocks share one data model.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "base/host_lines.h"
#include "base/local_time.h"
#include "harts/block_cache.h"
#include "harts/block_translator.h"
#include "harts/cache_model.h"
#include "harts/decoded_block.h"
#include "harts/dmi_region.h"
#include "harts/hart_state.h"
#include "harts/hart_tracer.h"
#include "harts/page_region_cache.h"
#include "harts/perf_events.h"

namespace avp {

class Hart;

// Simulated time beyond the instructions' own cycles, by cause (Hart::stall_ps):
// instruction fetch (I-cache time and fill latency), data accesses (D-cache
// time, memory and device latency), barriers, WFI, extension-device calls.
enum HartStall : unsigned { StallFetch, StallMemory, StallBarrier, StallWfi, StallXintf, kStallCauses };

struct alignas(kHostLine) HartHotState {
  Hart* hart = nullptr;  // the owner: translated code passes this struct to the hart's helpers

  // The chain gate (BlockChain::gate): eight bytes one compare tests. Any of
  // the bools set ends the chain; the fetch regime must be the block's.
  bool stop = false;
  bool block_abort = false;
  bool chain_closed = true;  // no chaining: a debugger, tracer or armed trigger observes (Hart::observed)
  uint8_t fetch_key = 0;     // the fetch regime (BlockCache::kFetchKeys)
  bool irq_gate = false;     // (mip & mie) != 0, written when either changes and as a chain starts
  // A helper has counted part of the block running (settled, Hart::settle_to):
  // the block's end finds the gate closed there and leaves the rest to the
  // run loop, which clears it as it starts a block.
  bool part_settled = false;
  uint16_t gate_end = 0;  // the gate's last bytes, always 0
  // harts.timing=functional: nothing is timed (timing_mode.h); code is translated for it.
  bool functional = false;
  // harts.warm_caches in a functional run: the caches' models run, untimed
  // (CacheModel::set_timed), and code is translated with them.
  bool warms_caches = false;

  // Time, and where a chain of blocks ends.
  LocalTime time;  // ahead of SystemC time (base/local_time.h)
  uint64_t stall_ps[kStallCauses] = {};
  // A kernel instance's return address while the hart runs one, else 1,
  // which no pc is (one compare: BlockChain::end_pc).
  uint64_t end_pc = 1;
  // The chain stops once minstret exceeds this: the instruction stop
  // (Hart::update_insn_stop) less one, ~0 for none, so code compares once.
  uint64_t insn_stop_less_one = ~0ull;
  // harts.timing=functional: every instruction takes one cycle of this
  // (0: timed), and nothing else in translated code takes time, so time and
  // minstret move in lockstep there; its chain then counts down the
  // instructions left before one bound (BlockChain::count, a word that
  // counts the branches retired too: kChainLeftShift): where the time
  // reaches the quantum's end or minstret passes the instruction stop,
  // whichever comes first (0 or less: there), or kChainMaxLeft. Set again
  // whenever C++ hands back to the code (refresh_insn_bound): the time, the
  // quantum and the stop change there. The count is all the code adds for
  // its instructions and branches: C++ adds those it counted since (the
  // word's change from chain_count_set) to minstret, the time and the
  // branch events as it takes over from the code (catch_up), so each block
  // end and counted loop updates one field, not four.
  uint64_t lockstep_period_ps = 0;
  int64_t chain_count = -(int64_t{1} << kChainLeftShift);  // none left (set_chain_left(0))
  int64_t chain_count_set = chain_count;  // the word as catch_up or refresh_insn_bound last set it

  // Per-block retiring (Hart::settle): the block running and how many of
  // its instructions are counted. Translated code that records the blocks
  // it enters in the history does not store them here too (a store less
  // per block entered): C++ reads the history's last as it takes over
  // (from_code).
  const DecodedBlock* lazy = nullptr;
  uint32_t settled = 0;

  // Data accesses: the regions loads and stores used last, the D-cache's
  // quick hits and where the D-cache last found lines, by line number
  // modulo kDataWayHints (most hits skip the set search).
  DmiRegion rd, wr;
  // The regions they used before those, and the checked pages kept beyond
  // both (data_path.h); a kept page put in use counts the TLB hit its
  // translation stands for at *page_hits: the Mmu's count while the data
  // privilege translates, else not_counted (DataPath::update_checked).
  DmiRegion rd_before, wr_before;
  PageRegionCache rd_pages, wr_pages;
  uint64_t* page_hits = &not_counted;
  uint64_t not_counted = 0;
  CacheQuickState dcache;
  static constexpr unsigned kDataWayHints = 1024;

  // Fetches: the DMI generation (blocks locate their lines again when it
  // changes), the I-cache's quick hits, the TLB's inserts (a block of
  // translated fetches holds its translation while fewer than its
  // tlb_until), and the history ring blocks are recorded in.
  uint64_t dmi_gen = 0;
  CacheQuickState icache;
  uint64_t tlb_inserts = 0;
  // The ring's position is read and written as each block is entered: it
  // has a host cache line to itself (sharing one with the guest registers
  // made functional `mixed` take 1.7x the time; docs/performance.md).
  alignas(kHostLine) HistoryRing history;
  alignas(kHostLine) const BlockCache::Slot* block_slots = nullptr;  // the hart's (BlockCache::slots), for BlockChain::lookup

  rv::HartState s;  // architectural state: pc, x, and the counters blocks retire into
  uint32_t data_way[kDataWayHints] = {};

  uint32_t& data_way_hint(uint64_t line) { return data_way[line & (kDataWayHints - 1)]; }
  // The region in use for loads (`write`: stores) made to hold [va, va + len)
  // from the one used before (the two swap), else from a kept page (the one
  // in use becomes the one before; the page's TLB hit counted); false, with
  // nothing changed, when neither holds it. Translated code calls the same
  // steps on the same fields (inline_accesses.cpp, the region-again routine).
  bool region_again(bool write, uint64_t va, unsigned len) {
    DmiRegion& in_use = write ? wr : rd;
    DmiRegion& before = write ? wr_before : rd_before;
    if (before.holds(va, len)) {
      std::swap(in_use, before);
      return true;
    }
    const DmiRegion* page = (write ? wr_pages : rd_pages).find(va, len);
    if (!page) return false;
    ++*page_hits;
    before = in_use;
    in_use = *page;
    return true;
  }
  void add_memory_time(uint64_t t) {
    time.add_ps(t);
    stall_ps[StallMemory] += t;
  }
  // The D-cache's quick hit for a data access at physical address `pa`
  // (its time: dcache.hit_ps); false, with nothing done, when the access
  // needs the set search. Translated code does it, then adds the time
  // (inline_accesses.cpp, emit_data_hit).
  bool data_quick_hit(uint64_t pa, bool write) {
    const uint64_t line = pa >> dcache.line_bits;
    return dcache.quick_hit(line, write, data_way_hint(line));
  }
  // The I-cache's quick hits for entering block `b` (Hart::fetch_timing's
  // common case): its one or two lines, located as they are now, hit
  // (CacheQuickState::quick_hit; two lines: the last two fetched, or each by
  // itself), timed: true. Else false, with `done` the lines that hit
  // (counted, not timed) before the first that did not. Translated code does
  // all but a two-line block whose first line is not the one fetched last,
  // hitting line by line, itself (InlineEnter, translated_chain.cpp).
  [[gnu::always_inline]] bool fetch_quick_hit(const DecodedBlock& b, uint32_t& done) {
    done = 0;
    if (b.fetch_gen != dmi_gen) return false;
    if (b.lines == 1) {
      if (!icache.quick_hit(b.first_line, false, b.fetch_way[0])) return false;
    } else if (b.lines == 2) {
      if (!icache.hit_again(b.first_line, b.first_line + 1)) {
        if (!icache.quick_hit(b.first_line, false, b.fetch_way[0])) return false;
        done = 1;
        if (!icache.quick_hit(b.first_line + 1, false, b.fetch_way[1])) return false;
      }
    } else {
      return false;
    }
    time.add_ps(b.fetch_hit_ps);
    stall_ps[StallFetch] += b.fetch_hit_ps;
    return true;
  }
  // Whether a chain of blocks ends after the block that set s.pc, by the
  // checks translated code makes too (BlockChain): the hart stopped, the
  // block aborted, the quantum used, minstret at insn_stop, the pc at
  // end_pc (which the code finds no link to: BlockCache::set_return_pc).
  // (Hart::chain_goes_on adds an interrupt and an observer, which the code
  // finds in the gate as irq_gate and chain_closed.)
  bool chain_ends() const {
    return stop || block_abort || time.quantum_used() || insn_stop_reached() || s.pc == end_pc;
  }
  bool insn_stop_reached() const { return s.minstret > insn_stop_less_one; }
  // The cache models run: a timed run, or a functional one warming them.
  bool caches_run() const { return !functional || warms_caches; }
  // The instructions a functional run's code counted down since C++ last
  // looked, retired: minstret and the time (one cycle each: the blocks'
  // own time there, HartCluster's costs) as the code would have added them,
  // and the branches it counted.
  void catch_up() {
    if (chain_count == chain_count_set) return;  // the code counted nothing
    // Arithmetic shifts: the words may be negative (no instruction left).
    const int64_t left = (chain_count >> kChainLeftShift) + 1;
    const auto n = static_cast<uint64_t>((chain_count_set >> kChainLeftShift) + 1 - left);
    s.events[rv::kEvBranch] += static_cast<uint64_t>(chain_count & kChainEventMask);
    set_chain_left(left);
    s.minstret += n;
    time.add_ps(n * lockstep_period_ps);
  }
  void set_chain_left(int64_t left) {
    chain_count_set = chain_count = static_cast<int64_t>(static_cast<uint64_t>(left - 1) << kChainLeftShift);
  }
  void refresh_insn_bound() {
    if (!lockstep_period_ps) return;
    catch_up();
    const uint64_t ps = time.ps(), end = time.quantum_end_ps();
    const uint64_t to_end = end > ps ? (end - ps + lockstep_period_ps - 1) / lockstep_period_ps : 0;
    const uint64_t at_stop = insn_stop_less_one == ~0ull ? ~0ull : insn_stop_less_one + 1;
    const uint64_t left = std::min(to_end, at_stop > s.minstret ? at_stop - s.minstret : 0);
    set_chain_left(static_cast<int64_t>(std::min<uint64_t>(left, kChainMaxLeft)));
  }
  // C++ takes over from translated code (as the code returns, and in each
  // helper it calls): the instructions the code counted are retired, and
  // the block running is the one the code (or C++ before it) entered and
  // recorded last, where a history is kept.
  void from_code() {
    catch_up();
    if (history.kept) lazy = history.last();
  }
  // A helper translated code calls: taken over from the code first, and the
  // bound is refreshed as it returns to the code.
  struct HelperCall {
    HartHotState& hot;
    explicit HelperCall(HartHotState& h) : hot(h) { hot.from_code(); }
    ~HelperCall() { hot.refresh_insn_bound(); }
    HelperCall(const HelperCall&) = delete;
    HelperCall& operator=(const HelperCall&) = delete;
  };
  uint64_t insn_stop() const { return insn_stop_less_one + 1; }  // minstret at which the chain stops (0: none)
  void set_insn_stop(uint64_t minstret) { insn_stop_less_one = minstret - 1; }
  // Retiring all of block `b` (its instructions, cycles, own time and
  // events), as translated code does it (BlockRetire) when nothing of the
  // block was counted before (settled 0).
  [[gnu::always_inline]] void retire(const DecodedBlock& b) {
    s.minstret += b.insns.size();
    s.extra_cycles += b.extra_cycles;
    time.add_ps(b.own_ps);
    // Local copies: the byte fields may alias anything to the compiler, which would reload them per event.
    const unsigned kinds = b.events;
    for (unsigned i = 0; i < kinds; ++i) {
      const unsigned id = b.event_id[i];
      const uint64_t n = b.event_n[i];
      s.events[id] += n;
    }
  }
};

static_assert(std::is_standard_layout_v<HartHotState>, "translated code addresses it by offsetof");
// The chain gate: eight bytes side by side that one compare tests, the fetch regime byte 3 (BlockChain::gate).
static_assert(offsetof(HartHotState, stop) % 8 == 0, "the gate is one aligned 8-byte word");
static_assert(offsetof(HartHotState, block_abort) == offsetof(HartHotState, stop) + 1 &&
                  offsetof(HartHotState, chain_closed) == offsetof(HartHotState, stop) + 2 &&
                  offsetof(HartHotState, fetch_key) == offsetof(HartHotState, stop) + 3 &&
                  offsetof(HartHotState, irq_gate) == offsetof(HartHotState, stop) + 4 &&
                  offsetof(HartHotState, part_settled) == offsetof(HartHotState, stop) + 5 &&
                  offsetof(HartHotState, gate_end) == offsetof(HartHotState, stop) + 6 && sizeof(uint16_t) == 2,
              "the gate's fields are side by side");
static_assert(sizeof(HartHotState) < (size_t{1} << 31), "offsets are 32-bit displacements");

// Where translated code finds the fields (block_translator.h): offsets from
// a HartHotState, fixed at compile time.
namespace hot_offsets {

constexpr int32_t at(size_t offset) { return static_cast<int32_t>(offset); }

// The cache whose CacheQuickState is at `cache`.
constexpr CacheFields cache_fields(size_t cache) {
  return {at(cache + offsetof(CacheQuickState, last_line)),
          at(cache + offsetof(CacheQuickState, prev_line)),
          at(cache + offsetof(CacheQuickState, last_way)),
          at(cache + offsetof(CacheQuickState, prev_way)),
          at(cache + offsetof(CacheQuickState, clock)),
          at(cache + offsetof(CacheQuickState, hits)),
          at(cache + offsetof(CacheQuickState, ways)),
          at(cache + offsetof(CacheQuickState, way_count)),
          at(sizeof(CacheWay)),
          at(offsetof(CacheWay, tag)),
          at(offsetof(CacheWay, used)),
          at(offsetof(CacheWay, dirty))};
}

// The loads' (`stores` false) or the stores' fast path: the region in use
// (rd or wr), the one before and the kept pages, and the D-cache whose
// quick state is `timed` (its line size and hit time as they are); none: no
// D-cache (a functional run).
constexpr InlineLoads inline_accesses(bool stores, const CacheQuickState* timed) {
  constexpr size_t d = offsetof(HartHotState, dcache);
  const size_t region = stores ? offsetof(HartHotState, wr) : offsetof(HartHotState, rd);
  const size_t pages = stores ? offsetof(HartHotState, wr_pages) : offsetof(HartHotState, rd_pages);
  return {at(region + offsetof(DmiRegion, base)),
          at(region + offsetof(DmiRegion, size)),
          at(region + offsetof(DmiRegion, ptr)),
          at(region + offsetof(DmiRegion, pa_delta)),
          at(region + offsetof(DmiRegion, code_free)),
          {at(region),
           at(stores ? offsetof(HartHotState, wr_before) : offsetof(HartHotState, rd_before)),
           at(pages + PageRegionCache::slots_offset()),
           at(offsetof(HartHotState, page_hits)),
           at(offsetof(HartHotState, not_counted))},
          timed ? timed->line_bits : 0,
          timed ? timed->hit_ps : 0,
          cache_fields(d),
          at(offsetof(HartHotState, data_way)),
          HartHotState::kDataWayHints,
          at(offsetof(HartHotState, time) + LocalTime::ps_offset()),
          at(offsetof(HartHotState, stall_ps) + StallMemory * sizeof(uint64_t)),
          timed != nullptr};
}

constexpr int32_t kTimePs = at(offsetof(HartHotState, time) + LocalTime::ps_offset());
constexpr int32_t kQuantumEndPs = at(offsetof(HartHotState, time) + LocalTime::quantum_end_offset());
constexpr int32_t kMinstret = at(offsetof(HartHotState, s) + offsetof(rv::HartState, minstret));
constexpr int32_t kExtraCycles = at(offsetof(HartHotState, s) + offsetof(rv::HartState, extra_cycles));
constexpr int32_t kEvents = at(offsetof(HartHotState, s) + offsetof(rv::HartState, events));
constexpr int32_t kPc = at(offsetof(HartHotState, s) + offsetof(rv::HartState, pc));
// The hart from its registers, which its blocks' code is given (TranslationHelpers::hart_from_regs).
constexpr int32_t kHartFromRegs = -at(offsetof(HartHotState, s) + offsetof(rv::HartState, x));

// Retiring block `b` in its code (HartHotState::retire).
inline BlockRetire block_retire(const DecodedBlock& b) {
  return {at(offsetof(HartHotState, settled)), kMinstret, kExtraCycles, kTimePs, kEvents,
          b.extra_cycles, b.own_ps, b.events, b.event_id, b.event_n};
}

// Entering the next block in the code (HartHotState::fetch_quick_hit but
// for a two-line block whose lines hit on their own); `untimed`: fetches
// are not timed; the history ring as `history` is.
inline InlineEnter inline_enter(bool hits_take_no_time, bool untimed, const HistoryRing& history) {
  return {at(offsetof(HartHotState, dmi_gen)),
          kTimePs,
          at(offsetof(HartHotState, stall_ps) + StallFetch * sizeof(uint64_t)),
          cache_fields(offsetof(HartHotState, icache)),
          at(offsetof(HartHotState, history) + offsetof(HistoryRing, pos)),
          at(offsetof(HartHotState, history) + offsetof(HistoryRing, mask)),
          at(offsetof(HartHotState, history) + offsetof(HistoryRing, ring)),
          at(offsetof(HartHotState, history) + offsetof(HistoryRing, held)),
          static_cast<uint32_t>(history.length),
          at(offsetof(HartHotState, lazy)),
          at(offsetof(DecodedBlock, fetch_gen)),
          at(offsetof(DecodedBlock, lines)),
          at(offsetof(DecodedBlock, first_line)),
          at(offsetof(DecodedBlock, fetch_hit_ps)),
          at(offsetof(DecodedBlock, fetch_way)),
          at(offsetof(HartHotState, tlb_inserts)),
          at(offsetof(DecodedBlock, tlb_until)),
          hits_take_no_time,
          untimed,
          history.kept,
          history.in_held()};
}

// Going on from block `b` to the blocks it links to in its code
// (HartHotState::chain_ends and the gate; b itself for a branch to its
// start), or, after an indirect jump, finds in the slot cache (as
// BlockCache::find's first step); `enter`, `inline_enter` and `quantum_end`
// as BlockChain's.
inline BlockChain block_chain(const DecodedBlock& b, const uint8_t* (*enter)(void*, const void*, uint64_t),
                              const InlineEnter* inline_enter, uint64_t (*quantum_end)(void*)) {
  return {at(offsetof(HartHotState, stop)),
          b.key,
          at(offsetof(HartHotState, part_settled)),
          at(offsetof(HartHotState, end_pc)),
          kTimePs,
          kQuantumEndPs,
          at(offsetof(HartHotState, insn_stop_less_one)),
          kMinstret,
          kPc,
          b.link_pc,
          reinterpret_cast<const void* const*>(b.link),
          at(offsetof(DecodedBlock, code)),
          enter,
          inline_enter,
          &b,
          quantum_end,
          b.insns.empty() || b.insns.back().op != rv::JALR
              ? BlockChain::SlotLookup{}
              : BlockChain::SlotLookup{at(offsetof(HartHotState, block_slots)), BlockCache::kSlots,
                                       static_cast<int32_t>(sizeof(BlockCache::Slot)),
                                       static_cast<int32_t>(offsetof(BlockCache::Slot, pc)),
                                       static_cast<int32_t>(offsetof(BlockCache::Slot, block)),
                                       static_cast<int32_t>(offsetof(BlockCache::Slot, key))}};
}

// The F and D state translated code reads and writes itself: offsets from
// the x registers (the address a block's code is given); `fma`: the host
// has FMA3.
constexpr InlineFp inline_fp(bool fma) {
  constexpr auto from_x = [](size_t offset) { return at(offset - offsetof(rv::HartState, x)); };
  return {from_x(offsetof(rv::HartState, f)), from_x(offsetof(rv::HartState, mstatus)),
          from_x(offsetof(rv::HartState, fflags)), from_x(offsetof(rv::HartState, frm)), fma};
}

}  // namespace hot_offsets

}  // namespace avp
