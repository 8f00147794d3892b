// The host computer of `accel-vp boot --system host` (docs/full-system.md):
// its own harts (the same hart model, their own cluster and bus), CLINT,
// PLIC, UART and power-off device, the root complex's host memory as its
// DRAM, and the ECAM PCIe host bridge through which it reaches the
// accelerator's endpoint (INTx into its PLIC). The accelerator is unchanged.
#pragma once
#include <systemc>

#include "boot_machine.h"
#include "harts/hart_cluster.h"
#include "interconnect/router.h"
#include "pcie/ecam_host_bridge.h"
#include "sysdev/host_system_map.h"
#include "platform.h"
#include "sysdev/clint.h"
#include "sysdev/plic.h"
#include "sysdev/poweroff_device.h"
#include "sysdev/uart16550.h"

namespace avp {

class HostSystem : public sc_core::sc_module {
 public:
  // `harts` host harts (one core); `device` is the accelerator platform.
  HostSystem(sc_core::sc_module_name name, Platform& device, unsigned harts);
  ~HostSystem() override;

  Router bus;
  DevicePort loader;
  HartCluster harts;
  Clint clint;
  Plic plic;
  Uart16550 uart;
  PowerOffDevice poweroff;
  PcieEcamBridge pcie;

  BootMachine machine();
  bool is_memory(uint64_t addr, uint64_t size) const;
  uint64_t dram_base() const { return AVP_HOST_DRAM_BASE; }  // CPU address of host memory's byte 0 (PCI bus address 0)

 private:
  Platform& device_;
  Memory& dram_;  // the root complex's host memory
};

}  // namespace avp
