#include "platform/info.h"

#include <algorithm>
#include <iomanip>
#include <vector>

#include "base/params.h"
#include "platform/device_tree.h"
#include "platform/platform.h"
#include "platform/session.h"
#include "platform/workload.h"

namespace avp {

void print_info(const Platform& p, std::ostream& os) {
  os << "accel-vp " << version_string() << " (" << sc_core::sc_version() << ")\n\n";
  os << "Device address map:\n";
  for (const auto& r : p.bus.ranges()) {
    os << "  0x" << std::hex << std::setw(12) << std::setfill('0') << r.base << " .. 0x" << std::setw(12)
       << (r.base + r.size - 1) << std::dec << std::setfill(' ') << "  " << std::setw(14) << std::left << r.name
       << std::right << " -> port " << p.bus.port_name(r.port) << "\n";
  }
  os << "\nDevice tree (`accel-vp boot`, `accel-vp dtb`): generated from the parameters, placed at 0x" << std::hex
     << default_dtb_address(p) << std::dec << " (a1 of every hart at boot; --dtb-addr moves it)\n";
  os << "\nUnits:\n";
  os << "  host (unit 0x01000000), cmp (0x02000000)\n";
  os << "  " << p.cores.get() << " cores x " << p.harts_per_core.get() << " harts = " << p.num_harts()
     << " harts (units 0x03000000 .. 0x" << std::hex << std::setw(8) << std::setfill('0') << (0x03000000 + p.num_harts() - 1)
     << std::dec << std::setfill(' ') << ")\n";
  os << "\nWorkloads:\n";
  for (const Workload* w : all_workloads()) os << "  " << std::setw(16) << std::left << w->name << std::right << w->description << "\n";
  os << "\nParameters:\n";
  print_params(os);
}

void print_params(std::ostream& os, const std::string& filter) {
  std::vector<const ParamBase*> shown;
  size_t name_w = 4, type_w = 4, value_w = 5;
  for (const ParamBase* p : ParamRegistry::instance().all()) {
    if (p->name().find(filter) == std::string::npos) continue;
    shown.push_back(p);
    name_w = std::max(name_w, p->name().size());
    type_w = std::max(type_w, std::string(p->type_name()).size());
    value_w = std::max(value_w, p->value_string().size());
  }
  if (shown.empty()) {
    os << "  no parameter name contains '" << filter << "'\n";
    return;
  }
  os << std::left << "  " << std::setw(name_w + 2) << "name" << std::setw(type_w + 2) << "type" << std::setw(value_w + 2)
     << "value" << "description\n";
  for (const ParamBase* p : shown) {
    os << "  " << std::setw(name_w + 2) << p->name() << std::setw(type_w + 2) << p->type_name() << std::setw(value_w + 2)
       << p->value_string() << p->description();
    if (p->value_string() != p->default_string()) os << " (default " << p->default_string() << ")";
    os << "\n";
  }
  os << std::right;
}

void print_registers(Platform& p, std::ostream& os) {
  for (const PcieEndpoint::Window& w : p.endpoint->windows()) {
    os << "BAR0 0x" << std::hex << w.start << "..0x" << w.end - 1 << std::dec << ": ";
    w.block->print(os);
  }
  auto on_bus = [&](const char* range, RegisterBlock& block) {
    for (const auto& r : p.bus.ranges())
      if (r.name == range) os << "bus 0x" << std::hex << r.base << std::dec << ": ";
    block.print(os);
  };
  on_bus("console", p.console.registers());
  on_bus("perf", p.harts.perf.registers());
  on_bus("cmp", p.cmp.mirror.registers());
  on_bus("dma", p.dma.registers());
}

}  // namespace avp
