#include "real_time_pace.h"

#include <thread>

namespace avp {

std::chrono::nanoseconds RealTimePace::ahead() const {
  const auto sim = std::chrono::nanoseconds(
      static_cast<int64_t>((sc_core::sc_time_stamp() - anchor_sim_).to_seconds() * 1e9));
  return sim - std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - anchor_wall_);
}

sc_core::sc_time RealTimePace::limit(const sc_core::sc_time& chunk) const {
  if (!on_) return chunk;
  // After wait() simulated time is at most as far as host time.
  const std::chrono::nanoseconds room = std::chrono::nanoseconds(kLead) - std::max(ahead(), std::chrono::nanoseconds(0));
  const sc_core::sc_time most(static_cast<double>(std::max<int64_t>(room.count(), 1)), sc_core::SC_NS);
  return std::min(chunk, most);
}

void RealTimePace::wait() {
  if (!on_) return;
  const std::chrono::nanoseconds a = ahead();
  if (a > std::chrono::nanoseconds(0)) {
    std::this_thread::sleep_for(a);
    slept_ += a;
  } else {
    // Behind host time (the guest computes more than real time allows): the
    // pace counts from here, without running faster to catch up.
    anchor_wall_ = Clock::now();
    anchor_sim_ = sc_core::sc_time_stamp();
  }
}

}  // namespace avp
