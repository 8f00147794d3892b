// Region-of-interest statistics of the hart cluster: a program dumps and/or
// resets every statistic of the platform (ECALL a7 = 3 or the perf block's
// STATS_CONTROL register), like gem5's m5_dump_stats / m5_reset_stats.
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

void HartCluster::stats_control(const std::string& who, const sc_core::sc_time& at, uint64_t op) {
  // Running harts' counts so far go in first (exact to the quantum for harts other than the caller).
  update_running_stats(at);
  StatRegistry& reg = StatRegistry::instance();
  if (op & AVP_STATS_DUMP) {
    reg.dump(who, at);
    if (reg.dumps_dropped() == 1) AVP_LOG(log_, Warn, "more than " << StatRegistry::kMaxDumps << " statistics dumps: later ones are counted, not kept");
  }
  if (op & AVP_STATS_RESET) reg.reset_all(at);
  const char* what = (op & 3) == 3 ? "dumped and reset" : (op & AVP_STATS_DUMP) ? "dumped" : (op & AVP_STATS_RESET) ? "reset" : "untouched (no AVP_STATS_* bit)";
  AVP_LOG(log_, Info, "statistics " << what << " by " << who);
}

}  // namespace avp
