// A hart's memory timing on the bus (base/cache_traffic.h): the Probe that
// tells whether an address is memory its caches hold, and the Timing
// transactions (line fills, write-backs, uncached accesses) and Replay
// transactions it sends there. A Timing or Replay transaction goes by the
// direct path the probe of its range answered (base/timing_path.h) when
// there is one, else by TLM; each range is probed once (TimingRoutes). The known-route
// case is inline and makes no virtual call; only a transaction by TLM
// reaches TrafficTime::settle.
//
// The transactions are timed at the hart's settled local time (TrafficTime).
// In a slice of the parallel schedule (slice_state.h) the statistics they
// update are shared with harts on other host threads (the cluster's lock),
// and what depends on their order is deferred to the slice's replay.
#pragma once
#include <cstdint>
#include <mutex>

#include <systemc>
#include <tlm>

#include "base/timing_path.h"
#include "harts/hart_traffic.h"
#include "harts/slice_state.h"

namespace avp {

struct CacheTrafficExtension;

// The hart's time for its transactions.
class TrafficTime {
 public:
  // Counts the instructions before the transaction (a TLM target may wait, and others then look).
  virtual void settle() = 0;
  // The local time (ps) settle() would leave, without counting anything.
  virtual uint64_t settled_time_ps() const = 0;

 protected:
  ~TrafficTime() = default;
};

class BusTiming {
 public:
  // bus: the hart's socket to the interconnect; shared: the cluster's lock on what harts share.
  BusTiming(tlm::tlm_initiator_socket<>& bus, TrafficTime& time, SliceState& slice, std::mutex& shared)
      : bus_(bus), time_(time), slice_(slice), shared_(shared) {}

  // The payload of the Probe, Timing and Replay transactions: the hart sets its unit and context there.
  tlm::tlm_generic_payload& payload() { return gp_; }
  // A Timing transaction of len bytes at pa; its latency (ps).
  uint64_t traffic(uint64_t pa, bool write, unsigned len, bool fetch, bool waits = true);
  // n (1 or 2) Timing transactions issued together, in order; the last one's latency.
  uint64_t traffic(const HartTraffic* t, unsigned n);
  // The Replay transaction of a deferred Timing one (len bytes at pa, a
  // write if `write`) at the local time delay_ps, which grows by what it meets.
  void replay(uint64_t pa, bool write, unsigned len, bool fetch, uint64_t& delay_ps);
  bool cacheable(uint64_t pa, unsigned len, bool fetch);  // Probe: memory the caches hold

 private:
  // A Timing or Replay transaction (traffic) of len bytes at pa at the local
  // time delay_ps, which grows by what it meets: by `path`, else by TLM (send).
  void transact(TimingPath* path, CacheTrafficExtension& traffic, uint64_t pa, unsigned len, bool fetch,
                uint64_t& delay_ps);
  void send(CacheTrafficExtension& traffic, uint64_t pa, unsigned len, bool fetch, sc_core::sc_time& delay);
  CacheTrafficExtension probe_at(uint64_t pa, unsigned len, bool fetch);  // a Probe's answer
  TimingPath* timing_path(uint64_t pa, unsigned len);  // where Timing transactions go directly; nullptr: by TLM
  TimingPath* learn_route(uint64_t pa, unsigned len);  // timing_path's probe of a range not known yet

  tlm::tlm_initiator_socket<>& bus_;
  TrafficTime& time_;
  SliceState& slice_;
  std::mutex& shared_;
  tlm::tlm_generic_payload gp_;  // Probe, Timing and Replay transactions
  TimingRoutes timing_routes_;   // what the probes answered
};

}  // namespace avp
