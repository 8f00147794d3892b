#include "pcie/pcie_endpoint.h"

#include <cstring>

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

PcieEndpoint::PcieEndpoint(sc_core::sc_module_name name, PcieLink& link, CmpHostInterface* cmp, const PlatformInfo& info)
    : sc_module(name),
      cfg("cfg"), bar0("bar0"), bar2("bar2"), device("device"), dma("dma"), upstream("upstream"),
      link_(link), cmp_(cmp), info_(info), config_(AVP_BAR0_SIZE, info.dram_size),
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
  acceldev_ = std::make_unique<AcceldevEngine>(
      "acceldev", [this](bool w, uint64_t pa, void* d, unsigned n, sc_core::sc_time& t) { return host_access(w, pa, d, n, t); },
      [this](uint32_t bits) { raise(bits); },
      AcceldevEngine::CmpPort{cmp_, [this](uint64_t a, const void* d, unsigned n, sc_core::sc_time& t) { return device_write(a, d, n, t); },
                              info_.dram_base + info_.dram_size - ACCELDEV_CMP_STAGING_SIZE});
  iommu_ = std::make_unique<AcceldevIommu>(
      std::string(this->name()) + ".iommu", *acceldev_,
      [this](uint64_t pa, void* d, unsigned n, sc_core::sc_time* t) { return t ? host_access(false, pa, d, n, *t) : host_debug_read(pa, d, n); });
  regs_.add(ACCELDEV_INTR, "INTR", [this] { return intr_; }, [this](uint32_t v) {
    intr_ &= ~v;  // write 1 to clear
    update_irq();
  });
  regs_.add(ACCELDEV_INTR_ENABLE, "INTR_ENABLE", [this] { return intr_enable_; }, [this](uint32_t v) {
    intr_enable_ = v;
    update_irq();
  });
  acceldev_->map_registers(regs_);
  if (cmp_) {
    map_cmp_registers();
    cmp_->raise_interrupt = [this](unsigned bit) { raise(1u << bit); };
  }
  map_info_block();
}

void PcieEndpoint::reset() {
  acceldev_->reset();
  intr_ = intr_enable_ = 0;
  update_irq();
}

void PcieEndpoint::raise(uint32_t bits) {
  interrupts_.inc();
  const bool was = level_;
  intr_ |= bits;
  update_irq();
  // MSI is edge-like: one message per newly raised enabled bit.
  if (config_.msi_enabled() && (bits & intr_enable_) && msi) {
    (void)was;
    Vcd::instance().trigger(std::string(name()) + ".msi");
    msi(config_.msi_address(), config_.msi_data());
  }
}

void PcieEndpoint::update_irq() {
  const bool level = (intr_ & intr_enable_) != 0;
  if (level != level_) {
    level_ = level;
    if (!config_.msi_enabled() && !config_.intx_disabled() && intx) intx(level);
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
    if (kIntrBitNames[b]) v.change(n + ".intr." + kIntrBitNames[b], (intr_ >> b) & 1);
  v.change(n + ".irq", level_);
  v.change(n + ".intx", level_ && !config_.msi_enabled() && !config_.intx_disabled());
}

void PcieEndpoint::map_cmp_registers() {
  regs_.add(AVP_CB_ADDR_LO, "CB_ADDR_LO", [this] { return static_cast<uint32_t>(cb_addr_); },
            [this](uint32_t v) { cb_addr_ = (cb_addr_ & ~0xFFFFFFFFull) | v; });
  regs_.add(AVP_CB_ADDR_HI, "CB_ADDR_HI", [this] { return static_cast<uint32_t>(cb_addr_ >> 32); },
            [this](uint32_t v) { cb_addr_ = (cb_addr_ & 0xFFFFFFFFull) | static_cast<uint64_t>(v) << 32; });
  regs_.storage(AVP_CB_SIZE, "CB_SIZE", cb_size_);
  regs_.add(AVP_CB_SUBMIT, "CB_SUBMIT", nullptr, [this](uint32_t) { cmp_->submit(cb_addr_, cb_size_); });
  regs_.add(AVP_CB_FREE, "CB_FREE", [this] { return cmp_->free_slots(); }, nullptr);
  regs_.add(AVP_CB_DONE_COUNT, "CB_DONE_COUNT", [this] { return static_cast<uint32_t>(cmp_->completed_count()); }, nullptr);
  regs_.add(AVP_CMP_STATUS, "CMP_STATUS", [this] { return static_cast<uint32_t>(cmp_->status().busy); }, nullptr);
  regs_.add(AVP_CMP_ERR_CODE, "CMP_ERR_CODE", [this] { return cmp_->status().error_code; }, nullptr);
  regs_.add(AVP_CMP_ERR_OFFSET, "CMP_ERR_OFFSET", [this] { return static_cast<uint32_t>(cmp_->status().error_offset); }, nullptr);
  regs_.add(AVP_CMP_ERR_INFO, "CMP_ERR_INFO", [this] { return cmp_->status().error_info; }, nullptr);
  regs_.add(AVP_CMP_RESET, "CMP_RESET", nullptr, [this](uint32_t v) {
    if (v & 1) cmp_->reset();
  });
  regs_.add(AVP_CMP_ERR_PC_LO, "CMP_ERR_PC_LO", [this] { return static_cast<uint32_t>(cmp_->status().error_pc); }, nullptr);
  regs_.add(AVP_CMP_ERR_PC_HI, "CMP_ERR_PC_HI", [this] { return static_cast<uint32_t>(cmp_->status().error_pc >> 32); }, nullptr);
  regs_.add(AVP_CMP_ERR_CAUSE, "CMP_ERR_CAUSE", [this] { return static_cast<uint32_t>(cmp_->status().error_cause); }, nullptr);
}

void PcieEndpoint::map_info_block() {
  auto ro = [this](uint32_t off, const char* name, uint32_t v) { regs_.add(off, name, [v] { return v; }, nullptr); };
  ro(AVP_INFO_MAGIC, "INFO_MAGIC", AVP_INFO_MAGIC_VALUE);
  ro(AVP_INFO_VERSION, "INFO_VERSION", 1);
  ro(AVP_INFO_CORES, "INFO_CORES", info_.cores);
  ro(AVP_INFO_HARTS_PER_CORE, "INFO_HARTS_PER_CORE", info_.harts_per_core);
  ro(AVP_INFO_DRAM_BASE_LO, "INFO_DRAM_BASE_LO", static_cast<uint32_t>(info_.dram_base));
  ro(AVP_INFO_DRAM_BASE_HI, "INFO_DRAM_BASE_HI", static_cast<uint32_t>(info_.dram_base >> 32));
  ro(AVP_INFO_DRAM_SIZE_LO, "INFO_DRAM_SIZE_LO", static_cast<uint32_t>(info_.dram_size));
  ro(AVP_INFO_DRAM_SIZE_HI, "INFO_DRAM_SIZE_HI", static_cast<uint32_t>(info_.dram_size >> 32));
  ro(AVP_INFO_TCDM_BASE, "INFO_TCDM_BASE", static_cast<uint32_t>(info_.tcdm_base));
  ro(AVP_INFO_TCDM_PER_CORE, "INFO_TCDM_PER_CORE", static_cast<uint32_t>(info_.tcdm_per_core));
  ro(AVP_INFO_TCIM_BASE, "INFO_TCIM_BASE", static_cast<uint32_t>(info_.tcim_base));
  ro(AVP_INFO_TCIM_SIZE, "INFO_TCIM_SIZE", static_cast<uint32_t>(info_.tcim_size));
  ro(AVP_INFO_NUM_XINTF, "INFO_NUM_XINTF", static_cast<uint32_t>(info_.xintf_uuids.size()));
  for (size_t i = 0; i < info_.xintf_uuids.size() && i < 24; ++i) {
    ro(AVP_INFO_XINTF_UUID_LO(i), "INFO_XINTF_UUID_LO", static_cast<uint32_t>(info_.xintf_uuids[i]));
    ro(AVP_INFO_XINTF_UUID_HI(i), "INFO_XINTF_UUID_HI", static_cast<uint32_t>(info_.xintf_uuids[i] >> 32));
  }
}

void PcieEndpoint::cfg_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint32_t off = static_cast<uint32_t>(gp.get_address());
  if (gp.get_data_length() != 4 || (off & 3) || off >= 4096) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  uint32_t v = 0;
  if (gp.is_read()) {
    v = config_.read32(off);
    std::memcpy(gp.get_data_ptr(), &v, 4);
  } else {
    std::memcpy(&v, gp.get_data_ptr(), 4);
    config_.write32(off, v);
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

// With the command register's memory-space bit clear the BARs do not decode:
// the request is an Unsupported Request, which the root complex completes as
// a master abort (reads all-ones, writes dropped). Logged and counted.
bool PcieEndpoint::memory_space_decodes(tlm::tlm_generic_payload& gp, const char* bar) {
  if (config_.memory_enabled()) return true;
  unsupported_requests_.inc();
  AVP_LOG(log_, Warn, bar << (gp.is_read() ? " read" : " write") << " at offset 0x" << std::hex << gp.get_address()
                          << " while memory space decoding is disabled (command register bit 1): unsupported request");
  if (gp.is_read()) std::memset(gp.get_data_ptr(), 0xFF, gp.get_data_length());
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return false;
}

void PcieEndpoint::bar0_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (!memory_space_decodes(gp, "BAR0")) return;
  const uint64_t off = gp.get_address();
  const RegisterBank::Reg* r = (gp.get_data_length() == 4 && !(off & 3)) ? regs_.find(static_cast<uint32_t>(off)) : nullptr;
  if (!r && off >= AVP_AQL_REGS && off < AVP_INFO_MAGIC && aql_range.size() > 0) {
    gp.set_address(off - AVP_AQL_REGS);
    aql_range->b_transport(gp, delay);  // the block's own access rules apply
    gp.set_address(off);
    return;
  }
  // acceldev.md decision 1: misuse reads all-ones, is ignored, logged, and never changes state.
  if (!r || (gp.is_read() && !r->read) || (gp.is_write() && !r->write)) {
    mmio_misuse_.inc();
    AVP_LOG(log_, Warn, "BAR0 " << (gp.is_read() ? "read" : "write") << " of " << gp.get_data_length()
                                << " bytes at offset 0x" << std::hex << off << " ignored"
                                << (r ? (gp.is_read() ? " (write-only register)" : " (read-only register)")
                                      : " (not an aligned 32-bit access to a register)"));
    if (gp.is_read()) std::memset(gp.get_data_ptr(), 0xFF, gp.get_data_length());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  uint32_t v = 0;
  if (gp.is_read()) {
    mmio_reads_.inc();
    v = r->read();
    std::memcpy(gp.get_data_ptr(), &v, 4);
  } else {
    mmio_writes_.inc();
    std::memcpy(&v, gp.get_data_ptr(), 4);
    r->write(v);
  }
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
  std::vector<AcceldevIommu::Piece> pieces;
  if (!iommu_->translate(ctx, unit_of(gp), addr, gp.get_data_length(), gp.is_write(), pieces, &delay)) {
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
  for (const AcceldevIommu::Piece& p : pieces) {
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
  }
  delay = done - now;
}

unsigned PcieEndpoint::dma_transport_dbg(tlm::tlm_generic_payload& gp) {
  const uint32_t ctx = context_of(gp);
  if (ctx == kNoContext) return upstream->transport_dbg(gp);
  const uint64_t addr = gp.get_address();
  std::vector<AcceldevIommu::Piece> pieces;
  if (!iommu_->translate(ctx, unit_of(gp), addr, gp.get_data_length(), gp.is_write(), pieces, nullptr)) return 0;
  unsigned done = 0;
  for (const AcceldevIommu::Piece& p : pieces) {
    tlm::tlm_generic_payload g;
    prepare_payload(g, gp.get_command(), p.pa, gp.get_data_ptr() + p.offset, p.len);
    const unsigned n = upstream->transport_dbg(g);
    done += n;
    if (n != p.len) break;
  }
  return done;
}

}  // namespace avp
