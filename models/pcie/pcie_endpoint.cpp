#include "pcie/pcie_endpoint.h"

#include <cstring>
#include <stdexcept>

#include "base/cache_traffic.h"
#include "base/payload.h"
#include "base/unit.h"
#include "base/vcd.h"
#include "pcie/bar0_regs.h"

namespace avp {

namespace {
// INTR bits by name, for the VCD of the interrupt lines.
const char* const kIntrBitNames[32] = {"fence_wait", "feed_error", "cmd_error", "mem_error", "slot_error",
                                       "user_fence_wait", nullptr, nullptr, "cmdbuf_done", "cmp_error",
                                       "cmp_queue_full", "aql_signal", "aql_error", "dma_error"};
}  // namespace

PcieEndpoint::PcieEndpoint(sc_core::sc_module_name name, PcieLink& link, const PlatformInfo& info)
    : sc_module(name),
      cfg("cfg"), bar0("bar0"), bar2("bar2"), device("device"), dma("dma"), upstream("upstream"),
      link_(link), info_(info), config_(AVP_BAR0_SIZE, info.dram_size), info_block_(this, info),
      log_(this->name()),
      mmio_reads_(this, "mmio_reads", "BAR0 reads", "accesses"),
      mmio_writes_(this, "mmio_writes", "BAR0 writes", "accesses"),
      mmio_misuse_(this, "mmio_misuse", "BAR0 accesses that were not aligned 32-bit ones or hit unused offsets", "accesses"),
      unsupported_requests_(this, "unsupported_requests", "BAR0/BAR2 accesses while memory space decoding is disabled",
                            "accesses"),
      dma_reads_(this, "dma_reads", "device-initiated reads of host memory", "transactions"),
      dma_writes_(this, "dma_writes", "device-initiated writes and atomics to host memory", "transactions"),
      interrupts_(this, "interrupts", "interrupt bits raised", "interrupts") {
  cfg.register_b_transport(this, &PcieEndpoint::cfg_b_transport);
  bar0.register_b_transport(this, &PcieEndpoint::bar0_b_transport);
  bar2.register_b_transport(this, &PcieEndpoint::bar2_b_transport);
  bar2.register_transport_dbg(this, &PcieEndpoint::bar2_transport_dbg);
  dma.register_b_transport(this, &PcieEndpoint::dma_b_transport);
  dma.register_transport_dbg(this, &PcieEndpoint::dma_transport_dbg);
  set_unit(up_gp_, kHostUnit);
  INTR.on_write([this](uint32_t) { update_irq(); });
  INTR_ENABLE.on_write([this](uint32_t) { update_irq(); });
  map_window(ACCELDEV_INTR, ACCELDEV_INTR_ENABLE + 4, intr_regs_);
  map_window(AVP_INFO_MAGIC, AVP_BAR0_SIZE, info_block_.registers());
}

void PcieEndpoint::map_window(uint64_t start, uint64_t end, RegisterBlock& block) {
  auto at = windows_.begin();
  while (at != windows_.end() && at->start < start) ++at;
  if ((at != windows_.end() && at->start < end) || (at != windows_.begin() && std::prev(at)->end > start) ||
      start >= end || end > AVP_BAR0_SIZE)
    throw std::logic_error(std::string(name()) + ": BAR0 window of " + block.name() + " overlaps another or BAR0's end");
  windows_.insert(at, Window{start, end, &block});
}

std::string PcieEndpoint::register_name(uint64_t offset) const {
  for (const Window& w : windows_) {
    if (offset < w.start || offset >= w.end) continue;
    for (const RegisterBase* r : w.block->registers())
      for (unsigned i = 0; i < r->count(); ++i) {
        const uint64_t at = r->offset() + i * r->stride();
        if (offset >= at && offset < at + r->bytes())
          return r->element_name(i) + (offset == at ? "" : "+" + std::to_string(offset - at));
      }
  }
  return "";
}

void PcieEndpoint::reset() {
  for (const auto& f : reset_inputs_) f();
  intr_regs_.reset();
  update_irq();
}

void PcieEndpoint::raise(uint32_t bits) {
  interrupts_.inc();
  INTR = INTR | bits;
  update_irq();
  // MSI is edge-like: one message per newly raised enabled bit.
  if (config_.msi_enabled() && (bits & INTR_ENABLE) && msi.bound()) {
    Vcd::instance().trigger(std::string(name()) + ".msi");
    msi.signal({config_.msi_address(), config_.msi_data()});
  }
}

void PcieEndpoint::update_irq() {
  const bool level = (INTR & INTR_ENABLE) != 0;
  if (level != level_) {
    level_ = level;
    if (!config_.msi_enabled() && !config_.intx_disabled()) intx.signal(level);
  }
  record_lines();
}

void PcieEndpoint::start_of_simulation() {
  Vcd& v = Vcd::instance();
  const std::string n = name();
  for (const char* bit : kIntrBitNames)
    if (bit) v.wire(n + ".intr." + bit);
  v.wire(n + ".irq");
  v.wire(n + ".intx");
  v.event(n + ".msi");
}

// INTR bits (pending, set by their source, cleared by the host), the enabled
// request (INTR & INTR_ENABLE) and the INTx wire.
void PcieEndpoint::record_lines() {
  Vcd& v = Vcd::instance();
  if (!v.enabled()) return;
  const std::string n = name();
  for (unsigned b = 0; b < 32; ++b)
    if (kIntrBitNames[b]) v.change(n + ".intr." + kIntrBitNames[b], (INTR >> b) & 1);
  v.change(n + ".irq", level_);
  v.change(n + ".intx", level_ && !config_.msi_enabled() && !config_.intx_disabled());
}

// A configuration request of 1, 2 or 4 bytes inside one dword: a write's
// byte enables keep the other bytes of the dword.
void PcieEndpoint::cfg_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint32_t off = static_cast<uint32_t>(gp.get_address());
  const unsigned len = gp.get_data_length();
  if ((len != 1 && len != 2 && len != 4) || (off & (len - 1)) || off >= 4096) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const uint32_t dword = off & ~3u, shift = (off & 3) * 8;
  uint32_t v = config_.read32(dword);
  if (gp.is_read()) {
    v >>= shift;
    std::memcpy(gp.get_data_ptr(), &v, len);
  } else {
    uint32_t data = 0;
    std::memcpy(&data, gp.get_data_ptr(), len);
    const uint32_t mask = (len == 4 ? ~0u : (1u << (len * 8)) - 1) << shift;
    config_.write32(dword, (v & ~mask) | (data << shift & mask));
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

// With the command register's memory-space bit clear the BARs do not decode:
// the request is an Unsupported Request, which the root complex completes as
// a master abort (reads all-ones, writes dropped) and reports as an error
// (the host bridge's EIO). Logged and counted.
bool PcieEndpoint::memory_space_decodes(tlm::tlm_generic_payload& gp, const char* bar) {
  if (config_.memory_enabled()) return true;
  unsupported_requests_.inc();
  AVP_LOG(log_, Warn, bar << (gp.is_read() ? " read" : " write") << " at offset 0x" << std::hex << gp.get_address()
                          << " while memory space decoding is disabled (command register bit 1): unsupported request");
  if (gp.is_read()) std::memset(gp.get_data_ptr(), 0xFF, gp.get_data_length());
  gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
  return false;
}

// Misuse (acceldev.md decision 1) reads all-ones, is ignored, logged, counted
// and never changes state: the windows' blocks apply that rule, and so does
// the endpoint for offsets outside every window.
void PcieEndpoint::bar0_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (!memory_space_decodes(gp, "BAR0")) return;
  const uint64_t off = gp.get_address();
  if (off >= AVP_BAR0_SIZE || gp.get_data_length() > AVP_BAR0_SIZE - off) {  // past the BAR: no register, an error
    if (gp.is_read()) std::memset(gp.get_data_ptr(), 0xFF, gp.get_data_length());
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  for (const Window& w : windows_) {
    if (off < w.start || off >= w.end) continue;
    switch (w.block->access(gp, delay)) {
      case RegisterBlock::Outcome::Read: mmio_reads_.inc(); break;
      case RegisterBlock::Outcome::Written: mmio_writes_.inc(); break;
      case RegisterBlock::Outcome::Misused: mmio_misuse_.inc(); break;
    }
    return;
  }
  mmio_misuse_.inc();
  AVP_LOG(log_, Warn, "BAR0 " << (gp.is_read() ? "read" : "write") << " of " << gp.get_data_length() << " bytes at offset 0x"
                              << std::hex << off << " ignored (no register block there)");
  if (gp.is_read()) std::memset(gp.get_data_ptr(), 0xFF, gp.get_data_length());
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void PcieEndpoint::bar2_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (!memory_space_decodes(gp, "BAR2")) return;
  const uint64_t off = gp.get_address();
  if (off >= info_.dram_size || gp.get_data_length() > info_.dram_size - off) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  set_unit(gp, kHostUnit);
  gp.set_address(info_.dram_base + off);
  device->b_transport(gp, delay);
  gp.set_address(off);
}

unsigned PcieEndpoint::bar2_transport_dbg(tlm::tlm_generic_payload& gp) {
  const uint64_t off = gp.get_address();
  if (off >= info_.dram_size) return 0;
  gp.set_address(info_.dram_base + off);
  const unsigned n = device->transport_dbg(gp);
  gp.set_address(off);
  return n;
}

// The front end's own accesses (config array, page tables, FILL, walks):
// host physical addresses, never translated.
bool PcieEndpoint::host_access(bool write, uint64_t pa, void* data, unsigned len, sc_core::sc_time& delay) {
  if (!config_.bus_master()) {
    AVP_LOG(log_, Warn, "device-initiated access to host address 0x" << std::hex << pa << " while bus mastering is disabled");
    return false;
  }
  prepare_payload(up_gp_, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, pa, data, len);
  upstream_transport(up_gp_, delay);
  return up_gp_.get_response_status() == tlm::TLM_OK_RESPONSE;
}

bool PcieEndpoint::host_debug_read(uint64_t pa, void* data, unsigned len) {
  tlm::tlm_generic_payload gp;
  prepare_payload(gp, tlm::TLM_READ_COMMAND, pa, data, len);
  return upstream->transport_dbg(gp) == len;
}

bool PcieEndpoint::device_write(uint64_t addr, const void* data, unsigned len, sc_core::sc_time& delay) {
  tlm::tlm_generic_payload gp;
  prepare_payload(gp, tlm::TLM_WRITE_COMMAND, addr, data, len);
  set_unit(gp, kHostUnit);
  device->b_transport(gp, delay);
  return gp.get_response_status() == tlm::TLM_OK_RESPONSE;
}

void PcieEndpoint::dma_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (!config_.bus_master()) {
    AVP_LOG(log_, Warn, "device-initiated access to host address 0x" << std::hex << gp.get_address()
                                                                     << " while bus mastering is disabled");
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  const uint32_t ctx = context_of(gp);
  if (ctx == kNoContext) {
    upstream_transport(gp, delay);
    return;
  }
  // Work of an Acceldev context: its window, through its page tables.
  const uint64_t addr = gp.get_address();
  std::vector<HostPiece> pieces;
  if (!translator_ || !translator_(ctx, unit_of(gp), addr, gp.get_data_length(), gp.is_write(), pieces, &delay)) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (pieces.size() == 1) {
    gp.set_address(pieces[0].pa);
    upstream_transport(gp, delay);
    gp.set_address(addr);
    return;
  }
  if (gp.get_extension<PcieAtomicExtension>()) {  // an atomic never spans two pages
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  for (const HostPiece& p : pieces) {
    tlm::tlm_generic_payload g;
    prepare_payload(g, gp.get_command(), p.pa, gp.get_data_ptr() + p.offset, p.len);
    upstream_transport(g, delay);
    if (g.get_response_status() != tlm::TLM_OK_RESPONSE) {
      gp.set_response_status(g.get_response_status());
      return;
    }
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void PcieEndpoint::upstream_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const PcieAtomicExtension* atomic = gp.get_extension<PcieAtomicExtension>();
  const unsigned len = gp.get_data_length();
  sc_core::sc_time done;
  if (atomic) {
    // AtomicOp TLP: a non-posted request carrying the operand(s), completion with the old value.
    if (len != 8) {
      gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return;
    }
    done = link_.read(PcieLink::Up, 8, now + delay);
    uint64_t old = 0, nv = 0;
    tlm::tlm_generic_payload g;
    g.set_address(gp.get_address());
    g.set_data_ptr(reinterpret_cast<unsigned char*>(&old));
    g.set_data_length(8);
    g.set_streaming_width(8);
    g.set_command(tlm::TLM_READ_COMMAND);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    upstream->b_transport(g, t);
    if (g.get_response_status() == tlm::TLM_OK_RESPONSE) {
      nv = atomic->op == PcieAtomicExtension::FetchAdd ? old + atomic->operand : (old == atomic->compare ? atomic->operand : old);
      g.set_command(tlm::TLM_WRITE_COMMAND);
      g.set_data_ptr(reinterpret_cast<unsigned char*>(&nv));
      upstream->b_transport(g, t);
      std::memcpy(gp.get_data_ptr(), &old, 8);
      if (g.get_response_status() == tlm::TLM_OK_RESPONSE && host_memory_written) host_memory_written(g.get_address(), 8);
    }
    gp.set_response_status(g.get_response_status());
    dma_writes_.inc();
  } else {
    if (gp.is_write()) {
      done = link_.posted(PcieLink::Up, len, now + delay);
      dma_writes_.inc();
    } else {
      done = link_.read(PcieLink::Up, len, now + delay);
      dma_reads_.inc();
    }
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    upstream->b_transport(gp, t);
    done += t;
    if (gp.is_write() && gp.get_response_status() == tlm::TLM_OK_RESPONSE && host_memory_written)
      host_memory_written(gp.get_address(), len);
  }
  delay = done - now;
}

unsigned PcieEndpoint::dma_transport_dbg(tlm::tlm_generic_payload& gp) {
  // Host memory lies across the link: harts do not cache it (base/cache_traffic.h).
  if (const CacheTrafficExtension* c = cache_traffic(gp); c && c->kind == CacheTrafficExtension::Probe) return 0;
  const uint32_t ctx = context_of(gp);
  if (ctx == kNoContext) return upstream_debug(gp);
  const uint64_t addr = gp.get_address();
  std::vector<HostPiece> pieces;
  if (!translator_ || !translator_(ctx, unit_of(gp), addr, gp.get_data_length(), gp.is_write(), pieces, nullptr)) return 0;
  unsigned done = 0;
  for (const HostPiece& p : pieces) {
    tlm::tlm_generic_payload g;
    prepare_payload(g, gp.get_command(), p.pa, gp.get_data_ptr() + p.offset, p.len);
    const unsigned n = upstream_debug(g);
    done += n;
    if (n != p.len) break;
  }
  return done;
}

unsigned PcieEndpoint::upstream_debug(tlm::tlm_generic_payload& gp) {
  const unsigned n = upstream->transport_dbg(gp);
  if (gp.is_write() && n && host_memory_written) host_memory_written(gp.get_address(), n);
  return n;
}

}  // namespace avp
