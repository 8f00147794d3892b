// The hart cluster: C cores x H harts, the xintf hub that routes their
// extension calls, host calls (print, barrier) and the bookkeeping harts share
// (LR/SC reservations, code pages). The performance-counter block
// (perf_counter_block.h), the extension devices (xintf_devices.h) and the
// console sink (console_log.h) are units of their own that it holds.
#pragma once
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "base/log.h"
#include "base/params.h"
#include "base/run_ahead.h"
#include "base/stats.h"
#include "harts/console_log.h"
#include "harts/hart.h"
#include "harts/perf_counter_block.h"
#include "harts/hart_control.h"
#include "harts/hart_slices.h"
#include "harts/page_claims.h"
#include "harts/trap_report.h"
#include "harts/xintf_devices.h"
#include "harts/xintf_map.h"

namespace avp {

class HartCluster : public sc_core::sc_module, public HartControl {
 public:
  // Extension devices: every hart's xintf socket binds here (socket index = hart).
  tlm_utils::multi_passthrough_target_socket<HartCluster> xintf_hub;

  Param<sc_core::sc_time> clock_period;
  Param<uint64_t> instruction_limit;
  Param<uint32_t> history_length;
  Param<bool> parallel_quantum;
  Param<uint32_t> host_threads;
  Param<bool> translate_blocks;
  Param<uint32_t> translation_cache_kib;
  Param<bool> perf_map;
  Param<bool> skip_wait_loops;
  Param<std::string> timing, timed_from;  // timing_mode.h
  Param<bool> warm_caches;                // a functional run keeps the caches' contents (docs/timing.md)
  Param<uint32_t> cycles_alu, cycles_branch, cycles_jump, cycles_load, cycles_store, cycles_mul, cycles_div,
      cycles_atomic, cycles_fp, cycles_fpdiv, cycles_system;

  HartCluster(sc_core::sc_module_name name, unsigned cores, unsigned harts_per_core);
  ~HartCluster() override;

  Hart& hart(unsigned i) { return *harts_.at(i); }
  template <typename Socket>
  void bind_bus(Socket& s) {
    for (auto& h : harts_) h->bus.bind(s);
  }

  // HartControl.
  unsigned num_harts() const override { return static_cast<unsigned>(harts_.size()); }
  unsigned num_cores() const override { return cores_; }
  bool hart_idle(unsigned hart) const override { return harts_.at(hart)->idle(); }
  void launch(unsigned hart, const HartLaunch& l, std::function<void(const HartExit&)> done) override;
  const sc_core::sc_event& hart_idle_event() const override { return idle_event_; }
  sc_core::sc_time flush_dcaches() override;
  sc_core::sc_time invalidate_icaches() override;

  // Bare-metal start (traps go to mtvec, host calls end the run).
  void start_bare_metal(unsigned hart, const HartLaunch& l, std::function<void(const HartExit&)> done);
  // Console output of ECALL prints and of the console device (console_log.h).
  ConsoleLog& console() { return console_; }
  const ConsoleLog& console() const { return console_; }
  // Instructions retired by every hart since the start, those of running launches included
  // (for the progress line and the summary; statistics resets do not touch it).
  uint64_t instructions_retired() const;

  // The timing mode (timing_mode.h): functional until the switch, if any.
  bool functional() const { return mode_ == TimingMode::Functional; }
  const TimedFrom& switch_point() const { return timed_from_; }
  // Hart h reached the switch point `cause`: every hart is timed from here on.
  void switch_to_timed(Hart& h, const std::string& cause);
  const TimingSwitch& timing_switch() const { return switch_; }

  // Used by harts.
  const sc_core::sc_time& quantum() const { return quantum_; }  // TLM's global quantum when the last hart started
  // The parallel quantum schedule (hart_slices.h) and the lock that guards
  // what harts share (bus and memory statistics, reservations) in it.
  bool parallel() const { return parallel_quantum.get() || host_threads.get() != 1; }
  // The host threads of the parallel schedule: host_threads, or for 0 the
  // host's cores, at most one per hart.
  unsigned slice_threads() const;
  HartSlices& slices() { return *slices_; }
  std::mutex& shared_lock() { return shared_lock_; }
  // Which harts' slices may touch which line of memory in that schedule.
  PageClaims& page_claims() { return page_claims_; }
  const uint64_t* cost_ps() const { return cost_ps_; }
  const uint64_t* cost_cycles() const { return cost_cycles_; }
  uint64_t time_ns(const Hart& h) const;  // the `time` CSR: time_source, or simulated ns without one
  uint64_t time_ns_at_ps(uint64_t ps) const;  // what it reads at `ps` picoseconds of simulated time
  // A hart skipped `iterations` iterations of a loop waiting for the time (hart_wait_loop.cpp).
  void wait_loop_skipped(uint64_t iterations) {
    wait_loop_skips_.inc();
    wait_loop_iterations_.inc(iterations);
  }
  // A hart waiting at a quantum's end while it spins in a wait loop
  // (Hart::sync_spinning): due to resume at wake_ps, after which every
  // instruction it runs up to until_ps is an iteration of `loop`, period_ps apart.
  struct SpinningWait {
    uint64_t wake_ps = 0, until_ps = 0, period_ps = 0;
    const WaitLoopIteration* loop = nullptr;
    uint64_t touches = 0;  // spin_waits_touched's count when it began: passable while none came since
    // Hart::footprint_generation of its loop when it began (~0: untracked).
    uint64_t generation = ~0ull;
  };
  // Records w (its `touches` set here); the granules its loop loads or
  // stores are watched while it lasts: a store there goes through Hart::storing.
  void spin_wait_begin(const Hart& h, SpinningWait w);
  void ran_on_beside_spinning() { runs_on_beside_spinning_.inc(); }
  void passed_quanta(uint64_t n) { wait_loop_quanta_passed_.inc(n); }
  void spin_wait_end(const Hart& h);
  // Into `passable` (at most `most`), the spinning waits of harts other
  // than `h` that h may pass over when it runs on (its turns ending at most
  // `turn_ps` after they start, Hart::run_on), recorded since the last
  // spin_waits_touched, each up to where its loop could end in a turn that
  // starts before h's ends: h spinning in `loop`, those whose loops neither
  // store what `loop` loads or stores nor load or store what it stores; h
  // running other code (`loop` null), those whose loops read no device,
  // store the same at every iteration and touch only granules the code map
  // can watch (h's stores there wait for them first, Hart::storing) in
  // memory whose other writers are counted, unwritten since. Returns how many.
  unsigned spinning_beside(const Hart& h, const WaitLoopIteration* loop, uint64_t turn_ps,
                           RunAhead::Passable* passable, unsigned most) const;
  // Whether h waits spinning.
  bool spin_waiting(const Hart& h) const;
  // Whether a hart's spinning wait is due at `ps`.
  bool spin_wait_due_at(uint64_t ps) const {
    for (const SpinningWait& w : spinning_)
      if (w.wake_ps == ps) return true;
    return false;
  }
  // Whether a hart waits spinning (a store or device access by any hart may end its loop).
  const bool& spin_waits() const { return spin_waits_; }
  // Something a spinning loop may read changed (a store into a watched
  // granule or decoded code, a spinning hart's interrupts, an xext/xcmd):
  // the waits recorded before it are passed over no more.
  void spin_waits_touched() { ++spin_touches_; }
  uint64_t spin_touches() const { return spin_touches_; }
  // Whether [pa, pa + len) touches a granule watched for a spinning loop or holding decoded code.
  bool store_checked(uint64_t pa, unsigned len) const {
    const uint64_t g = pa >> kGranuleBits, last = (pa + len - 1) >> kGranuleBits;
    return granule_marked(g) || (last != g && granule_marked(last));
  }
  // The platform's timer (the CLINT's mtime at a simulated time).
  std::function<uint64_t(uint64_t ps)> time_source;
  void print(Hart& h, const std::string& text);  // ECALL print
  void barrier(Hart& h);
  // Region-of-interest statistics (ECALL a7 = 3, perf STATS_CONTROL): AVP_STATS_DUMP
  // dumps every statistic, AVP_STATS_RESET then resets them, at simulated time `at`.
  // `by`: the hart that asked (a reset by a hart is a functional run's switch point stats-reset).
  void stats_control(const std::string& who, const sc_core::sc_time& at, uint64_t op, Hart* by = nullptr);
  // Adds what the running harts did up to `at` to their statistics (live
  // statistics: a debugger's stop, a snapshot, an interrupted run's manifest).
  void update_running_stats(const sc_core::sc_time& at);
  // Records the timeline slices of the harts still running, up to `at` (an interrupted run).
  void trace_running(const sc_core::sc_time& at) const;
  void hart_stopped(Hart& h, const HartExit& e);
  // The first hart a trap (cause, pc) stops gets the full report, as an
  // error; harts stopped the same way later only count towards it.
  void report_trap(Hart& h, uint64_t cause, uint64_t tval);
  // The traps reported in full (the first of each cause and pc), at most 64, for the manifest.
  const std::vector<TrapRecord>& trap_records() const { return trap_records_; }
  void report_limit(Hart& h);
  void wfi_begin(Hart& h) {}
  void wfi_end(Hart& h) {}
  // Read by harts' slices on other host threads (hart_slices.h); written under shared_lock() there.
  bool reservations_active() const { return reservations_.load(std::memory_order_relaxed) != 0; }
  void note_reservation() { reservations_.fetch_add(1, std::memory_order_relaxed); }
  void break_reservations(uint64_t addr);
  void mark_code(uint64_t addr, uint64_t len);
  bool is_code(uint64_t addr, unsigned len) const {
    const uint64_t g = addr >> kGranuleBits;
    return granule_has_code(g) || (((addr + len - 1) >> kGranuleBits) != g && is_code(addr + len - 1, 1));
  }
  void code_written(uint64_t addr, uint64_t len);
  // Narrows [from, to), which holds pa, to the granules around pa's that the
  // code map does not mark (whole granules, or the range's ends); empty
  // (from = to = pa) when pa's granule is marked. A store region so made is
  // code-free (DmiRegion::code_free) until a granule in it is marked.
  void code_free_span(uint64_t pa, uint64_t& from, uint64_t& to) const;
  // Whether the code map covers [addr, addr + len): a store there by a hart finds the code it holds.
  bool tracks_code(uint64_t addr, uint64_t len) const {
    return ((addr + len - 1) >> kGranuleBits) < kCodeMapBytes;
  }
  // Another unit (the PCIe endpoint's DMA into host memory) wrote [addr,
  // addr + len): if decoded code is there, it goes as for a hart's store.
  void memory_written(uint64_t addr, uint64_t len);
  // Where translated stores find whether a store leaves Hart::storing and
  // Hart::stored nothing to do (InlineStores: no reservations, no decoded
  // code and no spinning loop's load in its granule, within one granule);
  // the map never moves.
  void describe_plain_stores(InlineStores& s) const {
    static_assert(sizeof(reservations_) == sizeof(unsigned), "read as a plain unsigned");
    static_assert(kGranuleBits >= 3, "an aligned store of up to 8 bytes lies in one granule");
    s.reservations = reinterpret_cast<const unsigned*>(&reservations_);
    s.code_map = code_map_.get();
    s.code_map_bytes = kCodeMapBytes;
    s.granule_bits = kGranuleBits;
  }
  const XintfMap& xintf_map() const { return xintf_map_; }
  Param<std::string> xintf_luns, xintf_devices;
  // The DMA register block the xintf DMA device programs: the platform sets
  // it from its address map (bus.dma.base) at elaboration.
  void set_dma_base(uint64_t base) { xintf_devices_.set_dma_base(base); }
  // Meets the running harts for which `member` holds; they leave together at
  // the time the last arrived (ECALL barriers, the xintf barrier device).
  void meet(Hart& h, uint32_t key, const std::function<bool(const Hart&)>& member);
  Param<uint64_t> icache_size, dcache_size;
  Param<uint32_t> icache_ways, dcache_ways, icache_line_size, dcache_line_size;
  Param<sc_core::sc_time> icache_hit, icache_miss, dcache_hit, dcache_miss;
  Param<uint32_t> dcache_prefetch_streams, dcache_prefetch_depth;  // stream_prefetcher.h
  Param<uint32_t> tlb_entries, pmp_entries, pmp_granularity, triggers;
  // The performance-counter block (its own unit; bound on the device bus at bus.perf.base).
  PerfCounterBlock perf;
  struct Totals {
    uint64_t instructions, cycles, code_flushes, barriers, prints, traps, xintf_calls;
  };
  Totals totals() const;

 private:
  static constexpr unsigned kGranuleBits = 8;  // code-write detection granule: 256 bytes
  // The code map: a byte per granule of the lowest 4 GiB of physical
  // addresses, nonzero where the granule holds decoded code or is watched
  // (bytes, not bits: a translated store tests its granule in one compare).
  static constexpr uint32_t kCodeMapBytes = uint32_t{1} << (32 - kGranuleBits);
  // The code map's byte: decoded code in the granule, or a spinning loop loads there.
  bool granule_marked(uint64_t g) const { return g < kCodeMapBytes && code_map_[g]; }
  // Sets or clears the byte of granule g (< kCodeMapBytes): a granule newly
  // marked makes the harts' store regions over it not code-free.
  void mark_granule(uint64_t g, bool set);
  bool granule_has_code(uint64_t g) const;
  // A granule a spinning loop loads or stores: its byte in the code map stays set
  // while any does; `code` says whether it also holds decoded code.
  struct WatchedGranule {
    uint64_t granule;
    unsigned loops;
    bool code;
  };
  const WatchedGranule* watched(uint64_t g) const;
  WatchedGranule* watched(uint64_t g) { return const_cast<WatchedGranule*>(std::as_const(*this).watched(g)); }
  bool watchable(const WaitLoopIteration& loop) const;
  void watch_footprint(const WaitLoopIteration& loop, bool watch);
  void configure_costs();
  void prepare_start(Hart& h);
  void check_params() const;  // throws ParamError naming the first bad parameter
  void xintf_b_transport(int hart, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  unsigned cores_, harts_per_core_;
  std::vector<std::unique_ptr<Hart>> harts_;
  std::vector<SpinningWait> spinning_;  // by hart; wake_ps 0: not waiting so
  unsigned spinning_count_ = 0;
  bool spin_waits_ = false;  // spinning_count_ > 0
  uint64_t spin_touches_ = 0;
  std::vector<WatchedGranule> watched_;
  sc_core::sc_event idle_event_;
  sc_core::sc_time quantum_{1, sc_core::SC_US};
  uint64_t cost_ps_[static_cast<unsigned>(rv::OpClass::NumClasses)] = {};
  uint64_t cost_cycles_[static_cast<unsigned>(rv::OpClass::NumClasses)] = {};
  // 16 MiB from calloc, which the host zeroes page by page on first touch (a
  // vector's fill touched all of it: a fault per 4 KiB at every start); a
  // run touches the few pages that cover its code.
  struct FreeBytes {
    void operator()(uint8_t* p) const noexcept { std::free(p); }
  };
  std::unique_ptr<uint8_t[], FreeBytes> code_map_;
  std::set<uint64_t> marked_;  // the granules the code map marks, for code_free_span
  std::atomic<unsigned> reservations_{0};
  ConsoleLog console_;
  struct BarrierGroup {
    unsigned arrived = 0;
    uint64_t generation = 0;
    sc_core::sc_event release;
    std::function<bool(const Hart&)> member;
  };
  std::map<uint32_t, BarrierGroup> barriers_;
  std::map<std::pair<uint64_t, uint64_t>, unsigned> trap_sites_;  // (cause, pc) -> first hart reported
  static constexpr size_t kMaxTrapRecords = 64;  // distinct traps kept for the manifest
  std::vector<TrapRecord> trap_records_;
  std::vector<uint32_t> group_of_;  // launch id of each running hart
  unsigned count_running(const std::function<bool(const Hart&)>& member) const;
  // Per-hart statistics (instructions, cycles, cache hits and misses), updated when a hart stops.
  struct HartStats {
    std::unique_ptr<Counter> instructions, cycles, icache_hits, icache_misses, dcache_hits, dcache_misses, active_cycles;
    std::unique_ptr<Counter> dcache_prefetches, dcache_prefetch_hits;  // with stream buffers only
    uint64_t prefetches_reported = 0, prefetch_hits_reported = 0;
    std::unique_ptr<CounterArray> stall;  // stall_<cause>, HartStall in order
    std::unique_ptr<CounterArray> mmu;    // MmuStats in order
    uint64_t mmu_reported[5] = {};
    std::unique_ptr<Utilisation> busy;
    uint64_t reported[6] = {}, stalls_reported[kStallCauses] = {};
    sc_core::sc_time counted_to;  // busy time and active cycles are counted up to here
    // Busy time counted so far (ps): active cycles are its whole clock cycles,
    // not a sum of rounded intervals.
    uint64_t busy_ps = 0;
  };
  std::vector<HartStats> hart_stats_;
  bool caches_configured_ = false;
  TimingMode mode_ = TimingMode::Timed;
  TimedFrom timed_from_;
  TimingSwitch switch_;
  // Adds what hart `h` did up to `at` to its statistics; `stopped`: its launch ended.
  void update_hart_stats(Hart& h, const sc_core::sc_time& at, bool stopped);
  XintfMap xintf_map_;
  XintfDevices xintf_devices_{*this};
  Logger log_;
  uint64_t retired_by_stopped_ = 0;
  Counter instructions_, traps_, prints_, barriers_done_, code_flushes_, xintf_calls_;
  Counter wait_loop_skips_, wait_loop_iterations_;  // how the run went, not what it simulated (Hart::skip_wait_loop)
  Counter runs_on_beside_spinning_, wait_loop_quanta_passed_;  // the same (Hart::run_on, Hart::quanta_to_pass)
  Histogram instance_time_;
  std::unique_ptr<HartSlices> slices_;
  std::mutex shared_lock_;
  PageClaims page_claims_{[this](unsigned hart, const uint8_t* from, uint64_t bytes, bool writes_only) {
    harts_[hart]->withdraw_claims(from, bytes, writes_only);
  }};
};

}  // namespace avp
