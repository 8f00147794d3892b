#include "base/run_ahead.h"

#include <cstdint>

namespace avp {
namespace {

// Where the simulation loop's sc_start stops (ps); 0: no loop has said so.
uint64_t stop_ps = 0;

}  // namespace

void RunAhead::bound(const sc_core::sc_time& chunk) { stop_ps = (sc_core::sc_time_stamp() + chunk).value(); }

bool RunAhead::allows(const sc_core::sc_time& offset) {
  return (sc_core::sc_time_stamp() + offset).value() < stop_ps && !sc_core::sc_pending_activity();
}

}  // namespace avp
