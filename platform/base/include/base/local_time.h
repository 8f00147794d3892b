// The one local-time pattern of the platform (TLM-2.0 loosely timed, with
// temporal decoupling). Every initiator thread -- a hart, the command
// processor, the AQL processor, the Acceldev engine, a DMA channel -- keeps in
// a LocalTime how far it has run ahead of SystemC time: it adds the time its
// work takes, passes the offset as the delay annotation of its b_transport
// calls (annotate), and waits the offset away with sync() where the
// synchronisation policy says (docs/platform.md): when its quantum is used
// up, before it blocks on an event, and after an effect other units observe.
//
// Unlike tlm_quantumkeeper, the quantum is counted from the last sync (not
// aligned to multiples of the global quantum), and the offset is an integer
// number of picoseconds (SystemC's default resolution, which the platform
// keeps), so a hart's add per instruction is one integer addition.
#pragma once
#include <cstdint>
#include <utility>

#include <systemc>

namespace avp {

// Simulated time as integer picoseconds and back: the time resolution is
// SystemC's default of 1 ps (Platform checks it), so a time's value is its
// picoseconds.
inline uint64_t to_ps(const sc_core::sc_time& t) { return t.value(); }
inline sc_core::sc_time from_ps(uint64_t ps) { return sc_core::sc_time::from_value(ps); }

class LocalTime {
 public:

  void add(const sc_core::sc_time& t) { ps_ += to_ps(t); }
  void add_ps(uint64_t ps) { ps_ += ps; }
  uint64_t ps() const { return ps_; }
  // For generated code that adds to the offset and checks the quantum (harts' translated blocks).
  const uint64_t* ps_address() const { return &ps_; }
  const uint64_t* quantum_address() const { return &quantum_ps_; }
  sc_core::sc_time offset() const { return from_ps(ps_); }
  void set(const sc_core::sc_time& offset) { ps_ = to_ps(offset); }
  // The initiator's own notion of now: SystemC time plus its offset.
  sc_core::sc_time now() const { return sc_core::sc_time_stamp() + offset(); }

  void set_quantum(const sc_core::sc_time& q) { quantum_ps_ = to_ps(q); }
  bool quantum_used() const { return ps_ >= quantum_ps_; }

  // Waits the offset away. Like tlm_quantumkeeper::sync, a zero offset still
  // yields for one delta cycle, so that a unit that syncs after an effect
  // lets the others see it before it goes on.
  void sync() {
    sc_core::wait(offset());
    ps_ = 0;
  }
  // The same for code deep in a call chain that holds only the annotation.
  static void sync(sc_core::sc_time& annotation) {
    sc_core::wait(annotation);
    annotation = sc_core::SC_ZERO_TIME;
  }

  // Runs f(sc_time& delay) -- a b_transport call, or a chain of calls that
  // pass the annotation on -- with the offset as its delay, and keeps what f
  // adds (also when f throws). Inside f only the annotation is used, never
  // this LocalTime itself.
  template <class F>
  decltype(auto) annotate(F&& f) {
    struct Keep {
      LocalTime& time;
      sc_core::sc_time delay;
      ~Keep() { time.set(delay); }
    } keep{*this, offset()};
    return std::forward<F>(f)(keep.delay);
  }

 private:
  uint64_t ps_ = 0;
  uint64_t quantum_ps_ = ~0ull;
};

}  // namespace avp
