// Regions of interest of the hart cluster: a program dumps and/or resets
// every statistic of the platform (ECALL a7 = 3 or the perf block's
// STATS_CONTROL register), like gem5's m5_dump_stats / m5_reset_stats, and a
// functional run becomes timed at its switch point (timing_mode.h), like
// gem5's switch from its functional CPU after a fast-forward.
#include "base/log.h"
#include "base/stats.h"
#include "harts/hart_cluster.h"
#include "harts/perf_regs.h"

namespace avp {

uint64_t HartCluster::instructions_retired() const {
  uint64_t n = retired_by_stopped_;
  for (const auto& h : harts_)
    if (!h->idle()) n += h->instructions();
  return n;
}

void HartCluster::update_running_stats(const sc_core::sc_time& at) {
  for (auto& h : harts_)
    if (!h->idle()) update_hart_stats(*h, at, false);
}

void HartCluster::trace_running(const sc_core::sc_time& at) const {
  for (const auto& h : harts_)
    if (!h->idle()) h->trace_slice(at, "running");
}

void HartCluster::stats_control(const std::string& who, const sc_core::sc_time& at, uint64_t op, Hart* by) {
  // Running harts' counts so far go in first (exact to the quantum for harts other than the caller).
  update_running_stats(at);
  StatRegistry& reg = StatRegistry::instance();
  if (op & AVP_STATS_DUMP) {
    reg.dump(who, at);
    if (reg.dumps_dropped() == 1) AVP_LOG(log_, Warn, "more than " << StatRegistry::kMaxDumps << " statistics dumps: later ones are counted, not kept");
  }
  if (op & AVP_STATS_RESET) reg.reset_all(at);
  if ((op & AVP_STATS_RESET) && by && timed_from_.kind == TimedFrom::StatsReset) switch_to_timed(*by, "stats-reset");
  const char* what = (op & 3) == 3 ? "dumped and reset" : (op & AVP_STATS_DUMP) ? "dumped" : (op & AVP_STATS_RESET) ? "reset" : "untouched (no AVP_STATS_* bit)";
  AVP_LOG(log_, Info, "statistics " << what << " by " << who);
}

void HartCluster::switch_to_timed(Hart& h, const std::string& cause) {
  if (!functional()) return;
  mode_ = TimingMode::Timed;
  configure_costs();  // the instruction classes' cycles from here on
  switch_ = {true, cause, to_ps(h.local_time() + sc_core::sc_time_stamp()), h.id(), h.instructions(),
             instructions_retired()};
  // The caches start cold (empty, nothing dirty) unless the run warmed them (harts.warm_caches).
  for (auto& other : harts_) other->become_timed();
  AVP_LOG(log_, Info, "timed from here (" << cause << "): " << h.name() << " at " << format_time(from_ps(switch_.time_ps))
                                          << " after " << switch_.hart_instructions << " of its instructions, "
                                          << switch_.instructions << " in all, caches "
                                          << (warm_caches.get() ? "warm" : "cold"));
}

}  // namespace avp
