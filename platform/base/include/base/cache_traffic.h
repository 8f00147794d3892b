// Harts' caches on TLM. A hart's L1 models hold tags only: data stays in
// memory and moves by DMI or by a functional transaction, while the bus and
// the memories see what the caches would send them: line fills, write-backs
// and uncached accesses. So the timing and the statistics of a hart's memory
// accesses are the same whether DMI is granted or not (docs/harts.md,
// "Memory timing"). A hart marks these transactions with this extension:
//  - Probe (transport_dbg): is the address memory a hart may cache? A Memory
//    answers memory = true; a path that leaves the device (the host window)
//    answers nothing.
//  - Functional (b_transport): moves the data of an access the cache model
//    times: interconnect and memory count nothing and add no latency.
//  - Timing (b_transport, TLM_IGNORE_COMMAND, length = bytes moved): a fill,
//    write-back or uncached access; counted and timed as a read (write when
//    `write`) of that many bytes; no data moves.
#pragma once
#include <cstdint>
#include <tlm>

namespace avp {

struct CacheTrafficExtension : tlm::tlm_extension<CacheTrafficExtension> {
  enum Kind : uint8_t { Probe, Functional, Timing };
  Kind kind = Probe;
  bool write = false;   // Timing: the traffic is a write
  bool memory = false;  // Probe answer: cacheable memory
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

// A Timing transaction (its direction: timing_write).
inline bool is_timing_only(const tlm::tlm_generic_payload& gp) {
  const CacheTrafficExtension* c = cache_traffic(gp);
  return c && c->kind == CacheTrafficExtension::Timing;
}

// Whether an access writes: the command, or a Timing transaction's direction.
inline bool writes(const tlm::tlm_generic_payload& gp) {
  const CacheTrafficExtension* c = cache_traffic(gp);
  return (c && c->kind == CacheTrafficExtension::Timing) ? c->write : gp.is_write();
}

}  // namespace avp
