// Device registers a hart may read without the read (docs/harts.md,
// "Polling loops"). A hart spinning on a device register (a UART's line
// status, the CLINT's mtime) skips the iterations of its loop that stay
// inside its quantum, where no other process runs; it may do so only for
// reads the device declares stable, asked by a debug transport carrying this
// extension:
//  - Probe (transport_dbg, a read of `len` bytes at the address): the target
//    answers, besides the data a read would return now,
//      Constant: the read has no effect but the statistics Repeat counts (no
//        state, no interrupt line changes) and returns this data until
//        another process runs or the initiator writes the device;
//      Clock: as Constant, but the read returns clock->value_at(t) for an
//        access that reaches the target at simulated time t, `delay` after the
//        initiator issued it (the latencies on the way add to `delay`);
//      Unstable (left as it is): anything else, and whenever unsure.
//    An interconnect that forwards the probe adds what it adds to the access
//    (the router: its port's latency; a bandwidth-limited port, whose timing
//    depends on earlier traffic, answers Unstable); a component that forwards
//    probes without knowing what it adds must forget the answer
//    (forget_stable_read), as a target that does not know the extension
//    leaves it Unstable.
//  - Repeat (transport_dbg, after a probe answered Constant or Clock): count
//    `times` more reads like the probed one, as their b_transport calls would
//    have counted them (statistics only; no data, no time, no other effect).
#pragma once
#include <cstdint>

#include <systemc>
#include <tlm>

namespace avp {

// A register whose value is a function of the access time.
class ReadClock {
 public:
  virtual uint64_t value_at(const sc_core::sc_time& t) const = 0;

 protected:
  ~ReadClock() = default;
};

struct StableReadExtension : tlm::tlm_extension<StableReadExtension> {
  enum Kind : uint8_t { Probe, Repeat };
  enum Answer : uint8_t { Unstable, Constant, Clock };
  Kind kind = Probe;
  Answer answer = Unstable;           // Probe answer
  const ReadClock* clock = nullptr;   // Clock
  sc_core::sc_time delay;             // Clock: from the issue of the access to its sampling
  uint64_t times = 0;                 // Repeat
  tlm::tlm_extension_base* clone() const override { return new StableReadExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const StableReadExtension&>(o); }
};

inline StableReadExtension* stable_read(const tlm::tlm_generic_payload& gp) {
  return gp.get_extension<StableReadExtension>();
}

// For a component that forwards probes without adding what it adds.
inline void forget_stable_read(tlm::tlm_generic_payload& gp) {
  if (StableReadExtension* s = stable_read(gp)) s->answer = StableReadExtension::Unstable;
}

}  // namespace avp
