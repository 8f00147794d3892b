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
// keeps), so a hart's add per instruction is one integer addition. When
// nothing else at all is pending in the simulation, a quantum's end may be
// passed without a wait (run_on, run_ahead.h); the next quantum is then
// counted from there, as if the initiator had synced.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <systemc>

#include "base/run_ahead.h"

namespace avp {

// Simulated time as integer picoseconds and back: the time resolution is
// SystemC's default of 1 ps (Platform checks it), so a time's value is its
// picoseconds.
inline uint64_t to_ps(const sc_core::sc_time& t) { return t.value(); }
inline sc_core::sc_time from_ps(uint64_t ps) { return sc_core::sc_time::from_value(ps); }
// The nanoseconds of `ps` as from_ps(ps).to_seconds() * 1e9 gives them, bit
// for bit (SystemC multiplies the value by the resolution in fs, then by
// 1e-15), without its two library calls: statistics sample it per access.
inline double ps_to_ns(uint64_t ps) { return sc_dt::uint64_to_double(ps) * 1000.0 * 1e-15 * 1e9; }
// SystemC time in ps without a library call: sc_time_stamp() returns a
// reference to the simulation context's current time, which stays put.
inline uint64_t systemc_ps() {
  static const sc_core::sc_time& now = sc_core::sc_time_stamp();
  return now.value();
}

// The earliest simulated time (ps) at which an access by any initiator may
// still arrive: SystemC time; while an initiator runs on alone past a
// quantum's end (RunAhead::allows), the time it ran on from. Models that
// keep accesses by simulated time drop what no later access can see by it.
inline uint64_t earliest_arrival_ps() {
  const uint64_t now = systemc_ps();
  const RunAhead::Alone& a = RunAhead::alone();
  return a.systemc_ps == now && a.delta == sc_core::sc_delta_count() && a.process == sc_core::sc_get_current_process_b()
             ? a.from_ps
             : now;
}

class LocalTime {
 public:

  void add(const sc_core::sc_time& t) { ps_ += to_ps(t); }
  void add_ps(uint64_t ps) { ps_ += ps; }
  uint64_t ps() const { return ps_; }
  // For generated code that adds to the offset and checks the quantum
  // (harts' translated blocks): where the offset and the quantum's end are.
  static constexpr size_t ps_offset() { return offsetof(LocalTime, ps_); }
  static constexpr size_t quantum_end_offset() { return offsetof(LocalTime, quantum_end_ps_); }
  sc_core::sc_time offset() const { return from_ps(ps_); }
  void set(const sc_core::sc_time& offset) {
    ps_ = to_ps(offset);
    if (run_from_ps_) rebase();  // SystemC time may have moved (a wait in a b_transport)
  }
  // The initiator's own notion of now: SystemC time plus its offset.
  sc_core::sc_time now() const { return sc_core::sc_time_stamp() + offset(); }
  uint64_t now_ps() const { return systemc_ps() + ps_; }  // now() in ps, without library calls

  void set_quantum(const sc_core::sc_time& q) {
    quantum_ps_ = quantum_end_ps_ = to_ps(q);
    run_from_ps_ = 0;
  }
  bool quantum_used() const { return ps_ >= quantum_end_ps_; }
  uint64_t quantum_end_ps() const { return quantum_end_ps_; }  // the offset at which the quantum is used

  // Waits the offset away. Like tlm_quantumkeeper::sync, a zero offset still
  // yields for one delta cycle, so that a unit that syncs after an effect
  // lets the others see it before it goes on.
  void sync() {
    sc_core::wait(offset());
    ps_ = 0;
    quantum_end_ps_ = quantum_ps_;
    run_from_ps_ = 0;
  }
  // At a quantum's end: goes on without a wait where RunAhead allows it
  // (true), the next quantum counted from the local time as after a sync.
  bool run_on() {
    if (!RunAhead::allows(ps_)) return false;
    ran_on();
    RunAhead::running_alone_from(run_from_ps_);
    return true;
  }
  // The same where RunAhead::run_on_limit gave `limit_ps` (SystemC's time
  // and delta cycle unchanged since). Not alone: the waits it passes over
  // resume earlier, so earliest_arrival_ps stays SystemC time.
  bool run_on_before(uint64_t limit_ps) { return now_ps() < limit_ps && ran_on(); }

  // A hart whose skip passed whole quanta it would have run on past
  // (models/harts/hart_wait_loop.cpp): it is in the quantum that started
  // `ps` after this one did, run on from there.
  void pass_quanta(uint64_t ps) {
    run_from_ps_ = to_ps(sc_core::sc_time_stamp()) + quantum_end_ps_ - quantum_ps_ + ps;
    quantum_end_ps_ += ps;
  }
  // The same in the parallel quantum schedule, whose harts meet on a grid
  // of quantum boundaries (models/harts/hart_slices.h): the quantum ends
  // `ps` (whole quanta) later.
  void pass_grid_quanta(uint64_t ps) { quantum_end_ps_ += ps; }
  // Before anything other processes may see (a device access, a system
  // instruction...): waits to the time of the last run_on, where the wait
  // it skipped would have left SystemC time, so the access meets SystemC
  // time and the offset it would have met without run-ahead.
  void catch_up() {
    if (!run_from_ps_) return;
    const uint64_t now = to_ps(sc_core::sc_time_stamp());
    sc_core::wait(from_ps(run_from_ps_ - now));
    ps_ -= run_from_ps_ - now;
    rebase();  // SystemC time is at the run-on point now: the quantum counts from here
  }
  // The parallel quantum schedule (models/harts/include/harts/hart_slices.h), which may run
  // a quantum while SystemC time is still `behind` ps before its start: the
  // offset is `into` ps past that start, and the quantum ends one quantum
  // after it.
  void start_quantum(uint64_t behind, uint64_t into) {
    ps_ = behind + into;
    quantum_end_ps_ = behind + quantum_ps_;
  }
  // ... and SystemC time has since moved on by `ps` (another process waited):
  // the same local time, a smaller offset.
  void systemc_moved(uint64_t ps) {
    ps_ -= ps;
    quantum_end_ps_ -= ps;
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
  // Runs on from the local time: the next quantum counts from there, as after a sync.
  bool ran_on() {
    run_from_ps_ = now_ps();
    quantum_end_ps_ = ps_ + quantum_ps_;
    return true;
  }
  // After a wait that moved SystemC time (to or past the local time the
  // initiator ran on from, at most), the quantum counts from the later of the two.
  void rebase() {
    const uint64_t now = to_ps(sc_core::sc_time_stamp());
    if (now >= run_from_ps_) {
      quantum_end_ps_ = quantum_ps_;
      run_from_ps_ = 0;
    } else {
      quantum_end_ps_ = run_from_ps_ - now + quantum_ps_;
    }
  }

  uint64_t ps_ = 0;
  uint64_t quantum_ps_ = ~0ull;
  uint64_t quantum_end_ps_ = ~0ull;  // the offset at which the quantum is used
  uint64_t run_from_ps_ = 0;         // SystemC time (ps) of the last run_on; 0: synced since
};
static_assert(std::is_standard_layout_v<LocalTime>, "generated code finds its fields by offsetof");

}  // namespace avp
