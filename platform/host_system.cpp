#include "platform/host_system.h"

#include "harts/perf_regs.h"
#include "sysdev/host_system_map.h"
#include "sysdev/sysdev_regs.h"
#include "system_devices.h"

namespace avp {

HostSystem::HostSystem(sc_core::sc_module_name name, Platform& device, unsigned num_harts)
    : sc_module(name),
      bus("bus"),
      loader("loader"),
      harts("harts", 1, num_harts),
      clint("clint", num_harts),
      plic("plic", num_harts),
      uart("uart"),
      poweroff("poweroff"),
      pcie("pcie", device.host, device.endpoint->config_space()),
      device_(device),
      dram_(device.host.host_mem) {
  bus.map(bus.add_port("dram"), "dram", dram_base(), dram_.size());
  bus.map(bus.add_port("clint"), "clint", AVP_HOST_CLINT_BASE, AVP_CLINT_SIZE);
  bus.map(bus.add_port("plic"), "plic", AVP_HOST_PLIC_BASE, AVP_PLIC_SIZE);
  bus.map(bus.add_port("uart"), "uart", AVP_HOST_UART_BASE, AVP_UART_SIZE);
  bus.map(bus.add_port("poweroff"), "poweroff", AVP_HOST_POWEROFF_BASE, AVP_POWEROFF_SIZE);
  bus.map(bus.add_port("perf"), "perf", AVP_HOST_PERF_BASE, AVP_PERF_SIZE);
  bus.map(bus.add_port("pcie_ecam"), "pcie_ecam", AVP_HOST_ECAM_BASE, AVP_HOST_ECAM_SIZE);
  const unsigned p_mmio = bus.add_port("pcie_mmio");
  bus.map(p_mmio, "pcie_mmio32", AVP_HOST_MMIO32_BASE, AVP_HOST_MMIO32_SIZE, /*absolute=*/true);
  bus.map(p_mmio, "pcie_mmio64", AVP_HOST_MMIO64_BASE, AVP_HOST_MMIO64_SIZE, /*absolute=*/true);
  bus.init.bind(dram_.socket);  // in port order
  bus.init.bind(clint.socket);
  bus.init.bind(plic.socket);
  bus.init.bind(uart.socket);
  bus.init.bind(poweroff.socket);
  bus.init.bind(harts.perf.socket);
  bus.init.bind(pcie.ecam);
  bus.init.bind(pcie.mmio);

  connect_system_devices(harts, clint, plic, uart);
  pcie.bar0_register_name = [this](uint64_t offset) { return device_.endpoint->register_name(offset); };
  pcie.intx_out.bind([this](bool level) { plic.set_source(AVP_HOST_PCI_INTA_SOURCE, level); });
  device.host.intx_line.bind([this](bool level) { pcie.intx(level); });
  // The endpoint's writes into host memory drop the host harts' decoded code there, as their own stores do.
  device.endpoint->host_memory_written = [this](uint64_t pa, uint64_t len) { harts.memory_written(dram_base() + pa, len); };
  harts.bind_bus(bus.targ);
  loader.socket.bind(bus.targ);
  device_.add_hart_cluster(&harts);
}

HostSystem::~HostSystem() {
  device_.remove_hart_cluster(&harts);
  device_.host.intx_line.unbind();
  device_.endpoint->host_memory_written = nullptr;
}

bool HostSystem::is_memory(uint64_t addr, uint64_t size) const {
  const uint64_t base = dram_base();
  return size != 0 && addr >= base && addr - base < dram_.size() && size <= dram_.size() - (addr - base);
}

BootMachine HostSystem::machine() {
  BootMachine m{harts, bus, loader, uart, poweroff, nullptr, clint.frequency.get(), dram_base(), dram_.size(),
                [this](uint64_t a, uint64_t n) { return is_memory(a, n); }};
  m.pcie_host_bridge = true;
  return m;
}

}  // namespace avp
