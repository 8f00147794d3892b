#include "system_devices.h"

#include "harts/hart_state.h"
#include "sysdev/sysdev_regs.h"

namespace avp {

void connect_system_devices(HartCluster& harts, Clint& clint, Plic& plic, Uart16550& uart) {
  for (unsigned h = 0; h < harts.num_harts(); ++h) {  // the CLINT and PLIC serve as many harts
    auto input = [&hart = harts.hart(h)](unsigned irq) { return [&hart, irq](bool level) { hart.set_interrupt(irq, level); }; };
    clint.msip[h].bind(input(rv::kMSI));
    clint.mtip[h].bind(input(rv::kMTI));
    plic.context[2 * h].bind(input(rv::kMEI));
    plic.context[2 * h + 1].bind(input(rv::kSEI));
  }
  uart.irq.bind([&plic](bool level) { plic.set_source(AVP_UART_PLIC_SOURCE, level); });
  harts.time_source = [&clint](uint64_t ps) { return clint.mtime_at_ps(ps); };
}

}  // namespace avp
