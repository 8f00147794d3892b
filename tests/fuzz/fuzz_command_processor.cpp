// libFuzzer target: arbitrary bytes as a command buffer for the command
// processor, with its memory windows and DMA controller, in a small platform
// whose harts finish every kernel instance at once. Every buffer must end
// (FINISH or a documented error) and leave the queue idle.
#include <cstdlib>
#include <cstring>

#include "base/params.h"
#include "cmp/command_processor.h"
#include "cmp/window_unit.h"
#include "dma/dma_controller.h"
#include "instant_harts.h"
#include "interconnect/router.h"
#include "memory/memory.h"

namespace avp {

namespace {

struct Rig {
  Router bus{"bus"};
  Memory dram{"dram", 16 << 20, sc_core::sc_time(10, sc_core::SC_NS)};
  Memory tcdm{"tcdm", 4 << 20, sc_core::sc_time(1, sc_core::SC_NS)};
  InstantHarts harts;
  WindowUnit windows{"windows", 4, 1, [this](uint64_t a, uint64_t n) {
                       unsigned port;
                       uint64_t t;
                       return bus.decode(a, port, t) && (port == 0 || port == 1) && bus.decode(a + n - 1, port, t);
                     }};
  CommandProcessor cmp{"cmp", harts, windows};
  DmaController dma{"dma"};
  Rig() {
    bus.map(bus.add_port("dram"), "dram", 0x4000'0000, dram.size());
    bus.map(bus.add_port("tcdm"), "tcdm", 0x1800'0000, tcdm.size());
    bus.map(bus.add_port("dma"), "dma", 0x2000'2000, 0x100);
    bus.map(bus.add_port("cmp"), "cmp", 0x2000'0000, 0x1000);
    const unsigned w = bus.add_port("windows");
    bus.map(w, "windows_low", 0x1'0000, 0x0FFF'0000, true);
    windows.set_window_ranges({{0x1'0000, 0x0FFF'0000}});
    cmp.set_tcdm(0x1800'0000, tcdm.size());
    bus.init.bind(dram.socket);
    bus.init.bind(tcdm.socket);
    bus.init.bind(dma.regs);
    bus.init.bind(cmp.mirror.socket);
    bus.init.bind(windows.targ);
    windows.init.bind(bus.targ);
    cmp.bus.bind(bus.targ);
    dma.mem.bind(bus.targ);
  }
};

Rig* rig;

}  // namespace
}  // namespace avp

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  avp::ParamRegistry::instance().add_preset("cmp.kernel_watchdog", "2 us", "fuzzer");
  avp::rig = new avp::Rig();
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace avp;
  if (size < 8 || size > 4096) return 0;
  rig->dram.write(0, data, size);
  if (!rig->cmp.submit(0x4000'0000, size & ~size_t{7})) __builtin_trap();  // the queue must have drained
  for (int i = 0; i < 100000 && !rig->cmp.idle(); ++i) sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  if (!rig->cmp.idle()) __builtin_trap();  // a buffer that never ends
  const CmpStatusWord s = rig->cmp.status();
  if (s.error_code > AVP_CMP_ERR_TOO_LARGE) __builtin_trap();  // the highest documented code
  return 0;
}

// libsystemc.so refers to sc_main; libFuzzer's main() runs instead.
int sc_main(int, char**) { return 0; }
