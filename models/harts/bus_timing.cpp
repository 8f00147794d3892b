// A hart's memory timing (base/cache_traffic.h): the caches decide when the
// bus is used, the bus and the memories how long it takes. Whether the data
// moved by DMI or by a functional transaction does not enter: line fills,
// write-backs and uncached accesses are Timing transactions in both cases, so
// simulated times and the bus and memory statistics do not depend on DMI.
#include "harts/bus_timing.h"

#include "base/cache_traffic.h"
#include "base/fetch.h"
#include "base/local_time.h"
#include "base/payload.h"

namespace avp {

void BusTiming::send(CacheTrafficExtension& traffic, uint64_t pa, unsigned len, bool fetch, sc_core::sc_time& delay) {
  // No data moves: the pointer only satisfies initiators that expect one.
  static unsigned char scratch[256];
  FetchExtension fetch_ext;
  fetch_ext.fetch = true;
  prepare_payload(gp_, tlm::TLM_IGNORE_COMMAND, pa, scratch, len);
  gp_.set_extension(&traffic);
  if (fetch) gp_.set_extension(&fetch_ext);
  bus_->b_transport(gp_, delay);
  gp_.clear_extension(&traffic);
  if (fetch) gp_.clear_extension(&fetch_ext);
}

// Before traffic, which it is inlined into: the probe for a range not
// known yet is out of line (learn_route: its extension needs a stack frame,
// and a closure here would be built on every call).
[[gnu::always_inline]] inline TimingPath* BusTiming::timing_path(uint64_t pa, unsigned len) {
  bool known = false;
  TimingPath* path = timing_routes_.find(pa, len, known);
  return known ? path : learn_route(pa, len);
}

TimingPath* BusTiming::learn_route(uint64_t pa, unsigned len) {
  const CacheTrafficExtension probe = probe_at(pa, len, false);
  timing_routes_.learn(pa, probe.path, probe.path_base, probe.path_size);
  bool known = false;
  return timing_routes_.find(pa, len, known);
}

[[gnu::always_inline]] inline void BusTiming::transact(TimingPath* path, CacheTrafficExtension& traffic, uint64_t pa,
                                                      unsigned len, bool fetch, uint64_t& delay_ps) {
  if (path) return path->time(pa, len, traffic, delay_ps);
  sc_core::sc_time delay = from_ps(delay_ps);
  send(traffic, pa, len, fetch, delay);
  delay_ps = to_ps(delay);
}

void BusTiming::replay(uint64_t pa, bool write, unsigned len, bool fetch, uint64_t& delay_ps) {
  CacheTrafficExtension traffic;
  traffic.kind = CacheTrafficExtension::Replay;
  traffic.write = write;
  transact(timing_path(pa, len), traffic, pa, len, fetch, delay_ps);
}

uint64_t BusTiming::traffic(uint64_t pa, bool write, unsigned len, bool fetch, bool waits) {
  const HartTraffic t{pa, len, write, fetch, waits};
  return traffic(&t, 1);
}

uint64_t BusTiming::traffic(const HartTraffic* t, unsigned n) {
  TimingPath* path[2];
  bool direct = true;
  for (unsigned i = 0; i < n; ++i) direct &= (path[i] = timing_path(t[i].pa, t[i].len)) != nullptr;
  // The transactions' time counts the instructions before them. A TLM
  // transaction's target may wait, and others then look: those are retired.
  if (!direct) time_.settle();
  const uint64_t now = time_.settled_time_ps();  // each transaction's time; the caller adds its latency
  uint64_t delay = now;
  bool replay[2];
  {
    const auto lk = slice_.lock(shared_);  // the bus's and the memory's statistics are shared
    CacheTrafficExtension traffic;  // one for the transactions: each sets what it uses
    traffic.kind = CacheTrafficExtension::Timing;
    // In a batch of several slices the order of the harts' transactions
    // depends on the host threads: what depends on it is replayed after the
    // batch (Hart::replay_traffic). A slice alone in its batch times in place.
    traffic.deferred = slice_.defers_traffic();
    for (unsigned i = 0; i < n; ++i) {
      traffic.write = t[i].write;
      traffic.replay = false;
      delay = now;
      transact(path[i], traffic, t[i].pa, t[i].len, t[i].fetch, delay);
      replay[i] = traffic.replay;
    }
  }
  for (unsigned i = 0; i < n; ++i)
    if (replay[i]) slice_.defer(t[i], now);
  return delay > now ? delay - now : 0;
}

bool BusTiming::cacheable(uint64_t pa, unsigned len, bool fetch) { return probe_at(pa, len, fetch).memory; }

CacheTrafficExtension BusTiming::probe_at(uint64_t pa, unsigned len, bool fetch) {
  unsigned char scratch[8];
  CacheTrafficExtension probe;
  probe.kind = CacheTrafficExtension::Probe;
  FetchExtension fetch_ext;
  fetch_ext.fetch = fetch;
  prepare_payload(gp_, tlm::TLM_READ_COMMAND, pa, scratch, len < sizeof scratch ? len : sizeof scratch);
  gp_.set_extension(&probe);
  gp_.set_extension(&fetch_ext);
  {
    const auto lk = slice_.lock(shared_);
    bus_->transport_dbg(gp_);
  }
  gp_.clear_extension(&probe);
  gp_.clear_extension(&fetch_ext);
  return probe;
}

}  // namespace avp
