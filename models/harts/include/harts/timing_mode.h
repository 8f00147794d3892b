// How the harts' time is counted (harts.timing) and where a functional run
// becomes timed (harts.timed_from), as gem5's fast-forward: docs/timing.md,
// "Functional mode and the switch to timed".
#pragma once
#include <cstdint>
#include <string>

namespace avp {

// Timed (the default): instruction classes' cycles, caches, memory latency.
// Functional: one clock period per instruction, memory and fetches take no time.
enum class TimingMode { Timed, Functional };

// Throws ParamError naming `what` for anything but "timed" or "functional".
TimingMode parse_timing_mode(const std::string& text, const std::string& what);

// The point of a functional run at which it becomes timed.
struct TimedFrom {
  enum Kind { Never, StatsReset, Instructions, Time };
  Kind kind = Never;
  uint64_t instructions = 0;  // Instructions: a hart's minstret since its start (> 0)
  uint64_t ps = 0;            // Time: simulated time (> 0)
};

// "" (never), "stats-reset", "insns:N" or "time:T" (T with a unit, "20 us");
// throws ParamError naming `what` and the accepted forms otherwise.
TimedFrom parse_timed_from(const std::string& text, const std::string& what);

// The switch as it happened, for the manifest and the log.
struct TimingSwitch {
  bool done = false;
  std::string cause;               // "stats-reset", "insns:N", "time:T"
  uint64_t time_ps = 0;            // the switching hart's local time
  unsigned hart = 0;               // the hart at which it happened
  uint64_t hart_instructions = 0;  // that hart's minstret then
  uint64_t instructions = 0;       // every hart's retired instructions then
};

}  // namespace avp
