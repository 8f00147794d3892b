// Real-time pacing of the simulation loop (platform.pace, docs/platform.md
// "Real-time pacing"): simulated time is kept from running ahead of host
// time, so that a person at the console sees guest timeouts (U-Boot's
// autoboot countdown, a login prompt's) take their time, and a guest that
// only waits (a prompt polling the UART, a WFI) leaves the host idle. A
// simulation slower than real time is never held back, and catches up on
// nothing: its pace counts from where it last fell behind. Only wall-clock
// behaviour changes; the simulated results are those of a run without it
// (input from a live terminal arrives in host time either way).
#pragma once
#include <chrono>

#include <systemc>

namespace avp {

class RealTimePace {
 public:
  // How far simulated time may run ahead of host time within a chunk: also
  // the longest the console waits for typed input to be looked at.
  static constexpr std::chrono::milliseconds kLead{10};

  explicit RealTimePace(bool on) : on_(on) {}
  bool on() const { return on_; }
  // The next chunk of the simulation loop, cut so that simulated time stays
  // at most kLead ahead of host time.
  sc_core::sc_time limit(const sc_core::sc_time& chunk) const;
  // After a chunk: sleeps while simulated time is ahead of host time.
  void wait();
  double slept_seconds() const { return std::chrono::duration<double>(slept_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  // Simulated time ahead of host time since the anchor (negative: behind).
  std::chrono::nanoseconds ahead() const;

  bool on_;
  Clock::time_point anchor_wall_ = Clock::now();
  sc_core::sc_time anchor_sim_ = sc_core::sc_time_stamp();
  std::chrono::nanoseconds slept_{0};
};

}  // namespace avp
