#include "platform/platform.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "base/payload.h"
#include "platform/boot_machine.h"
#include "base/unit.h"
#include "console/console_regs.h"
#include "sysdev/sysdev_regs.h"
#include "harts/xintf.h"
#include "pcie/bar0_regs.h"
#include "decoder_factory.h"
#include "system_devices.h"

namespace avp {

DevicePort::DevicePort(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
  set_unit(gp_, kHostUnit);
}

tlm::tlm_response_status DevicePort::transport(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len,
                                               sc_core::sc_time& delay) {
  prepare_payload(gp_, cmd, addr, data, len);
  socket->b_transport(gp_, delay);
  return gp_.get_response_status();
}

tlm::tlm_response_status DevicePort::write(uint64_t addr, const void* data, unsigned len, sc_core::sc_time& delay) {
  return transport(tlm::TLM_WRITE_COMMAND, addr, const_cast<void*>(data), len, delay);
}

tlm::tlm_response_status DevicePort::read(uint64_t addr, void* data, unsigned len, sc_core::sc_time& delay) {
  return transport(tlm::TLM_READ_COMMAND, addr, data, len, delay);
}

bool DevicePort::write_debug(uint64_t addr, const void* data, uint64_t len) {
  tlm::tlm_generic_payload gp;
  set_unit(gp, kHostUnit);
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(const_cast<void*>(data)));
  gp.set_data_length(static_cast<unsigned>(len));
  return socket->transport_dbg(gp) == len;
}

bool DevicePort::read_debug(uint64_t addr, void* data, uint64_t len) {
  tlm::tlm_generic_payload gp;
  set_unit(gp, kHostUnit);
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(data));
  gp.set_data_length(static_cast<unsigned>(len));
  return socket->transport_dbg(gp) == len;
}

tlm::tlm_response_status DevicePort::access_as(UnitId unit, uint32_t core, bool write, uint64_t addr, void* data,
                                              unsigned len, sc_core::sc_time& delay) {
  tlm::tlm_generic_payload gp;
  prepare_payload(gp, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, data, len);
  set_unit(gp, unit, core);
  socket->b_transport(gp, delay);
  return gp.get_response_status();
}

namespace {
constexpr uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;
}

Platform::Platform()
    : seed("platform.seed", 1, "seed of every pseudo-random choice in the models (recorded in the manifest)"),
      quantum("platform.quantum", sc_core::sc_time(1, sc_core::SC_US),
              "global quantum of temporal decoupling: initiators run ahead of SystemC time by at most this much"),
      time_limit("platform.time_limit", sc_core::SC_ZERO_TIME, "stop the simulation at this simulated time (0 = no limit)"),
      run_ahead("platform.run_ahead", true,
                "initiators pass a quantum's end without a wait while nothing else can run first (the same results; "
                "false: they wait at every quantum's end)"),
      pace("platform.pace", "auto",
           "keep simulated time from running ahead of host time (docs/platform.md, \"Real-time pacing\"): "
           "realtime, none, or auto: realtime while the UART's input is an interactive terminal"),
      cores("platform.cores", 2, "number of cores in the hart cluster"),
      harts_per_core("platform.harts_per_core", 4, "harts per core"),
      tcdm_slice("platform.tcdm_per_core", 4 * MiB, "TCDM bytes per core (core-local view size)"),
      refsi_memory_map("platform.refsi_memory_map",
                       "DRAM=dram TCIM=tcim TCDM=tcdm TCDM_PRIVATE=tcdm_local KERNEL_DMA=dma KERNEL_DMA_PRIVATE=dma "
                       "PERF_COUNTERS=perf",
                       "the memory map the RefSi driver reports, in order: KIND=range entries (docs/refsidrv.md)"),
      bus("bus"),
      tcim("tcim", 60 * KiB, sc_core::sc_time(1, sc_core::SC_NS)),
      tcdm("tcdm", Memory::DerivedSize{static_cast<uint64_t>(cores.get()) * tcdm_slice.get(), "platform.cores x platform.tcdm_per_core"},
           sc_core::sc_time(1, sc_core::SC_NS)),
      tcdm_local("tcdm_local", tcdm_slice.get()),
      dram("dram", 2 * GiB, ddr4_3200_x64()),
      device_port("device_port"),
      harts("harts", cores.get(), harts_per_core.get()),
      windows("windows", cores.get() * harts_per_core.get(), cores.get(),
              [this](uint64_t a, uint64_t n) { return is_memory(a, n); }),
      cmp("cmp", harts, windows),
      dma("dma"),
      console("console", cores.get() * harts_per_core.get(),
              [this](unsigned hart, const sc_core::sc_time& when, const std::string& text) { harts.console().line(hart, when, text); }),
      link("link"),
      host("host", link),
      clint("clint", cores.get() * harts_per_core.get()),
      plic("plic", cores.get() * harts_per_core.get()),
      uart("uart"),
      poweroff("poweroff"),
      htif("htif", [this](uint64_t a, void* d, unsigned n) { return device_port.read_debug(a, d, n); },
           [this](uint64_t a, void* d, unsigned n) { return device_port.write_debug(a, d, n); }) {
  // Local times count integer picoseconds as the times' values (base/local_time.h).
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
    throw std::logic_error("accel-vp needs SystemC's default time resolution of 1 ps");
  tlm::tlm_global_quantum::instance().set(quantum.get());
  cmp.set_decoder(make_packet_decoder(cmp.decoder.get(), cmp.rtl_vcd.get(), cmp.rtl_coverage.get()));

  const unsigned p_tcim = bus.add_port("tcim");
  bus.map(p_tcim, "tcim", 0x1000, tcim.size());
  const unsigned p_local = bus.add_port("tcdm_local");
  bus.map(p_local, "tcdm_local", 0x1000'0000, tcdm_slice.get());
  const unsigned p_tcdm = bus.add_port("tcdm");
  bus.map(p_tcdm, "tcdm", 0x1800'0000, tcdm.size());
  const DramStandard dram_standard = ddr4_3200_x64();
  const unsigned p_dram = bus.add_port("dram", sc_core::SC_ZERO_TIME, dram_standard.channel_bandwidth, dram_standard.channels);
  bus.map(p_dram, "dram", 0x4000'0000, dram.size());
  const unsigned p_perf = bus.add_port("perf");
  bus.map(p_perf, "perf", 0x2010'0000, 0x200);
  const unsigned p_cmp = bus.add_port("cmp");
  bus.map(p_cmp, "cmp", 0x2000'0000, 0x1000);
  const unsigned p_dma = bus.add_port("dma");
  bus.map(p_dma, "dma", 0x2000'2000, 0x100);
  const unsigned p_console = bus.add_port("console");
  bus.map(p_console, "console", AVP_CONSOLE_BASE, AVP_CONSOLE_SIZE);
  const unsigned p_host = bus.add_port("host");
  bus.map(p_host, "host_window", 0x8000'0000'0000ull, 1ull << 47);
  const unsigned p_win = bus.add_port("windows");
  bus.map(p_win, "windows_low", 0x0001'0000, 0x0FFF'0000, /*absolute=*/true);
  bus.map(p_win, "windows_high", 0x1400'0000, 0x0400'0000, /*absolute=*/true);
  bus.map(bus.add_port("clint"), "clint", AVP_CLINT_BASE, AVP_CLINT_SIZE);
  bus.map(bus.add_port("plic"), "plic", AVP_PLIC_BASE, AVP_PLIC_SIZE);
  bus.map(bus.add_port("uart"), "uart", AVP_UART_BASE, AVP_UART_SIZE);
  bus.map(bus.add_port("poweroff"), "poweroff", AVP_POWEROFF_BASE, AVP_POWEROFF_SIZE);
  std::vector<std::pair<uint64_t, uint64_t>> window_ranges;
  for (const auto& r : bus.ranges())
    if (r.port == p_win) window_ranges.emplace_back(r.base, r.size);
  windows.set_window_ranges(window_ranges);
  harts.set_dma_base(base_of("dma"));
  cmp.set_tcdm(tcdm_global_base(), tcdm_slice.get());

  // Bind in port order.
  bus.init.bind(tcim.socket);
  bus.init.bind(tcdm_local.targ);
  tcdm_local.init.bind(tcdm.socket);
  bus.init.bind(tcdm.socket);
  bus.init.bind(dram.socket);
  bus.init.bind(harts.perf.socket);
  bus.init.bind(cmp.mirror.socket);
  bus.init.bind(dma.regs);
  bus.init.bind(console.socket);
  PlatformInfo info;
  info.cores = cores.get();
  info.harts_per_core = harts_per_core.get();
  info.dram_base = dram_base();
  info.dram_size = dram.size();
  info.tcdm_base = tcdm_global_base();
  info.tcdm_per_core = tcdm_slice.get();
  info.tcim_base = base_of("tcim");
  info.tcim_size = tcim.size();
  info.xintf_uuids = {AVP_XINTF_UUID_HARTINFO, AVP_XINTF_UUID_BARRIER, AVP_XINTF_UUID_DMA};
  const char* range_names[AVP_NUM_RANGES] = {"dram", "tcim", "tcdm", "tcdm_local", "dma", "perf", "cmp", "console"};
  for (unsigned i = 0; i < AVP_NUM_RANGES; ++i) info.ranges[i] = {base_of(range_names[i]), size_of(range_names[i])};
  info.refsi_map = refsi_map();
  endpoint = std::make_unique<PcieEndpoint>("endpoint", link, info);
  PcieEndpoint& ep = *endpoint;
  acceldev = std::make_unique<AcceldevEngine>(
      "acceldev", [&ep](bool w, uint64_t pa, void* d, unsigned n, sc_core::sc_time& t) { return ep.host_access(w, pa, d, n, t); },
      AcceldevEngine::CmpPort{&cmp, [&ep](uint64_t a, const void* d, unsigned n, sc_core::sc_time& t) { return ep.device_write(a, d, n, t); },
                              info.dram_base + info.dram_size - ACCELDEV_CMP_STAGING_SIZE});
  // Work of a context reaches host memory only through the context's IOMMU (docs/acceldev.md).
  iommu = std::make_unique<AcceldevIommu>(
      "endpoint.iommu", *acceldev,
      [&ep](uint64_t pa, void* d, unsigned n, sc_core::sc_time* t) { return t ? ep.host_access(false, pa, d, n, *t) : ep.host_debug_read(pa, d, n); });
  ep.set_context_translator([this](uint32_t ctx, UnitId unit, uint64_t addr, unsigned len, bool write, std::vector<HostPiece>& out,
                                   sc_core::sc_time* delay) { return iommu->translate(ctx, unit, addr, len, write, out, delay); });
  aql = std::make_unique<AqlProcessor>(
      "aql", harts, AqlProcessor::AddressMap{tcdm_global_base(), tcdm_slice.get(), base_of("host_window"), base_of("tcim")});
  // The front ends: each its BAR0 window and its interrupt output into the endpoint's INTR.
  ep.map_window(AcceldevEngine::kWindowStart, AcceldevEngine::kWindowEnd, acceldev->registers());
  ep.map_window(CmpHostRegisters::kWindowStart, CmpHostRegisters::kWindowEnd, cmp_host_regs.registers());
  ep.map_window(AqlProcessor::kWindowStart, AqlProcessor::kWindowEnd, aql->registers());
  const IntrBits::Sink intr = [&ep](uint32_t bits) { ep.raise(bits); };
  acceldev->irq.bind(intr);
  cmp.irq.bind(intr);
  aql->irq.bind(intr);
  // The DMA's error interrupt also reaches the harts' PLIC (docs/firmware.md).
  dma.irq.bind([this, &ep](uint32_t bits) {
    ep.raise(bits);
    plic.pulse_source(AVP_DMA_PLIC_SOURCE);
  });
  ep.on_reset([this] { acceldev->reset(); });
  bus.init.bind(endpoint->dma);
  bus.init.bind(windows.targ);
  bus.init.bind(clint.socket);
  bus.init.bind(plic.socket);
  bus.init.bind(uart.socket);
  bus.init.bind(poweroff.socket);
  connect_system_devices(harts, clint, plic, uart);
  device_port.socket.bind(bus.targ);
  harts.bind_bus(bus.targ);
  windows.init.bind(bus.targ);
  cmp.bus.bind(bus.targ);
  dma.mem.bind(bus.targ);
  aql->bus.bind(bus.targ);
  endpoint->device.bind(bus.targ);
  endpoint->upstream.bind(host.host_mem.socket);
  host.cfg_out.bind(endpoint->cfg);
  host.bar0_out.bind(endpoint->bar0);
  host.bar2_out.bind(endpoint->bar2);
  endpoint->intx.bind([this](bool level) { host.intx(level); });
  endpoint->msi.bind([this](const MsiMessage& m) { host.msi(m); });
  acceldev->attach_dma([this](uint32_t ctx) { return dma.outstanding(ctx); }, &dma.done_event());
}

Platform::~Platform() = default;

bool Platform::paced() const {
  const std::string& p = pace.get();
  if (p == "realtime") return true;
  if (p == "none") return false;
  if (p == "auto") return uart.backend().interactive();
  throw ParamError(pace.name() + " = '" + p + "': expected auto, realtime or none");
}

bool Platform::check_shape() const {
  for (const Param<uint32_t>* p : {&cores, &harts_per_core})
    if (p->get() == 0) throw ParamError(p->name() + " = 0: must be at least 1");
  const uint64_t harts = uint64_t{cores.get()} * harts_per_core.get();
  if (harts > kMaxHarts)
    throw ParamError("platform.cores x platform.harts_per_core = " + std::to_string(harts) + " harts: at most " +
                     std::to_string(kMaxHarts) + " harts are modelled");
  return true;
}

bool Platform::is_memory(uint64_t addr, uint64_t size) const {
  if (size == 0) return false;
  for (const auto& r : bus.ranges()) {
    if (addr - r.base >= r.size) continue;
    const std::string& port = bus.port_name(r.port);
    const bool memory = port == "tcim" || port == "tcdm" || port == "tcdm_local" || port == "dram";
    return memory && size <= r.size - (addr - r.base);
  }
  return false;
}

uint64_t Platform::base_of(const std::string& range) const {
  for (const auto& r : bus.ranges())
    if (r.name == range) return r.base;
  throw std::logic_error("the address map has no range " + range);
}

uint64_t Platform::size_of(const std::string& range) const {
  for (const auto& r : bus.ranges())
    if (r.name == range) return r.size;
  throw std::logic_error("the address map has no range " + range);
}

std::vector<uint32_t> Platform::refsi_map() const {
  // Kinds as refsidrv.h numbers them; ranges as enum avp_info_range.
  static const char* const kinds[] = {"UNKNOWN", "DRAM", "TCIM", "TCDM", "TCDM_PRIVATE", "KERNEL_DMA",
                                      "KERNEL_DMA_PRIVATE", "PERF_COUNTERS"};
  static const char* const ranges[AVP_NUM_RANGES] = {"dram", "tcim", "tcdm", "tcdm_local", "dma", "perf", "cmp", "console"};
  auto index_of = [](const std::string& name, const char* const* names, unsigned n, unsigned first) {
    for (unsigned i = first; i < n; ++i)
      if (name == names[i]) return static_cast<int>(i);
    return -1;
  };
  std::vector<uint32_t> out;
  std::istringstream in(refsi_memory_map.get());
  for (std::string item; in >> item;) {
    const size_t eq = item.find('=');
    const int kind = index_of(item.substr(0, eq), kinds, 8, 1);
    const int range = eq == std::string::npos ? -1 : index_of(item.substr(eq + 1), ranges, AVP_NUM_RANGES, 0);
    if (kind < 0 || range < 0)
      throw ParamError(refsi_memory_map.name() + ": '" + item +
                       "' is not KIND=range (kinds: DRAM, TCIM, TCDM, TCDM_PRIVATE, KERNEL_DMA, KERNEL_DMA_PRIVATE, "
                       "PERF_COUNTERS; ranges: dram, tcim, tcdm, tcdm_local, dma, perf, cmp, console)");
    out.push_back(static_cast<uint32_t>(kind) | static_cast<uint32_t>(range) << 8);
  }
  if (out.empty() || out.size() > AVP_INFO_REFSI_MAP_MAX)
    throw ParamError(refsi_memory_map.name() + ": between 1 and " + std::to_string(AVP_INFO_REFSI_MAP_MAX) +
                     " entries, not " + std::to_string(out.size()));
  return out;
}

uint64_t Platform::instructions_retired() const {
  uint64_t n = harts.instructions_retired();
  for (const HartCluster* c : other_harts_) n += c->instructions_retired();
  return n;
}

void Platform::trace_running_harts(const sc_core::sc_time& at) const {
  harts.trace_running(at);
  for (const HartCluster* c : other_harts_) c->trace_running(at);
}

void Platform::remove_hart_cluster(const HartCluster* c) {
  other_harts_.erase(std::remove(other_harts_.begin(), other_harts_.end(), c), other_harts_.end());
}

uint64_t Platform::dram_base() const { return base_of("dram"); }

uint64_t Platform::tcdm_global_base() const { return base_of("tcdm"); }

}  // namespace avp

namespace avp {

BootMachine accelerator_machine(Platform& p) {
  return BootMachine{p.harts, p.bus, p.device_port, p.uart, p.poweroff, &p.htif, p.clint.frequency.get(), p.dram_base(),
                     p.dram.size(), [&p](uint64_t a, uint64_t n) { return p.is_memory(a, n); }};
}

}  // namespace avp
