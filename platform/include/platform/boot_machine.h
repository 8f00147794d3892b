// What `boot` runs on and the generated device tree describes: harts with
// their CLINT, PLIC, UART and power-off device on a bus with DRAM. Either the
// accelerator's own management harts (accelerator_machine) or the host
// system of `boot --system host` (host_system.h).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace avp {

class DevicePort;
class HartCluster;
class Htif;
class Platform;
class PowerOffDevice;
class Router;
class Uart16550;

struct BootMachine {
  HartCluster& harts;
  const Router& bus;         // ranges clint, plic, uart, poweroff; with a PCIe host bridge pcie_ecam, pcie_mmio32, pcie_mmio64
  DevicePort& loader;        // places images in memory (debug writes)
  Uart16550& uart;
  PowerOffDevice& poweroff;
  Htif* htif;                // for programs with tohost/fromhost symbols (nullptr: none)
  uint64_t timebase;         // the CLINT's frequency
  uint64_t dram_base, dram_size;
  std::function<bool(uint64_t addr, uint64_t size)> is_memory;  // [addr, addr + size) inside one memory
  bool pcie_host_bridge = false;  // a pci-host-ecam-generic node with the endpoint behind it
};

BootMachine accelerator_machine(Platform& p);

}  // namespace avp
