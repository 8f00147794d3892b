// A trap raised while an instruction executes (its mcause and mtval):
// thrown by the hart's execution paths, taken by its run loop (Hart::take_trap).
#pragma once
#include <cstdint>

namespace avp {

struct TrapException {
  uint64_t cause;
  uint64_t tval;
};

}  // namespace avp
