#include "platform/device_tree.h"

#include <libfdt.h>

#include <stdexcept>

#include "platform/boot_machine.h"
#include "harts/hart_state.h"
#include "interconnect/router.h"
#include "platform/platform.h"
#include "sysdev/host_system_map.h"
#include "sysdev/sysdev_regs.h"

namespace avp {

namespace {

constexpr uint32_t kPlicPhandle = 1, kPowerOffPhandle = 2, kIntcPhandle0 = 16;  // intc of hart h: 16 + h

class Writer {
 public:
  explicit Writer(size_t size) : blob_(size) { check(fdt_create(blob_.data(), static_cast<int>(size)), "create"); }
  void check(int err, const char* what) {
    if (err < 0) throw std::runtime_error(std::string("device tree: ") + what + ": " + fdt_strerror(err));
  }
  void begin(const std::string& n) { check(fdt_begin_node(blob_.data(), n.c_str()), n.c_str()); }
  void end() { check(fdt_end_node(blob_.data()), "end node"); }
  void u32(const char* n, uint32_t v) { check(fdt_property_u32(blob_.data(), n, v), n); }
  void str(const char* n, const std::string& v) { check(fdt_property_string(blob_.data(), n, v.c_str()), n); }
  void empty(const char* n) { check(fdt_property(blob_.data(), n, nullptr, 0), n); }
  // A list of strings (compatible = "a", "b").
  void strs(const char* n, std::initializer_list<const char*> v) {
    std::string all;
    for (const char* s : v) all.append(s).push_back('\0');
    check(fdt_property(blob_.data(), n, all.data(), static_cast<int>(all.size())), n);
  }
  void cells(const char* n, const std::vector<uint32_t>& v) {
    std::vector<fdt32_t> be;
    for (uint32_t c : v) be.push_back(cpu_to_fdt32(c));
    check(fdt_property(blob_.data(), n, be.data(), static_cast<int>(be.size() * 4)), n);
  }
  void reg(uint64_t base, uint64_t size) {
    cells("reg", {static_cast<uint32_t>(base >> 32), static_cast<uint32_t>(base), static_cast<uint32_t>(size >> 32),
                  static_cast<uint32_t>(size)});
  }
  std::vector<uint8_t> finish() {
    check(fdt_finish(blob_.data()), "finish");
    blob_.resize(fdt_totalsize(blob_.data()));
    return blob_;
  }
  std::vector<uint8_t> blob_;
};

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
  return b;
}

// A copy: ranges() builds its list on every call.
Router::Range range(const BootMachine& m, const std::string& name) {
  for (const auto& r : m.bus.ranges())
    if (r.name == name) return r;
  throw std::runtime_error("device tree: no address range " + name);
}

}  // namespace

const char* hart_isa_string() { return "rv64imafdc_zicsr_zifencei_svnapot_svpbmt"; }

std::pair<uint64_t, uint64_t> firmware_memory(uint64_t base, uint64_t size) {
  const uint64_t end = base + size;
  if (base < kFirmwareMemoryBase && end > kFirmwareMemoryBase) return {kFirmwareMemoryBase, end - kFirmwareMemoryBase};
  return {base, size};
}

uint64_t default_dtb_address(uint64_t dram_base, uint64_t dram_size) {
  return (dram_base + dram_size - (2u << 20)) & ~((2ull << 20) - 1);
}

uint64_t default_dtb_address(const Platform& p) { return default_dtb_address(p.dram_base(), p.dram.size()); }

namespace {

std::vector<uint32_t> cells64(uint64_t v) { return {static_cast<uint32_t>(v >> 32), static_cast<uint32_t>(v)}; }

// The ECAM host bridge as QEMU's virt machine describes its own: bus 0 only,
// the two memory windows (PCI address = CPU address), PCI bus address 0 at
// the start of DRAM for the devices' DMA, and INTA..INTD of every device to
// PLIC sources AVP_HOST_PCI_INTA_SOURCE.. .
void pcie_host_bridge(Writer& w, const BootMachine& m) {
  const auto& ecam = range(m, "pcie_ecam");
  const auto& mmio32 = range(m, "pcie_mmio32");
  const auto& mmio64 = range(m, "pcie_mmio64");
  w.begin("pci@" + hex(ecam.base));
  w.str("compatible", "pci-host-ecam-generic");
  w.str("device_type", "pci");
  w.u32("#address-cells", 3);
  w.u32("#size-cells", 2);
  w.u32("#interrupt-cells", 1);
  w.reg(ecam.base, ecam.size);
  w.cells("bus-range", {0, static_cast<uint32_t>((ecam.size >> 20) - 1)});
  w.u32("linux,pci-domain", 0);
  w.empty("dma-coherent");
  std::vector<uint32_t> ranges;
  for (const auto& [space, r] : {std::pair<uint32_t, const Router::Range*>{0x02000000, &mmio32}, {0x03000000, &mmio64}})
    for (const auto& v : {std::vector<uint32_t>{space}, cells64(r->base), cells64(r->base), cells64(r->size)})
      ranges.insert(ranges.end(), v.begin(), v.end());
  w.cells("ranges", ranges);
  std::vector<uint32_t> dma = {0x02000000};
  for (const auto& v : {cells64(0), cells64(m.dram_base), cells64(m.dram_size)}) dma.insert(dma.end(), v.begin(), v.end());
  w.cells("dma-ranges", dma);
  w.cells("interrupt-map-mask", {0, 0, 0, 7});
  std::vector<uint32_t> map;
  for (uint32_t pin = 1; pin <= 4; ++pin) map.insert(map.end(), {0, 0, 0, pin, kPlicPhandle, AVP_HOST_PCI_INTA_SOURCE + pin - 1});
  w.cells("interrupt-map", map);
  w.end();
}

}  // namespace

std::vector<uint8_t> build_device_tree(const BootMachine& m, const DeviceTreeOptions& o) {
  const unsigned num_harts = m.harts.num_harts();
  if (o.harts == 0 || o.harts > num_harts)
    throw std::runtime_error("device tree: " + std::to_string(o.harts) + " harts (the platform has " +
                             std::to_string(num_harts) + ")");
  Writer w(64 * 1024 + 1024 * size_t{o.harts} + o.bootargs.size());  // a hart takes about 400 bytes
  w.check(fdt_finish_reservemap(w.blob_.data()), "reserve map");
  w.begin("");
  w.u32("#address-cells", 2);
  w.u32("#size-cells", 2);
  w.str("compatible", "accel-vp,riscv");
  w.str("model", "accel-vp");

  const auto& uart = range(m, "uart");
  w.begin("chosen");
  w.str("stdout-path", "/soc/serial@" + hex(uart.base));
  if (!o.bootargs.empty()) w.str("bootargs", o.bootargs);
  if (o.initrd_end > o.initrd_start) {
    w.cells("linux,initrd-start", {static_cast<uint32_t>(o.initrd_start >> 32), static_cast<uint32_t>(o.initrd_start)});
    w.cells("linux,initrd-end", {static_cast<uint32_t>(o.initrd_end >> 32), static_cast<uint32_t>(o.initrd_end)});
  }
  w.end();

  const auto [mem_base, mem_size] = firmware_memory(m.dram_base, m.dram_size);
  w.begin("memory@" + hex(mem_base));
  w.str("device_type", "memory");
  w.reg(mem_base, mem_size);
  w.end();

  w.begin("cpus");
  w.u32("#address-cells", 1);
  w.u32("#size-cells", 0);
  w.u32("timebase-frequency", static_cast<uint32_t>(m.timebase));
  for (unsigned h = 0; h < o.harts; ++h) {
    w.begin("cpu@" + std::to_string(h));
    w.str("device_type", "cpu");
    w.u32("reg", h);
    w.str("status", "okay");
    w.str("compatible", "riscv");
    w.str("riscv,isa", hart_isa_string());
    w.str("mmu-type", "riscv,sv48");  // satp holds Bare, Sv39 or Sv48 (docs/harts.md)
    w.begin("interrupt-controller");
    w.u32("#interrupt-cells", 1);
    w.empty("interrupt-controller");
    w.str("compatible", "riscv,cpu-intc");
    w.u32("phandle", kIntcPhandle0 + h);
    w.end();
    w.end();
  }
  w.end();

  if (o.htif) {
    w.begin("htif");
    w.str("compatible", "ucb,htif0");
    w.end();
  }

  const auto& poweroff = range(m, "poweroff");
  for (const auto& [node, value] : {std::pair<const char*, uint32_t>{"poweroff", AVP_POWEROFF_PASS}, {"reboot", AVP_POWEROFF_RESET}}) {
    w.begin(node);
    w.str("compatible", std::string("syscon-") + node);
    w.u32("regmap", kPowerOffPhandle);
    w.u32("offset", AVP_POWEROFF_REG);
    w.u32("value", value);
    w.end();
  }

  w.begin("soc");
  w.u32("#address-cells", 2);
  w.u32("#size-cells", 2);
  w.str("compatible", "simple-bus");
  w.empty("ranges");

  const auto& clint = range(m, "clint");
  w.begin("clint@" + hex(clint.base));
  w.strs("compatible", {"sifive,clint0", "riscv,clint0"});
  w.reg(clint.base, clint.size);
  std::vector<uint32_t> ext;
  for (unsigned h = 0; h < o.harts; ++h) ext.insert(ext.end(), {kIntcPhandle0 + h, rv::kMSI, kIntcPhandle0 + h, rv::kMTI});
  w.cells("interrupts-extended", ext);
  w.end();

  const auto& plic = range(m, "plic");
  w.begin("plic@" + hex(plic.base));
  w.strs("compatible", {"sifive,plic-1.0.0", "riscv,plic0"});
  w.reg(plic.base, plic.size);
  w.u32("#address-cells", 0);
  w.u32("#interrupt-cells", 1);
  w.empty("interrupt-controller");
  w.u32("riscv,ndev", AVP_PLIC_SOURCES - 1);
  ext.clear();
  for (unsigned h = 0; h < o.harts; ++h) ext.insert(ext.end(), {kIntcPhandle0 + h, rv::kMEI, kIntcPhandle0 + h, rv::kSEI});
  w.cells("interrupts-extended", ext);
  w.u32("phandle", kPlicPhandle);
  w.end();

  w.begin("serial@" + hex(uart.base));
  w.str("compatible", "ns16550a");
  w.reg(uart.base, uart.size);
  w.u32("clock-frequency", 3686400);
  w.u32("interrupt-parent", kPlicPhandle);
  w.u32("interrupts", AVP_UART_PLIC_SOURCE);
  w.end();

  w.begin("test@" + hex(poweroff.base));
  w.strs("compatible", {"sifive,test1", "sifive,test0", "syscon"});
  w.reg(poweroff.base, poweroff.size);
  w.u32("phandle", kPowerOffPhandle);
  w.end();

  if (m.pcie_host_bridge) pcie_host_bridge(w, m);
  w.end();  // soc
  w.end();  // root
  return w.finish();
}

}  // namespace avp
