#include "instant_harts.h"

namespace avp {

std::string HartExit::describe() const { return "fake hart exit"; }

void InstantHarts::launch(unsigned h, const HartLaunch& l, std::function<void(const HartExit&)> done) {
  busy_[h] = true;
  sc_core::sc_spawn([this, h, l, done] {
    sc_core::wait(10, sc_core::SC_NS);
    busy_[h] = false;
    HartExit e;
    e.kind = (l.pc & 1) ? HartExitKind::Trap : HartExitKind::Returned;
    e.pc = l.pc;
    idle_.notify(sc_core::SC_ZERO_TIME);
    done(e);
  });
}

}  // namespace avp
