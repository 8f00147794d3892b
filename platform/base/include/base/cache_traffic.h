// Harts' caches on TLM. A hart's L1 models hold tags only: data stays in
// memory and moves by DMI or by a functional transaction, while the bus and
// the memories see what the caches would send them: line fills, write-backs
// and uncached accesses. So the timing and the statistics of a hart's memory
// accesses are the same whether DMI is granted or not (docs/harts.md,
// "Memory timing"). A hart marks these transactions with this extension:
//  - Probe (transport_dbg): is the address memory a hart may cache? A Memory
//    answers memory = true; a path that leaves the device (the host window)
//    answers nothing. The answer may carry a direct path for Timing
//    transactions (base/timing_path.h).
//  - Functional (b_transport): moves the data of an access the cache model
//    times: interconnect and memory count nothing and add no latency.
//  - Timing (b_transport, TLM_IGNORE_COMMAND, length = bytes moved): a fill,
//    write-back or uncached access; counted and timed as a read (write when
//    `write`) of that many bytes; no data moves. `deferred` (harts' slices in
//    the parallel quantum schedule, docs/harts.md "Parallel harts"): only the
//    parts that do not depend on the order of the harts' accesses (counts,
//    fixed latencies); a target that leaves something out (a bandwidth queue,
//    open DRAM rows) sets `replay`.
//  - Replay (b_transport, as the Timing transaction it follows, at the same
//    time): what a deferred Timing transaction left out, in an order that
//    does not depend on host threads; the delay grows by the queueing and
//    row latencies it meets; nothing is counted twice.
#pragma once
#include <cstdint>
#include <tlm>

#include "base/timing_path.h"

namespace avp {

struct CacheTrafficExtension : tlm::tlm_extension<CacheTrafficExtension> {
  enum Kind : uint8_t { Probe, Functional, Timing, Replay };
  Kind kind = Probe;
  bool write = false;     // Timing, Replay: the traffic is a write
  bool memory = false;    // Probe answer: cacheable memory
  bool deferred = false;  // Timing: order-dependent timing left to a Replay
  bool replay = false;    // deferred Timing answer: something was left out
  // Probe answer (base/timing_path.h): the path that times Timing transactions
  // in [path_base, path_base + path_size), addresses as the answerer sees them.
  TimingPath* path = nullptr;
  uint64_t path_base = 0, path_size = 0;
  tlm::tlm_extension_base* clone() const override { return new CacheTrafficExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const CacheTrafficExtension&>(o); }
};

inline CacheTrafficExtension* cache_traffic(const tlm::tlm_generic_payload& gp) {
  return gp.get_extension<CacheTrafficExtension>();
}

inline bool is_functional(const tlm::tlm_generic_payload& gp) {
  const CacheTrafficExtension* c = cache_traffic(gp);
  return c && c->kind == CacheTrafficExtension::Functional;
}

// For a component that forwards probes but does not wrap the path its
// target answered (base/timing_path.h): Timing transactions then go by TLM.
inline void forget_timing_path(tlm::tlm_generic_payload& gp) {
  if (CacheTrafficExtension* c = cache_traffic(gp)) c->path = nullptr;
}

// A Timing transaction (its direction: timing_write).
inline bool is_timing_only(const tlm::tlm_generic_payload& gp) {
  const CacheTrafficExtension* c = cache_traffic(gp);
  return c && c->kind == CacheTrafficExtension::Timing;
}

// A Replay transaction (counted already: its targets only queue and time it).
inline bool is_replay(const tlm::tlm_generic_payload& gp) {
  const CacheTrafficExtension* c = cache_traffic(gp);
  return c && c->kind == CacheTrafficExtension::Replay;
}

// Whether an access writes: the command, or a Timing or Replay transaction's direction.
inline bool writes(const tlm::tlm_generic_payload& gp) {
  const CacheTrafficExtension* c = cache_traffic(gp);
  return (c && (c->kind == CacheTrafficExtension::Timing || c->kind == CacheTrafficExtension::Replay)) ? c->write
                                                                                                        : gp.is_write();
}

}  // namespace avp
