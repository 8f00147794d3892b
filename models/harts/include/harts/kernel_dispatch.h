// The one kernel dispatch loop of the platform: the command processor's
// RUN_INSTANCES / RUN_KERNEL_SLICE and the AQL processor's work-groups run
// their instances through it, with one time discipline. Instances go to the
// harts [0, use) in order as they become free: an instance's set-up (writing
// its initial state, copying its data) takes simulated time before its hart
// starts, and a hart another front end took meanwhile is passed over.
#pragma once
#include <cstdint>
#include <functional>

#include "base/local_time.h"
#include "harts/hart_control.h"

namespace avp {

// What one dispatch launches, and what the front end does as instances
// start and end (`round` and `started` may be left empty).
struct KernelInstances {
  // A failure was recorded: no further instance is launched (the running
  // ones are waited for).
  std::function<bool()> failed;
  // At the top of every round over the free harts, with the count launched so far.
  std::function<void(uint64_t launched)> round;
  // Fills the launch of instance `i` on hart `h` and adds the time setting it
  // up takes to `setup`. False when it recorded a failure instead.
  std::function<bool(uint64_t i, unsigned h, HartLaunch& l, LocalTime& setup)> prepare;
  // Instance `i` starts on hart `h` now (its set-up done).
  std::function<void(uint64_t i, unsigned h)> started;
  // Instance `i` ended on hart `h`, at the simulated time it ended.
  std::function<void(uint64_t i, unsigned h, const HartExit& e)> ended;
};

// Runs instances 0..count-1 on harts [0, use) and returns once every
// launched instance has ended (launching stops at the first failure).
void dispatch_instances(HartControl& harts, unsigned use, uint64_t count, const KernelInstances& k);

}  // namespace avp
