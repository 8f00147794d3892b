// One RV64GC hart: an interpreting ISS with a decoded-block cache, DMI fast
// paths and temporal decoupling. It runs in its own SC_THREAD and only
// synchronises with SystemC at the end of a quantum, on device accesses that
// block, on barriers and when it idles.
#pragma once
#include <array>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "base/host_lines.h"
#include "base/local_time.h"
#include "harts/block_cache.h"
#include "harts/block_translator.h"
#include "harts/bus_timing.h"
#include "harts/cache_model.h"
#include "harts/data_path.h"
#include "harts/decoded_block.h"
#include "harts/dmi_regions.h"
#include "harts/hart_debug_hook.h"
#include "harts/hart_control.h"
#include "harts/hart_hot_state.h"
#include "harts/hart_state.h"
#include "harts/hart_tracer.h"
#include "harts/hart_traffic.h"
#include "harts/mmu.h"
#include "harts/perf_events.h"
#include "harts/rv_insn.h"
#include "harts/slice_state.h"
#include "harts/timing_mode.h"
#include "harts/wait_loop.h"
#include "harts/trap_exception.h"
#include "harts/triggers.h"

namespace avp {

class HartCluster;
struct CacheTrafficExtension;
class Hart;

// Aligned: base/host_lines.h. Private bases: the Mmu reaches page-table
// entries through the hart (mmu.h); the BlockCache tells it of decoded
// blocks going (block_cache.h); the BusTiming times its transactions at the
// hart's settled time (bus_timing.h); the DataPath's device transactions and
// stores come to it (data_path.h).
class alignas(kHostLine) Hart : public sc_core::sc_module,
                                private PageTableMemory,
                                private BlockHolders,
                                private TrafficTime,
                                private DataPathHost {
 public:
  tlm_utils::simple_initiator_socket<Hart> bus;    // to the device interconnect
  tlm_utils::simple_initiator_socket<Hart> xintf;  // to the extension devices

  Hart(sc_core::sc_module_name name, HartCluster& cluster, unsigned hart_id, unsigned core_id);

  unsigned id() const { return id_; }
  unsigned core() const { return core_; }
  bool idle() const { return !running_; }
  const rv::HartState& state() const { return hot_.s; }
  rv::HartState& state() { return hot_.s; }

  // Starts the hart. kernel: an instance launched by the CMP (ends at ra, any
  // trap ends it); otherwise a bare-metal program (traps go to mtvec).
  void start(const HartLaunch& l, bool kernel, std::function<void(const HartExit&)> done);
  void invalidate_decoded();  // drop every decoded block (SYNC_CACHE ICACHE)
  // Functional mode (timing_mode.h): no cache or memory timing, each
  // instruction one clock period (the cluster's costs). become_timed() is the
  // switch: the blocks decoded and translated without timing go at the next
  // block boundary, the running one ends after its current instruction.
  bool functional() const { return hot_.functional; }
  void become_timed();
  // Code in the physical range [lo, hi) was written: the blocks holding any
  // of it are dropped at the next block boundary (BlockCache::drop_code).
  void drop_code(uint64_t lo, uint64_t hi) {
    blocks_.drop_code(lo, hi);
    hot_.block_abort = true;
  }
  // Writes back every dirty D-cache line (each a write-back on the bus) and
  // invalidates the cache; returns the time the write-backs take.
  uint64_t flush_dcache() { return data_.flush_dcache(); }
  // The hart's claims on host bytes [from, from + bytes) were withdrawn (PageClaims::Withdraw).
  void withdraw_claims(const uint8_t* from, uint64_t bytes, bool writes_only) {
    data_.withdraw(from, bytes, writes_only);
  }
  // The code map marked the physical bytes [pa, pa + bytes) (DataPath::code_marked).
  void code_marked(uint64_t pa, uint64_t bytes) { data_.code_marked(pa, bytes); }
  void set_interrupt(unsigned irq, bool level);
  // The write generations (base/page_writes.h) of the memory `loop` loads
  // and stores, summed (~0: some of it is not in a region whose writes are
  // counted): HartCluster::spinning_beside's check that nothing wrote it.
  uint64_t footprint_generation(const WaitLoopIteration& loop);
  // Local time ahead of SystemC time.
  sc_core::sc_time local_time() const { return hot_.time.offset(); }
  uint64_t local_time_ps() const { return hot_.time.ps(); }
  // An extension device runs in the hart's place: it takes the offset the
  // call arrived with, its accesses add to it, and it returns local_time().
  void set_local_time(const sc_core::sc_time& t) { hot_.time.set(t); }
  void sync();  // waits the local offset away
  // An access on the hart's bus as the hart (timed at its local time); a
  // refused access throws TrapException{fault_cause, addr}.
  void transport(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len, uint64_t fault_cause) {
    bus_access(cmd, addr, data, len, fault_cause, addr, false);
  }
  // When it started its current (or last) program or kernel instance, and whether that is a kernel instance.
  const sc_core::sc_time& started() const { return started_; }
  bool runs_kernel() const { return kernel_; }
  // The timeline slice of the current program or instance, from its start to `end` (`how` it ended, or "running").
  void trace_slice(const sc_core::sc_time& end, const std::string& how) const;
  uint64_t instruction_limit() const { return limit_; }
  // The option that set instruction_limit() for this launch (empty: the cluster's parameter).
  const std::string& instruction_limit_name() const { return limit_name_; }
  // Another hart stored to addr: drops this hart's LR reservation of that
  // 8-byte granule. True while the hart still holds a reservation.
  bool break_reservation(uint64_t addr) {
    if (reservation_ != ~0ull && (reservation_ >> 3) == (addr >> 3)) reservation_ = ~0ull;
    return reservation_ != ~0ull;
  }

  // Debug-path memory access through the hart's own view (no timing).
  bool debug_read(uint64_t addr, void* dst, unsigned len) override;
  bool debug_write(uint64_t addr, const void* src, unsigned len);
  // The debugger's view of a virtual address through the current satp (Mmu::debug_translate).
  bool debug_translate(uint64_t va, uint64_t& pa, std::string& why) { return mmu_.debug_translate(va, pa, why); }

  uint64_t instructions() const { return hot_.s.minstret; }
  // The value of counter CSR `i` (CSR number & 31: 0 mcycle, 2 minstret,
  // 3..31 mhpmcounter; not 1, time), as software reads it (hart_counters.cpp).
  uint64_t counter(unsigned i) const;
  // Either observes every instruction: translated code running stops chaining (hot_.chain_closed).
  void set_debug_hook(HartDebugHook* hook) { hot_.chain_closed |= (debug_ = hook) != nullptr; }
  void set_tracer(HartTracer* tracer) { hot_.chain_closed |= (tracer_ = tracer) != nullptr; }
  // The last instructions executed since the hart was started (error reports).
  const InsnHistory& history() const { return history_; }
  InsnHistory& history() { return history_; }
  // A CSR as M-mode sees it, for debuggers; false when it does not exist.
  bool debug_csr(unsigned csr, uint64_t& value);
  CacheModel& icache() { return icache_; }
  CacheModel& dcache() { return data_.dcache(); }
  StreamPrefetcher& data_prefetcher() { return data_.prefetcher(); }
  uint64_t insn_cycles() const { return hot_.s.minstret + hot_.s.extra_cycles; }  // the retired instructions' own cycles
  // Simulated time beyond the instructions' own cycles, by cause (ps, since construction; hart_hot_state.h).
  using Stall = HartStall;
  uint64_t stall_ps(Stall s) const { return hot_.stall_ps[s]; }
  void add_stall(Stall s, uint64_t ps) { hot_.stall_ps[s] += ps; }
  // Address translation and protection (mmu.h): sizes from the cluster's parameters.
  void configure_mmu(unsigned tlb_entries, unsigned pmp_entries, unsigned pmp_granularity) {
    mmu_.configure(tlb_entries, pmp_entries, pmp_granularity);
  }
  // The trigger module (Sdtrig, triggers.h). A start resets the triggers
  // software programmed; the debugger's (dmode) stay while their number does.
  void configure_triggers(unsigned count);
  rv::Triggers& triggers() { return triggers_; }
  const MmuStats& mmu_stats() const { return mmu_.stats(); }
  // Parallel quantum schedule (hart_slices.h, hart_slice.cpp): runs whole
  // blocks until the quantum is used or the next step needs the SystemC
  // kernel (a device access, an atomic, a system instruction, a block not
  // decoded yet, a pending interrupt...); may run on any host thread while
  // the simulation thread waits (`beside_others`: other harts' slices may
  // run at the same time; `with_others`: its batch has other slices, so it
  // defers its Timing transactions, SliceState::defers_traffic). The hart's
  // own thread finishes it.
  void run_slice(bool beside_others, bool with_others);
  sc_core::sc_event& slice_done() { return slice_.done; }
  // Between slices without the hart's thread (HartSlices parks the hart;
  // `now` is SystemC time, which these do not read, as they run on any host
  // thread): after a slice that only used its quantum, the quantum boundary
  // its thread would wait for (its local time set as sync_to_grid sets it),
  // or 0 when the thread has more to do. At that boundary (SystemC time there
  // or, when the dispatcher runs ahead, still before it), unpark() does what
  // sync_to_grid does after its wait; systemc_moved(ps) follows the
  // dispatcher's catching up by ps.
  uint64_t park_until_grid(uint64_t now);
  void unpark(uint64_t boundary, uint64_t now);
  // In a slice whose quantum is used at a block boundary: the boundary
  // park_until_grid would give after it (0: none), nothing changed; and
  // that boundary passed at once (HartSlices::pass_boundary): parked there,
  // unparked, the slice goes on.
  uint64_t grid_boundary_ahead(uint64_t now) const;
  void pass_boundary(uint64_t boundary, uint64_t now);
  // After a slice, before park_until_grid: up to where the hart stays in the
  // wait loop it skipped in, doing nothing another hart or device sees (ps,
  // absolute: the loop's end less an iteration; 0: in no loop whose skips
  // may pass quanta in the parallel schedule), and that loop. The schedule
  // then lets the next slice's skips pass quanta up to `until_ps`
  // (HartSlices::allow_passing, docs/harts.md "Polling loops").
  uint64_t parallel_spin_until() const;
  const WaitLoopIteration& spin_loop() const { return wait_loop_.iteration; }
  void allow_passing(uint64_t until_ps) { slice_.allow_passing(until_ps); }
  void systemc_moved(uint64_t ps) { hot_.time.systemc_moved(ps); }
  // After a batch, in hart order: the bandwidth queueing and DRAM rows its
  // slice's transactions left out (base/cache_traffic.h, deferred), the hart
  // stalling for them from now on (parked: from its next slice's start).
  void replay_traffic(bool parked);
  bool traffic_to_replay() const { return !slice_.deferred().empty(); }
  // A debugger, tracer or armed trigger sees every instruction: the observed loop runs.
  bool observed() const { return debug_ || tracer_ || triggers_.native_armed(); }
  // What an instruction adds to the hart's counters (hart_wait_loop.cpp): its
  // local time, stalls, instructions, cycles, events, cache and TLB counts.
  static constexpr unsigned kLoopCounters = 32;
  using LoopCounters = std::array<uint64_t, kLoopCounters>;

 private:
  void finish_slice();    // in the hart's thread: the part of the slice the kernel must see
  void quantum_sync();    // sync() or run on (run_ahead.h); in the parallel schedule sync_to_grid()
  void sync_to_grid();    // waits to the last quantum boundary not after the local time
  uint64_t grid_boundary(uint64_t now);  // sync_to_grid before its wait: the boundary (0: none ahead)
  void check_deadline(uint64_t now_ps);  // the kernel watchdog, at the hart's time now (ps)
  // The cluster's lock on what harts share, taken only in a slice (the serial schedule needs none).
  std::unique_lock<std::mutex> shared_lock();
  using Block = DecodedBlock;

  void thread();
  void run();
  // A time read (CSRRS rd, time, x0), a WFI that does not sleep or a device
  // load running, the hart settled: skips the iterations of the loop it waits in that
  // nothing can tell from run ones (true: it did, a read reads again).
  bool skip_wait_loop(const rv::Insn& d, uint64_t pc);
  void skip_device_poll(uint64_t pa, unsigned len);  // at a device read of `len` bytes at `pa`
  bool wait_loops_skippable() const;
  bool wait_loop_due(uint64_t pc, const LoopCounters& now) const;  // skip_wait_loop would evaluate at pc
  bool device_poll_due(uint64_t addr, uint64_t pc);  // a load at pc from addr, in translated code: it would
  class WaitLoopReader;  // the hart as wait_loop.h's WaitLoopView
  // The iteration of the loop at the time read `d` at `pc`, reading `time`: the one kept while its inputs are unchanged.
  const WaitLoopIteration& wait_loop_iteration(const WaitLoopReader& reader, const rv::Insn& d, uint64_t pc, uint64_t time);
  // Device loads of `it` that the parallel schedule does not skip over.
  bool parallel_device_loads(const WaitLoopIteration& it) const;
  LoopCounters loop_counters() const;
  void add_loop_counters(const LoopCounters& added);  // what skipped iterations add to each counter
  template <class TimeAt>
  void note_loop_end(const WaitLoopIteration& it, uint64_t exit_at, uint64_t now_ps, uint64_t period,
                     const TimeAt& time_at);
  uint64_t loop_until_ps() const;  // where the loop the hart skipped in ends (ps, absolute), its limits included
  uint64_t spin_horizon_ps() const;
  void note_quantum_end();
  struct RunOnLimit;
  const RunOnLimit& run_on_limit(uint64_t turn_ps, bool spinning);
  bool run_on_beside_spinning();
  uint64_t spin_run_on_limit(uint64_t until, bool& beside);
  uint64_t quanta_to_pass();
  // At a quantum's end: goes on without a wait (run_ahead.h), also beside
  // the waits of harts spinning in wait loops (docs/harts.md, "Beside spinning harts").
  bool run_on();
  void sync_spinning();  // sync(), as a spinning wait (HartCluster::spin_wait_begin) when the hart spins in a wait loop
  const Block* decoded_block(uint64_t pc);  // nullptr when pc's block is not decoded
  // resumed: the rest of a block a slice left at instruction `from`.
  void run_block(const Block& b, uint32_t from = 0, bool resumed = false);
  // The hot path: blocks one after another from `first`, following their
  // links, while no check of the run loop would stop or divert the hart.
  void run_chain(const Block& first);
  // I-cache timing and history of a block about to run (`quick`: the lines
  // HartHotState::fetch_quick_hit did, when it was tried already).
  // Returns the block entered: b, or the block that replaced it when a
  // change of translation moved its page (translate_fetch_again).
  static constexpr uint32_t kQuickUntried = ~0u;
  const Block& enter_block(const Block& b, uint32_t quick = kQuickUntried);
  void trapped_in(const Block& b);    // a trap at hot_.s.pc ended b early: the history keeps what ran
  void trap_left(const Block& b, uint32_t at);  // run_insns leaves b at its instruction `at`, which trapped
  // ... with trap t, taken without a throw as the run loop would take it (in a slice: thrown to the slice).
  void take_trap_left(const Block& b, uint32_t at, const TrapException& t);
  // ... or which needs the kernel: the slice ends, its hart's thread resumes b there (SliceState::resume_at).
  void left_for_kernel(const Block& b, uint32_t at);
  const Block* next_block(const Block& b);  // the block at hot_.s.pc after b, by b's links
  const Block* next_enterable_block(const Block& b);
  bool chain_goes_on() const;
  // Stores to the gate only when it changes: a store to part of it stalls the
  // next block end's load of the whole gate until the store completes.
  // The instructions at which the chain and the slices stop: the limit or a functional run's switch point.
  void update_insn_stop() {
    hot_.set_insn_stop(switch_insns_ && (!limit_ || switch_insns_ < limit_) ? switch_insns_ : limit_);
  }
  void check_timed_switch();  // at a block boundary of a functional run: asks the cluster to switch at its point
  bool switch_due(uint64_t now) const;  // a functional run's switch to timed is due at SystemC time now + local
  // Fetches go through the I-cache model: one is modelled and the caches run (timed or warmed).
  bool fetch_timed() const { return icache_.enabled() && hot_.caches_run(); }
  void update_irq_gate() {
    if (const bool v = (hot_.s.mip & hot_.s.mie) != 0; v != hot_.irq_gate) hot_.irq_gate = v;
  }
  uint32_t index_of_pc(const Block& b) const;  // the instruction of b at hot_.s.pc (its last one if none)
  // Retiring (minstret, mcycle, the events, the instructions' own time) is
  // counted per block: run_insns counts a block when it ends, and
  // settle() counts the instructions before cur_ as soon as anything may look
  // (a bus or device access, a system or extension instruction, a trap).
  void settle() final {
    if (hot_.lazy) settle_to(static_cast<uint32_t>(cur_ - hot_.lazy->insns.data()));
  }
  void settle_to(uint32_t n);  // counts hot_.lazy's instructions up to n
  // The local time (ps) settle() would leave, without counting anything: a
  // direct bus transaction needs only its time, and a block nothing settled
  // is retired by its translated code, which goes on to the next block.
  uint64_t settled_time_ps() const final;
  void note_block_costs(Block& b) const;
  // hart_chain.cpp: the threaded loop, from instruction `from` of b (entered);
  // chain: the blocks after it too, while chain_goes_on().
  void run_insns(const Block* b, uint32_t from, bool chain);
  void run_observed(const Block& b, uint32_t from);  // hart_exec.cpp: each instruction seen
  // hart_translate.cpp: a block's host code, and the helpers it calls (block_translator.h).
  void translate(const Block& b);
  // A block is translated at its (kInterpretedRuns + 1)-th entry: code that
  // runs a few times costs less interpreted than translated (a boot runs much
  // of its code once). One whose host code went with a full translation
  // cache is translated again at its next entry. Both when translating is on
  // and room is left; the simulated results are the same either way.
  static constexpr uint32_t kInterpretedRuns = 16;
  const Block& translated_again(const Block& b) {
    if (!b.code && (blocks_.translate_again() || ++b.interpreted > kInterpretedRuns) && !blocks_.code_full() &&
        translating_)
      translate(b);
    return b;
  }
  template <typename T, typename R>
  static JitStep translated_load(void* hart, uint64_t addr, uint64_t pc, const rv::Insn* d) noexcept;
  template <typename T>
  static JitStep translated_store(void* hart, uint64_t addr, uint64_t v, uint64_t pc, const rv::Insn* d) noexcept;
  static JitStep translated_other(void* hart, uint64_t pc, const rv::Insn* d) noexcept;
  template <bool kTranslatedFetch>
  static const uint8_t* translated_enter(void* hart, const void* block, uint64_t pc) noexcept;
  const uint8_t* enter_translated(const Block& b, uint32_t quick) noexcept;  // translated_enter's general case
  static uint64_t translated_quantum_end(void* hart) noexcept;  // BlockChain::quantum_end
  static uint64_t translated_bound_reached(void* hart) noexcept;  // BlockChain::bound_reached
  JitStep failed() noexcept;  // keeps the exception being handled for run_insns
  // Keeps a helper's trap for run_chain, which takes it without a throw
  // (an unwind costs microseconds; a 4-hart Linux boot traps some 8 k times).
  JitStep trapped(const TrapException& t) noexcept;
  // ... and a helper's NeedsKernel in a slice, which run_insns ends the slice at (left_for_kernel).
  JitStep kernel_needed() noexcept;
  const Block& block_at(uint64_t pc);
  // Decodes the block at pc from `page` (translated already) and, for an
  // instruction crossing into the next page, `tail` (nullptr: translated here).
  const Block& decode_block(uint64_t pc, const PageTranslation& page, const PageTranslation* tail = nullptr);
  // As decode_block, in place of stale.
  const Block& decode_again(const Block& stale, const PageTranslation& page, const PageTranslation* tail);
  void blocks_going() override { history_.freeze(); }  // its entries point to blocks
  void drop_changed_blocks();  // fence.i: the blocks whose code in memory is not what they decoded
  bool code_changed(const Block& b);
  bool compared_changed(const Block& b);  // b's instructions against memory
  // Where b's code lies in memory that counts its writes (writes nullptr: it does not), and their generation.
  struct CodeWrites {
    const PageWrites* writes = nullptr;
    const uint8_t *host = nullptr, *tail = nullptr;
    uint64_t generation = 0;
  };
  CodeWrites code_writes_of(const Block& b);
  // No write counted on b's code since it was decoded or last checked (`now`: code_writes_of(b)).
  bool code_writes_unchanged(const Block& b, const CodeWrites& now) const;
  void note_code_writes(const Block& b, const CodeWrites& c);
  struct CountedWrites {
    uint64_t dmi_gen = ~0ull, writes = 0;
    bool all_tracked = false;
  };
  CountedWrites counted_writes() const;
  uint64_t exec(const rv::Insn& d, uint64_t pc);
  uint64_t exec_other(const rv::Insn& d, uint64_t pc);  // atomic, FP, extension, system; returns the next pc
  uint64_t exec_system(const rv::Insn& d, uint64_t pc);
  // ECALL as exec_system does it (the instructions before it retired, the
  // time caught up, a host call tried), its trap returned instead of thrown;
  // none when a host call handled it.
  std::optional<TrapException> ecall();
  // In a slice: whether an instruction exec_other executes needs the
  // kernel before it starts (exec_other throws NeedsKernel).
  bool other_needs_kernel(const rv::Insn& d) const;
  uint64_t exec_atomic(const rv::Insn& d);
  void exec_fp(const rv::Insn& d);
  void exec_xintf(const rv::Insn& d);
  [[noreturn]] void illegal(const rv::Insn& d) const;
  void take_trap(uint64_t cause, uint64_t tval);
  // The pending and enabled interrupts the hart would take now (0: none;
  // one pending but masked by mstatus or the privilege is not taken).
  uint64_t interrupts_to_take() const;
  bool check_interrupts();  // takes the highest-priority one of them: true if it did
  bool host_call();  // ECALL a7 = 0..3 in M-mode; true if handled
  void finish(HartExitKind kind, uint64_t code = 0, uint64_t cause = 0, uint64_t tval = 0);

  // CSRs (hart_csr.cpp).
  uint64_t csr_read(unsigned csr, const rv::Insn& d);
  void csr_write(unsigned csr, uint64_t v, const rv::Insn& d);
  bool counter_allowed(unsigned csr) const;
  // The counters (hart_counters.cpp): each counts its source from the value last set.
  uint64_t clock_cycles() const;               // hart clock cycles since the start: mcycle's source
  uint64_t event_count(unsigned event) const;  // the count of an AVP_HPM_* event (harts/hpm_events.h)
  uint64_t counter_source(unsigned i) const;
  void reset_counters();  // at a start: every counter 0, the events at their reset values
  void write_counter(unsigned i, uint64_t v);
  void write_counter_event(unsigned i, uint64_t event);
  void write_counter_inhibit(uint32_t mask);

  // Memory (hart_memory.cpp; loads and stores: data_path.h).
  bool fetch_read(uint64_t addr, void* dst, unsigned len);  // instruction fetch (needs execute permission)
  void bus_access(tlm::tlm_command cmd, uint64_t pa, void* data, unsigned len, uint64_t fault_cause, uint64_t tval,
                  bool functional) override;
  void storing(uint64_t pa, unsigned len) override;
  void stored(uint64_t pa, unsigned len) override;
  void code_free_span(uint64_t pa, uint64_t& from, uint64_t& to) const override;
  template <typename T>
  T load(uint64_t addr) {
    return data_.load<T>(addr);
  }
  template <typename T>
  void store(uint64_t addr, T v) {
    data_.store<T>(addr, v);
  }
  void invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end);

  // What stands on translation and PMP (hart_mmu.cpp; mmu_ translates and
  // checks, data_ keeps the fast regions of checked accesses).
  void update_xlate();         // after a change of priv, mstatus, satp or PMP
  void translation_changed();  // drops fast regions; blocks of checked fetches are checked again
  void protection_changed();   // a PMP write: drops fast regions and the blocks of checked fetches
  // The walk's PTE accesses on the bus (DMI, timing; the Mmu checks the PMP).
  uint64_t pte_access(uint64_t pa, const uint64_t* write, uint64_t fault_cause, uint64_t tval) override {
    return data_.pte_access(pa, write, fault_cause, tval);
  }
  // Its TLB entry was replaced, or translation changed (hart_mmu.cpp): the
  // block (b or its replacement) with its pages translated again.
  const Block& translate_fetch_again(const Block& b);
  bool fetch_translation_held(const Block& b) const { return mmu_.tlb_inserts() < b.tlb_until; }
  // In a slice, which may not walk: held, or renewed from the TLB as
  // translate_fetch_again would (the block live, in one page, the TLB
  // still holding that page's entry); false: entering b is the kernel's.
  bool fetch_translation_kept(const Block& b) { return fetch_translation_held(b) || renew_fetch_translation(b); }
  bool renew_fetch_translation(const Block& b);
  void sfence(const rv::Insn& d);
  // Fetch timing (hart_chain.cpp): the I-cache's, and the Timing transactions of its misses.
  void fetch_timing(const Block& b, uint32_t quick);
  void locate_fetch(const Block& b);  // the block's I-cache lines and whether its code is cacheable
  uint64_t uncached_fetch_time(const Block& b);

  // What translated code reads and writes (hart_hot_state.h), the base its
  // code addresses; the C++ paths use the same fields.
  HartHotState hot_;
  HartCluster& cluster_;
  HartDebugHook* debug_ = nullptr;
  HartTracer* tracer_ = nullptr;
  InsnHistory history_{hot_.history};
  const unsigned id_, core_;
  BlockCache blocks_{*this};  // the decoded blocks and their host code
  DmiRegions dmi_{bus, make_unit(UnitKind::Hart, id_), core_, hot_.dmi_gen, hot_.time, slice_};
  CacheModel icache_{hot_.icache};
  tlm::tlm_generic_payload gp_;
  BusTiming bus_timing_;  // Probe, Timing and Replay transactions (bus_timing.h)
  // Per-block retiring (settle()): the instruction executing in the block
  // running in run_insns (hot_.lazy, hot_.settled).
  const rv::Insn* cur_ = nullptr;
  std::exception_ptr translated_error_;  // what a helper of translated code caught
  TrapException pending_trap_{};  // ... or the trap it caught, while trap_pending_
  bool trap_pending_ = false;
  bool kernel_needed_ = false;  // ... or that it stopped for the kernel
  uint64_t reservation_ = ~0ull;  // LR/SC reserved physical address, ~0 = none
  Mmu mmu_{hot_.s, hot_.tlb_inserts, *this, data_};
  DataPath data_;  // loads, stores, the D-cache
  rv::Triggers triggers_;
  bool translating_ = false;   // harts.translate, taken when the hart runs

  bool running_ = false, kernel_ = false, flush_ = false;
  bool refetch_ = false;  // fence.i: drop_changed_blocks at the next block boundary
  // A block whose code's writes are not counted (code_writes nullptr) was
  // decoded or checked since the last fence.i, which saw checked_writes_.
  bool untracked_code_ = true;
  CountedWrites checked_writes_;
  bool timed_out_ = false;               // HartLaunch::deadline passed: ends at the next block
  // translated_quantum_end found that the hart may not run on: the run
  // loop's quantum_sync, next with nothing run between, syncs without asking again.
  bool run_on_refused_ = false;
  sc_core::sc_time deadline_;            // HartLaunch::deadline (zero: none)
  bool host_calls_ = true;   // ECALL a7 = 0/1/2 in M-mode are host calls (not in the boot flow)
  bool seip_line_ = false;   // the PLIC's S-mode line; mip.SEIP reads as this OR the software-written bit
  bool seip_sw_ = false;
  bool stop_requested_ = false;
  uint64_t limit_ = 0, start_instret_ = 0;
  uint64_t switch_insns_ = 0, switch_ps_ = 0;  // a functional run's switch point (0: none), timing_mode.h
  std::string limit_name_;
  uint32_t launch_id_ = 0;
  sc_core::sc_time started_;
  uint64_t cycles_at_stop_ = 0;  // mcycle's source while the hart is stopped (0 before its first start)
  uint64_t instance_ = 0;  // a0 at launch (the instance id of a kernel)
  std::function<void(const HartExit&)> done_;
  sc_core::sc_event start_event_, irq_event_;
  SliceState slice_;  // the parallel quantum schedule's
  bool in_translated_load_ = false;  // a load helper of translated code runs
  // Translated code keeps guest registers in host registers across a load:
  // when a wait-loop skip, which reads and writes them, is due at a device
  // load, its helper leaves the load to the threaded loop (device_poll_due).
  bool threaded_from_load_ = false;
  // The time read, WFI or device load last seen, the counters there, what the last iteration
  // added and for how many iterations in a row the same; after an iteration
  // that did not qualify, reads to let pass before the next evaluation.
  // The last iteration that qualified is kept with its start, the registers
  // it was evaluated with, the BlockCache's epoch and the DMI generation then:
  // while all are the same, it is the same iteration.
  struct WaitLoopWatch {
    uint64_t pc = 1;
    bool device = false;  // the read at pc is a device load
    LoopCounters at{}, per_iteration{};
    unsigned same = 0, pass = 0, backoff = 0;
    bool known = false;
    WaitLoopIteration iteration;
    std::vector<const uint8_t*> load_host;  // where iteration.loads are in host memory
    std::vector<uint8_t*> store_host;       // and iteration.stores
    uint64_t at_pc = 1, x[32] = {};
    uint64_t epoch = 0, dmi_gen = 0;
    uint64_t evaluations = 0;  // of iterations so far
    // Reads at pc one period apart, the same iteration: numbered, as what
    // follows is known for one such sequence (a read that adds otherwise starts the next).
    uint64_t sequence = 0;
    uint64_t skipped_in = 0;  // the end (ps, absolute) of the quantum of the last skip
    // Where the loop ends (ps, absolute; ~0: never), Hart::note_loop_end, for
    // sequence until_sequence under the instruction limits in `limits`.
    uint64_t until_ps = 0, until_sequence = ~0ull, limits[2] = {};
    // The sequence's last quantum ends (Hart::note_quantum_end) and, once one
    // recurred at the same point of an iteration, the cycle they repeat in:
    // cycle_quanta quantum ends, cycle_ps apart.
    struct QuantumEnd {
      uint64_t at, phase;  // local time (ps, absolute), and ps after the last read
    };
    std::array<QuantumEnd, 8> ends{};
    unsigned ends_seen = 0;
    uint64_t ends_sequence = ~0ull, cycle_ps = 0, cycle_quanta = 0;
  } wait_loop_;
  // Where run_on may run on to beside spinning harts (RunAhead::run_on_limit),
  // found at SystemC time systemc_ps and delta cycle `delta` for turns of
  // turn_ps in the loop of the watch's evaluation `loop` (~0: running other
  // code), with spin_waits_touched's count at `touches`.
  struct RunOnLimit {
    uint64_t systemc_ps = ~0ull, delta = ~0ull, turn_ps = 0, loop = 0, touches = 0, limit_ps = 0;
    bool beside = false;  // passing over spinning waits (else the limit is run-ahead's own, RunAhead::run_on_limit)
  } run_on_limit_;
};

}  // namespace avp
