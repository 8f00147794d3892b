// Instruction-class events of the harts. Every retired instruction counts one
// event (Insn::event, set at decode); the counter events 3..17
// (harts/hpm_events.h) are the RefSi driver API's counter ids
// (REFSI_PERF_CNTR_*), derived from those event counts (docs/harts.md,
// "Performance counters").
#pragma once
#include <cstdint>

#include "harts/rv_insn.h"

namespace avp::rv {

enum PerfEvent : uint8_t {
  kEvOther,   // system instructions (CSR, fences, ECALL, ...)
  kEvInt,     // integer computation, multiply and divide
  kEvFloat,   // floating-point computation (not FP loads and stores)
  kEvBranch,  // conditional branches and jumps
  kEvLoad1, kEvLoad2, kEvLoad4, kEvLoad8,      // loads (and LR) by access size
  kEvStore1, kEvStore2, kEvStore4, kEvStore8,  // stores (and SC, AMOs) by access size
  kNumPerfEvents
};

PerfEvent perf_event(Op op);

// The counter events derived from the instruction classes: 3..17.
constexpr unsigned kFirstEventCounter = 3, kLastEventCounter = 17;
// Event `id` (kFirstEventCounter..kLastEventCounter) from the instruction-class
// counts and minstret (events[kEvInt] is not counted: HartState::events).
uint64_t event_counter(const uint64_t* events, uint64_t minstret, unsigned id);

}  // namespace avp::rv
