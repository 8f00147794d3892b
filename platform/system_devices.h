// The firmware-facing system devices wired to a hart cluster, the same way
// on the accelerator and on the host system (docs/platform.md, "System
// devices"): the CLINT's timer and software interrupts and the PLIC's
// external ones reach the harts, the UART is PLIC source
// AVP_UART_PLIC_SOURCE, and the CLINT's mtime is what the harts' time CSR reads.
#pragma once
#include "harts/hart_cluster.h"
#include "sysdev/clint.h"
#include "sysdev/plic.h"
#include "sysdev/uart16550.h"

namespace avp {

void connect_system_devices(HartCluster& harts, Clint& clint, Plic& plic, Uart16550& uart);

}  // namespace avp
