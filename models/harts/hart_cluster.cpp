#include "harts/hart_cluster.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iterator>
#include <new>
#include <sstream>
#include <thread>

#include "base/status_line.h"
#include "base/symbols.h"
#include "base/trace.h"
#include "base/unit.h"
#include "harts/trap_report.h"
#include "xintf_payload.h"

namespace avp {

using namespace rv;

namespace {
std::string with_symbol(uint64_t pc) {
  const std::string s = SymbolTable::instance().describe(pc);
  return s.empty() ? s : " " + s;
}
}  // namespace

std::string HartExit::describe() const {
  std::ostringstream os;
  switch (kind) {
    case HartExitKind::Returned: os << "returned"; break;
    case HartExitKind::Exit: os << "exit(" << static_cast<int64_t>(code) << ")"; break;
    case HartExitKind::Trap:
      os << "trap: " << cause_name(cause) << " (cause " << (cause & ~kInterruptBit) << ") at pc 0x" << std::hex << pc
         << with_symbol(pc) << ", tval 0x" << tval << std::dec;
      break;
    case HartExitKind::Limit:
      os << "instruction limit reached at pc 0x" << std::hex << pc << with_symbol(pc) << std::dec;
      break;
    case HartExitKind::Timeout:
      os << "deadline passed at pc 0x" << std::hex << pc << with_symbol(pc) << std::dec;
      break;
  }
  os << " after " << instructions << " instructions";
  return os.str();
}

unsigned HartCluster::slice_threads() const {
  if (host_threads.get()) return host_threads.get();
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return std::min<unsigned>(cores, static_cast<unsigned>(harts_.size()));
}

const char* rv::cause_name(uint64_t cause) {
  if (cause & kInterruptBit) return "interrupt";
  static const char* names[] = {"instruction address misaligned", "instruction access fault", "illegal instruction",
                                "breakpoint", "load address misaligned", "load access fault",
                                "store/AMO address misaligned", "store/AMO access fault", "environment call from U-mode",
                                "environment call from S-mode", "reserved", "environment call from M-mode",
                                "instruction page fault", "load page fault", "reserved", "store/AMO page fault"};
  return cause < 16 ? names[cause] : "reserved";
}

HartCluster::HartCluster(sc_core::sc_module_name name, unsigned cores, unsigned harts_per_core)
    : sc_module(name),
      xintf_hub("xintf_hub"),
      clock_period(this, "clock_period", sc_core::sc_time(1, sc_core::SC_NS), "hart clock period"),
      instruction_limit(this, "instruction_limit", 200'000'000ull,
                        "instructions a hart may retire in one run before it is stopped (0 = no limit)"),
      history_length(this, "history_length", 16,
                     "instructions each hart remembers for error reports (the last ones executed, at most 65536)"),
      parallel_quantum(this, "parallel_quantum", false,
                       "run the harts in the parallel quantum schedule (docs/harts.md, \"Parallel harts\"); implied by "
                       "host_threads other than 1"),
      host_threads(this, "host_threads", 1,
                   "host threads that run the harts' slices of a quantum (0..256; 0: the host's cores, at most one per "
                   "hart; other than 1 the schedule is the parallel quantum one, whose results do not depend on it)"),
      translate_blocks(this, "translate", true,
                       "run decoded blocks as x86-64 host code (docs/harts.md, \"How it runs\"); false: "
                       "interpret them (the same simulated results)"),
      translation_cache_kib(this, "translation_cache", 16384,
                            "KiB of host code per hart for translated blocks (4..1048576); when it fills up, the "
                            "host code of every block of the hart is dropped and translated again as it runs"),
      perf_map(this, "perf_map", false,
               "write /tmp/perf-<pid>.map, which names each translated block's host code by hart and guest pc "
               "for Linux perf (docs/performance.md, \"Measuring on this machine\")"),
      skip_wait_loops(this, "skip_wait_loops", true,
                      "skip the iterations of loops that only wait for the time CSR (docs/harts.md, \"Polling "
                      "loops\"): the same simulated results, counters and statistics, in less wall time"),
      timing(this, "timing", "timed",
             "timed: instruction classes' cycles, caches and memory latency; functional: one clock period per "
             "instruction, no cache or memory timing, the same simulated results otherwise (docs/timing.md)"),
      timed_from(this, "timed_from", "",
                 "where a functional run (timing=functional) becomes timed: stats-reset (the program's statistics "
                 "reset), insns:N (a hart's N-th instruction) or time:T (simulated time T); empty: never"),
      warm_caches(this, "warm_caches", false,
                  "in a functional run (timing=functional), keep the L1 caches' contents as its accesses leave them "
                  "(lines, LRU order, dirty bits; counted, untimed, no memory traffic), so that the switch to timed "
                  "(timed_from) finds them warm: slower than plain functional (docs/timing.md)"),
      cycles_alu(this, "cycles.alu", 1, "cycles of an integer ALU instruction"),
      cycles_branch(this, "cycles.branch", 1, "cycles of a conditional branch"),
      cycles_jump(this, "cycles.jump", 2, "cycles of jal/jalr"),
      cycles_load(this, "cycles.load", 1, "cycles of a load (plus the memory latency)"),
      cycles_store(this, "cycles.store", 1, "cycles of a store (plus the memory latency)"),
      cycles_mul(this, "cycles.mul", 3, "cycles of a multiply"),
      cycles_div(this, "cycles.div", 20, "cycles of a divide/remainder"),
      cycles_atomic(this, "cycles.atomic", 4, "cycles of an LR/SC/AMO (plus the memory latency)"),
      cycles_fp(this, "cycles.fp", 4, "cycles of an FP instruction"),
      cycles_fpdiv(this, "cycles.fpdiv", 20, "cycles of an FP divide/square root"),
      cycles_system(this, "cycles.system", 4, "cycles of a CSR/system instruction"),
      xintf_luns(this, "xintf.luns", "0xACC01=32,0xACC02=33,0xACC03=34",
                 "xext map: uuid[:seq]=lun[@privileges m/s/u], comma separated"),
      xintf_devices(this, "xintf.devices", "32=hartinfo,33=barrier,34=dma",
                    "xcmd map: lun[@privileges]=device[.subdevice] with device hartinfo, barrier or dma"),
      icache_size(this, "icache.size", 32 * 1024, "L1 instruction cache bytes per hart (0: not modelled)"),
      dcache_size(this, "dcache.size", 32 * 1024, "L1 data cache bytes per hart (0: not modelled, every access pays the memory latency)"),
      icache_ways(this, "icache.ways", 4, "L1 instruction cache associativity"),
      dcache_ways(this, "dcache.ways", 4, "L1 data cache associativity"),
      icache_line_size(this, "icache.line", 64, "L1 instruction cache line bytes"),
      dcache_line_size(this, "dcache.line", 64, "L1 data cache line bytes"),
      icache_hit(this, "icache.hit_latency", sc_core::SC_ZERO_TIME, "L1 instruction cache hit time (beyond the instruction's cycles)"),
      icache_miss(this, "icache.miss_latency", sc_core::sc_time(2, sc_core::SC_NS), "L1 instruction cache miss penalty (plus the memory latency)"),
      dcache_hit(this, "dcache.hit_latency", sc_core::sc_time(1, sc_core::SC_NS), "L1 data cache hit time"),
      dcache_miss(this, "dcache.miss_latency", sc_core::sc_time(2, sc_core::SC_NS), "L1 data cache miss penalty (plus the memory latency)"),
      dcache_prefetch_streams(this, "dcache.prefetch_streams", 0,
                              "stream buffers beside each hart's L1 data cache (0..64; 0: no prefetching): a miss "
                              "next to a recent miss starts a stream whose next lines are fetched ahead "
                              "(docs/timing.md, \"Prefetching\")"),
      dcache_prefetch_depth(this, "dcache.prefetch_depth", 8, "lines each stream buffer fetches ahead (1..64)"),
      tlb_entries(this, "tlb_entries", 32, "TLB entries per hart (fully associative, FIFO; 1..4096)"),
      pmp_entries(this, "pmp_entries", 16, "PMP entries per hart (0..64)"),
      pmp_granularity(this, "pmp_granularity", 0, "PMP granularity G: regions of at least 2^(G+2) bytes (0..20)"),
      triggers(this, "triggers", 4, "debug triggers per hart (Sdtrig, mcontrol/mcontrol6; 0..64, 0: none)"),
      perf("perf", *this, clock_period.get()),
      cores_(cores),
      harts_per_core_(harts_per_core),
      code_map_(static_cast<uint8_t*>(std::calloc(kCodeMapBytes, 1))),
      console_(this->name(), [this](unsigned hart) { return std::string(harts_.at(hart)->name()); }),
      log_(this->name()),
      instructions_(this, "instructions", "instructions retired by all harts", "instructions"),
      traps_(this, "traps", "runs ended by an unhandled trap", "traps"),
      prints_(this, "prints", "ECALL print calls", "calls"),
      barriers_done_(this, "barriers", "barriers completed (ECALL and xintf)", "barriers"),
      code_flushes_(this, "code_flushes",
                    "stores into decoded code (each drops the blocks with code in the written 256-byte granules) "
                    "and instruction-cache invalidations by the CMP (each drops every decoded block)",
                    "flushes"),
      xintf_calls_(this, "xintf_calls", "xcmd calls that reached an extension device", "calls"),
      wait_loop_skips_(this, "wait_loop_skips",
                       "times a hart skipped iterations of a loop that waits for the time CSR (how the simulation "
                       "ran: the results are those of running them)",
                       "skips"),
      wait_loop_iterations_(this, "wait_loop_iterations_skipped", "iterations of such loops skipped", "iterations"),
      runs_on_beside_spinning_(this, "runs_on_beside_spinning",
                               "quantum ends a hart passed without a wait beside the waits of others spinning in wait "
                               "loops (how the simulation ran: the results are those of waiting)",
                               "quantum ends"),
      wait_loop_quanta_passed_(this, "wait_loop_quanta_passed",
                               "quantum ends a skip passed at once, whole cycles of them a spinning hart would have "
                               "run on past (how the simulation ran: the results are those of running on)",
                               "quantum ends"),
      instance_time_(this, "instance_time", "time of a kernel instance (work-group) from launch to exit", "ns") {
  if (!code_map_) throw std::bad_alloc();
  xintf_map_.configure(xintf_luns.get(), xintf_devices.get());
  for (unsigned c = 0; c < cores; ++c)
    for (unsigned h = 0; h < harts_per_core; ++h) {
      const unsigned id = c * harts_per_core + h;
      harts_.push_back(std::make_unique<Hart>(("hart" + std::to_string(id)).c_str(), *this, id, c));
    }
  check_params();  // once, here: parameters take their values before elaboration and keep them
  mode_ = parse_timing_mode(timing.get(), timing.name());
  timed_from_ = parse_timed_from(timed_from.get(), timed_from.name());
  if (timed_from_.kind != TimedFrom::Never && mode_ == TimingMode::Timed)
    throw ParamError(timed_from.name() + ": '" + timed_from.get() + "' needs " + timing.name() +
                     "=functional (--timed-from sets both)");
  if (warm_caches.get() && mode_ == TimingMode::Timed)
    throw ParamError(warm_caches.name() + ": true needs " + timing.name() + "=functional (a timed run's caches are warm)");
  if (parallel()) slices_ = std::make_unique<HartSlices>(slice_threads());
  for (auto& h : harts_) h->history().set_length(history_length.get());
  for (auto& h : harts_) h->configure_triggers(triggers);  // a debugger may program them before any start
  configure_costs();
  group_of_.assign(harts_.size(), 0);
  spinning_.assign(harts_.size(), SpinningWait{});
  hart_stats_.resize(harts_.size());
  for (auto& h : harts_) {
    HartStats& st = hart_stats_[h->id()];
    const std::string n = "hart" + std::to_string(h->id()) + ".";
    Trace::instance().declare(h->name());
    st.instructions = std::make_unique<Counter>(this, n + "instructions", "instructions retired", "instructions");
    st.cycles = std::make_unique<Counter>(this, n + "cycles", "cycles of the retired instructions", "cycles");
    st.icache_hits = std::make_unique<Counter>(this, n + "icache_hits", "L1 instruction cache hits", "accesses");
    st.icache_misses = std::make_unique<Counter>(this, n + "icache_misses", "L1 instruction cache misses", "accesses");
    st.dcache_hits = std::make_unique<Counter>(this, n + "dcache_hits", "L1 data cache hits", "accesses");
    st.dcache_misses = std::make_unique<Counter>(this, n + "dcache_misses", "L1 data cache misses", "accesses");
    if (dcache_prefetch_streams) {
      st.dcache_prefetches = std::make_unique<Counter>(this, n + "dcache_prefetches", "lines the D-cache's stream buffers fetched", "lines");
      st.dcache_prefetch_hits = std::make_unique<Counter>(this, n + "dcache_prefetch_hits", "D-cache misses a stream buffer held", "accesses");
    }
    st.active_cycles = std::make_unique<Counter>(this, n + "active_cycles", "clock cycles running (instructions and stalls)", "cycles");
    st.busy = std::make_unique<Utilisation>(this, n + "busy", "time running a kernel instance or program");
    st.stall = std::make_unique<CounterArray>(
        this, n + "stall_",
        std::vector<CounterArray::Element>{{"fetch", "instruction fetch: I-cache time and fill latency", ""},
                                           {"memory", "data accesses: D-cache time, memory and device latency", ""},
                                           {"barrier", "waiting at barriers", ""},
                                           {"wfi", "waiting in WFI", ""},
                                           {"xintf", "extension-device (xcmd) calls", ""}},
        "ps");
    st.mmu = std::make_unique<CounterArray>(
        this, n,
        std::vector<CounterArray::Element>{
            {"tlb_hits", "TLB lookups that hit (a fast data page and a decoded block use their translation without a lookup while the TLB holds it)", ""},
            {"tlb_misses", "TLB lookups that missed", ""},
            {"page_walks", "page-table walks (misses, and hits lacking a permission or the D bit)", ""},
            {"pte_reads", "page-table entries read by walks", "reads"},
            {"page_faults", "page faults raised by translation", ""}},
        "events");
  }
  for (auto& h : harts_) h->xintf.bind(xintf_hub);
  xintf_hub.register_b_transport(this, &HartCluster::xintf_b_transport);
}

HartCluster::~HartCluster() = default;

void HartCluster::configure_costs() {
  const uint64_t period = to_ps(clock_period.get());
  if (period == 0) throw ParamError(std::string(name()) + ".clock_period: must be positive");
  const uint32_t cycles[] = {cycles_alu, cycles_branch, cycles_jump, cycles_load, cycles_store, cycles_mul,
                             cycles_div, cycles_atomic, cycles_fp, cycles_fpdiv, cycles_system};
  for (unsigned i = 0; i < static_cast<unsigned>(OpClass::NumClasses); ++i) {
    cost_cycles_[i] = functional() ? 1 : cycles[i];
    cost_ps_[i] = cost_cycles_[i] * period;
  }
  if (!caches_configured_) {  // caches stay warm between launches
    caches_configured_ = true;
    for (auto& h : harts_) {
      h->icache().configure({icache_size, icache_ways, icache_line_size, to_ps(icache_hit), to_ps(icache_miss)}, "harts.icache");
      h->dcache().configure({dcache_size, dcache_ways, dcache_line_size, to_ps(dcache_hit), to_ps(dcache_miss)}, "harts.dcache");
      if (dcache_prefetch_streams && !h->dcache().enabled())
        throw ParamError(dcache_prefetch_streams.name() + ": stream buffers need a D-cache (harts.dcache.size > 0)");
      h->data_prefetcher().configure(dcache_prefetch_streams, dcache_prefetch_depth, h->dcache().line_bits(),
                                     dcache_prefetch_streams.name().c_str());
    }
  }
  for (auto& h : harts_) {  // a functional run's caches take no time (warmed, or not used)
    h->icache().set_timed(!functional());
    h->dcache().set_timed(!functional());
  }
}

void HartCluster::update_hart_stats(Hart& h, const sc_core::sc_time& at, bool stopped) {
  HartStats& st = hart_stats_[h.id()];
  const sc_core::sc_time from = st.counted_to > h.started() ? st.counted_to : h.started();
  if (at > from) {
    st.busy->add_busy(from, at);
    const uint64_t period = to_ps(clock_period.get()), before = st.busy_ps / period;
    st.busy_ps += to_ps(at - from);
    st.active_cycles->inc(st.busy_ps / period - before);
    st.counted_to = at;
  }
  if (st.dcache_prefetches) {
    const StreamPrefetcher& p = h.data_prefetcher();
    st.dcache_prefetches->inc(p.prefetches() - st.prefetches_reported);
    st.dcache_prefetch_hits->inc(p.hits() - st.prefetch_hits_reported);
    st.prefetches_reported = p.prefetches();
    st.prefetch_hits_reported = p.hits();
  }
  if (stopped && h.runs_kernel()) instance_time_.sample((at - h.started()).to_seconds() * 1e9);
  for (unsigned c = 0; c < kStallCauses; ++c) {
    const uint64_t v = h.stall_ps(static_cast<HartStall>(c));
    (*st.stall)[c].inc(v - st.stalls_reported[c]);
    st.stalls_reported[c] = v;
  }
  const MmuStats& m = h.mmu_stats();
  const uint64_t mmu_now[5] = {m.tlb_hits, m.tlb_misses, m.page_walks, m.pte_reads, m.page_faults};
  for (unsigned c = 0; c < 5; ++c) {
    (*st.mmu)[c].inc(mmu_now[c] - st.mmu_reported[c]);
    st.mmu_reported[c] = mmu_now[c];
  }
  const uint64_t now[6] = {h.instructions(), h.insn_cycles(), h.icache().hits(), h.icache().misses(),
                           h.dcache().hits(), h.dcache().misses()};
  Counter* c[6] = {st.instructions.get(), st.cycles.get(), st.icache_hits.get(), st.icache_misses.get(),
                   st.dcache_hits.get(), st.dcache_misses.get()};
  for (int i = 0; i < 6; ++i) {
    c[i]->inc(now[i] - st.reported[i]);
    // Instructions and cycles restart with each launch; cache counts accumulate.
    st.reported[i] = stopped && i < 2 ? 0 : now[i];
  }
}

void HartCluster::launch(unsigned hart, const HartLaunch& l, std::function<void(const HartExit&)> done) {
  Hart& h = *harts_.at(hart);
  if (!h.idle()) throw std::logic_error("launch on a busy hart");
  prepare_start(h);
  group_of_[hart] = l.launch_id;
  h.start(l, true, std::move(done));
}

// A start takes the current quantum and resets the starting hart's TLB, PMP
// and software triggers to their configured sizes; the other harts, and their histories, are left alone:
// they may be running earlier instances.
void HartCluster::prepare_start(Hart& h) {
  // TLM's global quantum is not a parameter of the cluster: the platform sets
  // it after constructing the harts, and a test may change it between runs.
  quantum_ = tlm::tlm_global_quantum::instance().get();
  if (quantum_ == sc_core::SC_ZERO_TIME) quantum_ = sc_core::sc_time(1, sc_core::SC_US);
  h.configure_mmu(tlb_entries, pmp_entries, pmp_granularity);
  h.configure_triggers(triggers);
}

void HartCluster::check_params() const {
  if (history_length.get() > 65536)
    throw ParamError(std::string(this->name()) + ".history_length: " + std::to_string(history_length.get()) +
                     " is more than 65536");
  if (tlb_entries.get() < 1 || tlb_entries.get() > 4096)
    throw ParamError(std::string(name()) + ".tlb_entries: " + std::to_string(tlb_entries.get()) + " is not in 1..4096");
  if (pmp_entries.get() > 64)
    throw ParamError(std::string(name()) + ".pmp_entries: " + std::to_string(pmp_entries.get()) + " is more than 64");
  if (triggers.get() > rv::Triggers::kMaxTriggers)
    throw ParamError(std::string(name()) + ".triggers: " + std::to_string(triggers.get()) + " is more than 64");
  if (host_threads.get() > 256)
    throw ParamError(std::string(name()) + ".host_threads: " + std::to_string(host_threads.get()) + " is not in 0..256");
  if (translation_cache_kib.get() < 4 || translation_cache_kib.get() > 1048576)
    throw ParamError(std::string(name()) + ".translation_cache: " + std::to_string(translation_cache_kib.get()) +
                     " KiB is not in 4..1048576");
  if (pmp_granularity.get() > 20)
    throw ParamError(std::string(name()) + ".pmp_granularity: " + std::to_string(pmp_granularity.get()) +
                     " is more than 20");
}

void HartCluster::start_bare_metal(unsigned hart, const HartLaunch& l, std::function<void(const HartExit&)> done) {
  prepare_start(*harts_.at(hart));
  group_of_[hart] = l.launch_id;
  harts_.at(hart)->start(l, false, std::move(done));
}

sc_core::sc_time HartCluster::flush_dcaches() {
  // The caches are timing models (memory is coherent): a flush costs the
  // write-back of each dirty line; the harts' caches write back in parallel.
  uint64_t longest = 0;
  for (auto& h : harts_) longest = std::max(longest, h->flush_dcache());
  return sc_core::sc_time(static_cast<double>(longest), sc_core::SC_PS);
}

sc_core::sc_time HartCluster::invalidate_icaches() {
  for (auto& h : harts_) {
    h->invalidate_decoded();
    h->icache().invalidate();
  }
  code_flushes_.inc();
  return sc_core::SC_ZERO_TIME;
}

uint64_t HartCluster::time_ns(const Hart& h) const { return time_ns_at_ps(systemc_ps() + h.local_time_ps()); }

uint64_t HartCluster::time_ns_at_ps(uint64_t ps) const {
  if (time_source) return time_source(ps);
  return static_cast<uint64_t>(from_ps(ps).to_seconds() * 1e9);
}

void HartCluster::print(Hart& h, const std::string& text) {
  prints_.inc();
  std::string t = text;
  if (!t.empty() && t.back() == '\n') t.pop_back();
  console_.line(h.id(), sc_core::sc_time_stamp() + h.local_time(), t);
}

unsigned HartCluster::count_running(const std::function<bool(const Hart&)>& member) const {
  unsigned n = 0;
  for (const auto& o : harts_)
    if (!o->idle() && member(*o)) ++n;
  return n;
}

void HartCluster::meet(Hart& h, uint32_t key, const std::function<bool(const Hart&)>& member) {
  h.sync();
  BarrierGroup& g = barriers_[key];
  g.member = member;
  const uint64_t gen = g.generation;
  if (++g.arrived >= count_running(member)) {
    g.arrived = 0;
    ++g.generation;
    barriers_done_.inc();
    g.release.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  const sc_core::sc_time arrived = sc_core::sc_time_stamp();
  while (g.generation == gen) sc_core::wait(g.release);
  h.add_stall(StallBarrier, to_ps(sc_core::sc_time_stamp() - arrived));
}

void HartCluster::spin_wait_begin(const Hart& h, SpinningWait w) {
  if (spinning_[h.id()].wake_ps) spin_wait_end(h);
  w.touches = spin_touches_;
  watch_footprint(*w.loop, true);
  spinning_[h.id()] = w;
  spin_waits_ = ++spinning_count_ > 0;
}

void HartCluster::spin_wait_end(const Hart& h) {
  watch_footprint(*spinning_[h.id()].loop, false);
  spinning_[h.id()] = SpinningWait{};
  spin_waits_ = --spinning_count_ > 0;
}

bool HartCluster::spin_waiting(const Hart& h) const { return spinning_[h.id()].wake_ps != 0; }

const HartCluster::WatchedGranule* HartCluster::watched(uint64_t g) const {
  for (const WatchedGranule& w : watched_)
    if (w.granule == g) return &w;
  return nullptr;
}

bool HartCluster::granule_has_code(uint64_t g) const {
  if (!granule_marked(g)) return false;
  const WatchedGranule* w = watched(g);
  return !w || w->code;
}

void HartCluster::watch_footprint(const WaitLoopIteration& loop, bool watch) {
  for (const std::vector<WaitLoopStore>* accesses : {&loop.loads, &loop.stores})
  for (const WaitLoopStore& l : *accesses) {
    for (uint64_t g = l.va >> kGranuleBits; g <= (l.va + l.size - 1) >> kGranuleBits && g < kCodeMapBytes; ++g) {
      if (WatchedGranule* w = watched(g)) {
        if (watch) {
          ++w->loops;
        } else if (--w->loops == 0) {
          mark_granule(g, w->code);
          *w = watched_.back();
          watched_.pop_back();
        }
      } else if (watch) {
        watched_.push_back({g, 1, granule_marked(g)});
        mark_granule(g, true);
      }
    }
  }
}

// Whether `loop` reads no device, stores the same at every iteration (so
// memory holds it already, whatever runs between its iterations), and the
// code map watches everything it loads and stores (below 4 GiB).
bool HartCluster::watchable(const WaitLoopIteration& loop) const {
  if (!loop.device_loads.empty()) return false;
  for (const WaitLoopStore& s : loop.stores)
    if (s.offset || !tracks_code(s.va, s.size)) return false;
  for (const WaitLoopStore& l : loop.loads)
    if (!tracks_code(l.va, l.size)) return false;
  return true;
}

unsigned HartCluster::spinning_beside(const Hart& h, const WaitLoopIteration* loop, uint64_t turn_ps,
                                      RunAhead::Passable* passable, unsigned most) const {
  // A waiting hart's turn that reaches its loop's end starts at most a
  // quantum and an iteration before that end (its turns end at the first
  // block end past a quantum), and must start after h's turn ends.
  const uint64_t quantum = to_ps(quantum_);
  unsigned n = 0;
  for (unsigned i = 0; i < spinning_.size() && n < most; ++i) {
    const SpinningWait& w = spinning_[i];
    const uint64_t margin = quantum + w.period_ps + turn_ps;
    if (i == h.id() || !w.wake_ps || w.until_ps <= margin || w.touches != spin_touches_) continue;
    if (loop ? !loops_touch(*loop, *w.loop)
             : watchable(*w.loop) && w.generation != ~0ull && harts_[i]->footprint_generation(*w.loop) == w.generation)
      passable[n++] = {w.wake_ps, w.until_ps - margin};
  }
  return n;
}

void HartCluster::barrier(Hart& h) {
  const uint32_t group = group_of_[h.id()];
  meet(h, group, [this, group](const Hart& o) { return group_of_[o.id()] == group; });
}

void HartCluster::hart_stopped(Hart& h, const HartExit& e) {
  instructions_.inc(e.instructions);
  retired_by_stopped_ += e.instructions;
  update_hart_stats(h, sc_core::sc_time_stamp(), true);
  if (e.kind == HartExitKind::Trap) traps_.inc();
  idle_event_.notify(sc_core::SC_ZERO_TIME);
  // A hart that leaves may complete a barrier the others are waiting at.
  for (auto& [key, g] : barriers_) {
    if (g.arrived == 0 || !g.member || g.arrived < count_running(g.member)) continue;
    g.arrived = 0;
    ++g.generation;
    barriers_done_.inc();
    g.release.notify(sc_core::SC_ZERO_TIME);
  }
}

void HartCluster::report_trap(Hart& h, uint64_t cause, uint64_t tval) {
  const auto [site, first] = trap_sites_.emplace(std::make_pair(cause, h.state().pc), h.id());
  if (first) {
    AVP_LOG(log_, Error, describe_trap(h, cause, tval) << "\n" << describe_registers(h));
    if (trap_records_.size() < kMaxTrapRecords) trap_records_.push_back(record_trap(h, cause, tval));
  }
  else AVP_LOG(log_, Debug, "hart " << h.id() << ": the same trap as hart " << site->second << " (not reported again)");
}

void HartCluster::report_limit(Hart& h) {
  AVP_LOG(log_, Error, "hart " << h.id() << " stopped: instruction limit of " << h.instruction_limit()
                               << " reached at pc 0x" << std::hex << h.state().pc << with_symbol(h.state().pc) << " ("
                               << (h.instruction_limit_name().empty() ? std::string(name()) + ".instruction_limit"
                                                                      : h.instruction_limit_name())
                               << ")\n"
                               << describe_history(h));
}

void HartCluster::break_reservations(uint64_t addr) {
  unsigned active = 0;
  for (auto& h : harts_) active += h->break_reservation(addr);
  reservations_.store(active, std::memory_order_relaxed);
}

void HartCluster::mark_granule(uint64_t g, bool set) {
  if (set == (code_map_[g] != 0)) return;
  code_map_[g] = set;
  if (!set) {
    marked_.erase(g);
    return;
  }
  marked_.insert(g);
  for (auto& h : harts_) h->code_marked(g << kGranuleBits, uint64_t{1} << kGranuleBits);
}

void HartCluster::code_free_span(uint64_t pa, uint64_t& from, uint64_t& to) const {
  const uint64_t g = pa >> kGranuleBits;
  const auto next = marked_.lower_bound(g);  // the first marked granule at or after pa's
  if (next != marked_.end() && *next == g) {
    from = to = pa;
    return;
  }
  if (next != marked_.end()) to = std::min(to, *next << kGranuleBits);
  if (next != marked_.begin()) from = std::max(from, (*std::prev(next) + 1) << kGranuleBits);
}

void HartCluster::mark_code(uint64_t addr, uint64_t len) {
  for (uint64_t g = addr >> kGranuleBits; g <= (addr + len - 1) >> kGranuleBits; ++g) {
    if (g >= kCodeMapBytes) continue;
    mark_granule(g, true);
    if (WatchedGranule* w = watched(g)) w->code = true;
  }
}

// The written granules hold no decoded code any more: every hart drops the
// blocks with code in them (and only those).
void HartCluster::code_written(uint64_t addr, uint64_t len) {
  const uint64_t first = addr >> kGranuleBits, last = (addr + len - 1) >> kGranuleBits;
  for (uint64_t g = first; g <= last; ++g) {
    if (g >= kCodeMapBytes) continue;
    WatchedGranule* w = watched(g);
    if (w) w->code = false;
    mark_granule(g, w != nullptr);
  }
  code_flushes_.inc();
  for (auto& h : harts_) h->drop_code(first << kGranuleBits, (last + 1) << kGranuleBits);
}

void HartCluster::memory_written(uint64_t addr, uint64_t len) {
  if (len == 0) return;
  const uint64_t last = (addr + len - 1) >> kGranuleBits;
  for (uint64_t g = addr >> kGranuleBits; g <= last; ++g)
    if (granule_has_code(g)) return code_written(g << kGranuleBits, (last - g + 1) << kGranuleBits);
}

HartCluster::Totals HartCluster::totals() const {
  Totals t{0, 0, code_flushes_.value(), barriers_done_.value(), prints_.value(), traps_.value(), xintf_calls_.value()};
  for (const auto& h : harts_) t.instructions += h->instructions(), t.cycles += h->insn_cycles();
  return t;
}

// ---- extension devices ----

void HartCluster::xintf_b_transport(int hart, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (gp.get_data_length() != sizeof(XintfPayload) || hart < 0 || static_cast<unsigned>(hart) >= harts_.size()) {
    gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  auto* p = reinterpret_cast<XintfPayload*>(gp.get_data_ptr());
  Hart& h = *harts_[hart];
  xintf_calls_.inc();
  h.set_local_time(delay);
  try {
    p->rd = xintf_devices_.call(h, XintfRoute{static_cast<XintfDevice>(p->device), p->subdevice}, p->k, p->rs1, p->rs2);
  } catch (const TrapException& t) {
    p->fault = 1;
    p->fault_cause = t.cause;
    p->fault_tval = t.tval;
  }
  delay = h.local_time();
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace avp
