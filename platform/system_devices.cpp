#include "system_devices.h"

#include "sysdev/sysdev_regs.h"

namespace avp {

void connect_system_devices(HartCluster& harts, Clint& clint, Plic& plic, Uart16550& uart) {
  auto hart_irq = [&harts](unsigned hart, unsigned irq, bool level) { harts.hart(hart).set_interrupt(irq, level); };
  clint.irq = hart_irq;
  plic.irq = hart_irq;
  uart.irq = [&plic](bool level) { plic.set_source(AVP_UART_PLIC_SOURCE, level); };
  harts.time_source = [&clint](const sc_core::sc_time& t) { return clint.mtime_at(t); };
}

}  // namespace avp
