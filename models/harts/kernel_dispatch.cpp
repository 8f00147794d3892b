#include "harts/kernel_dispatch.h"

#include <vector>

namespace avp {

void dispatch_instances(HartControl& harts, unsigned use, uint64_t count, const KernelInstances& k) {
  uint64_t next = 0;
  unsigned running = 0;
  std::vector<uint64_t> instance_on(harts.num_harts());  // the instance each busy hart runs
  sc_core::sc_event finished;
  while ((next < count && !k.failed()) || running) {
    if (k.round) k.round(next);
    for (unsigned h = 0; h < use && next < count && !k.failed(); ++h) {
      if (!harts.hart_idle(h)) continue;
      HartLaunch l;
      LocalTime setup;
      if (!k.prepare(next, h, l, setup)) break;
      setup.sync();
      if (!harts.hart_idle(h)) continue;  // another front end took the hart meanwhile
      if (k.started) k.started(next, h);
      instance_on[h] = next++;
      ++running;
      harts.launch(h, l, [&, h](const HartExit& e) {
        --running;
        finished.notify(sc_core::SC_ZERO_TIME);
        k.ended(instance_on[h], h, e);
      });
    }
    if ((next < count && !k.failed()) || running) sc_core::wait(finished | harts.hart_idle_event());
  }
}

}  // namespace avp
