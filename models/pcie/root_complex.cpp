#include "pcie/root_complex.h"

#include <algorithm>
#include <cstring>

#include "base/local_time.h"
#include "base/unit.h"

namespace avp {

PcieRootComplex::PcieRootComplex(sc_core::sc_module_name name, PcieLink& link)
    : sc_module(name),
      host_mem("host_mem", 1ull << 30, sc_core::sc_time(80, sc_core::SC_NS)),
      cfg_out("cfg_out"), bar0_out("bar0_out"), bar2_out("bar2_out"),
      link_(link), blocks_(0x10'0000, host_mem.size()), log_(this->name()),
      irqs_(this, "interrupts", "interrupts delivered to the host (INTx rising edges and MSIs)", "interrupts"),
      bar0_read_latency_(this, "bar0.read_latency", "host-observed latency of a BAR0 read", "ns"),
      bar0_write_latency_(this, "bar0.write_latency", "host-observed latency of a posted BAR0 write", "ns"),
      bar2_read_latency_(this, "bar2.read_latency", "host-observed latency of a BAR2 read (up to 4 KiB)", "ns"),
      bar2_write_latency_(this, "bar2.write_latency", "host-observed latency of a posted BAR2 write (up to 4 KiB)", "ns") {}

tlm::tlm_response_status PcieRootComplex::access(tlm_utils::simple_initiator_socket<PcieRootComplex>& s,
                                                 tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len) {
  tlm::tlm_generic_payload gp;
  set_unit(gp, kHostUnit);
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(data));
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  // The request reaches the endpoint when its TLP has crossed the link; a
  // read completes when the data is back.
  const sc_core::sc_time arrive = cmd == tlm::TLM_WRITE_COMMAND ? link_.posted(PcieLink::Down, len, start)
                                                                : link_.read(PcieLink::Down, len, start);
  // The host CPU does not run ahead: it syncs before the request reaches the
  // endpoint and waits the device's answer out.
  LocalTime time;
  time.add(arrive - start);
  time.sync();
  time.annotate([&](sc_core::sc_time& d) { s->b_transport(gp, d); });
  if (time.ps()) time.sync();
  const bool read = cmd == tlm::TLM_READ_COMMAND;
  Histogram* h = &s == &bar0_out ? (read ? &bar0_read_latency_ : &bar0_write_latency_)
                 : &s == &bar2_out ? (read ? &bar2_read_latency_ : &bar2_write_latency_)
                                   : nullptr;
  if (h) h->sample((sc_core::sc_time_stamp() - start).to_seconds() * 1e9);
  return gp.get_response_status();
}

uint32_t PcieRootComplex::cfg_read32(uint32_t off) {
  uint32_t v = ~0u;
  access(cfg_out, tlm::TLM_READ_COMMAND, off, &v, 4);
  return v;
}

void PcieRootComplex::cfg_write32(uint32_t off, uint32_t v) { access(cfg_out, tlm::TLM_WRITE_COMMAND, off, &v, 4); }

uint32_t PcieRootComplex::mmio_read32(uint32_t off) {
  uint32_t v = ~0u;
  access(bar0_out, tlm::TLM_READ_COMMAND, off, &v, 4);
  return v;
}

void PcieRootComplex::mmio_write32(uint32_t off, uint32_t v) { access(bar0_out, tlm::TLM_WRITE_COMMAND, off, &v, 4); }

uint64_t PcieRootComplex::mmio_read64(uint32_t off) {
  uint64_t v = ~0ull;
  access(bar0_out, tlm::TLM_READ_COMMAND, off, &v, 8);
  return v;
}

void PcieRootComplex::mmio_write64(uint32_t off, uint64_t v) { access(bar0_out, tlm::TLM_WRITE_COMMAND, off, &v, 8); }

bool PcieRootComplex::bar2_write(uint64_t off, const void* data, uint64_t len) {
  if (off + len < off) return false;  // a range that wraps past 2^64
  const auto* b = static_cast<const uint8_t*>(data);
  for (uint64_t done = 0; done < len; done += 4096) {
    const unsigned n = static_cast<unsigned>(std::min<uint64_t>(4096, len - done));
    if (access(bar2_out, tlm::TLM_WRITE_COMMAND, off + done, const_cast<uint8_t*>(b + done), n) != tlm::TLM_OK_RESPONSE)
      return false;
  }
  return true;
}

bool PcieRootComplex::bar2_read(uint64_t off, void* data, uint64_t len) {
  if (off + len < off) return false;  // a range that wraps past 2^64
  auto* b = static_cast<uint8_t*>(data);
  for (uint64_t done = 0; done < len; done += 4096) {
    const unsigned n = static_cast<unsigned>(std::min<uint64_t>(4096, len - done));
    if (access(bar2_out, tlm::TLM_READ_COMMAND, off + done, b + done, n) != tlm::TLM_OK_RESPONSE) return false;
  }
  return true;
}

bool PcieRootComplex::access(int bar, bool write, uint64_t off, void* data, unsigned len) {
  auto* s = bar < 0 ? &cfg_out : bar == 0 ? &bar0_out : bar == 2 ? &bar2_out : nullptr;
  return s && access(*s, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, off, data, len) == tlm::TLM_OK_RESPONSE;
}

void PcieRootComplex::intx(bool level) {
  if (level && !level_) {
    irqs_.inc();
    irq_event_.notify(sc_core::SC_ZERO_TIME);
  }
  level_ = level;
  intx_line.signal(level);
}

void PcieRootComplex::msi(const MsiMessage& m) {
  // The MSI write lands in host memory (the interrupt controller's doorbell) after crossing the link.
  if (host_mem.size() >= 4 && m.address <= host_mem.size() - 4) host_mem.write(m.address, &m.data, 4);  // written so as not to wrap
  irqs_.inc();
  irq_event_.notify(link_.wire_time(4));
}

uint64_t PcieRootComplex::alloc(uint64_t size, uint64_t align) {
  int error = 0;
  const uint64_t at = alloc_for(0, size, align, error);
  if (!at)
    throw std::runtime_error(std::string(name()) + ": host memory exhausted (" + std::to_string(host_mem.size()) + ")");
  return at;
}

uint64_t PcieRootComplex::alloc_for(uint64_t owner, uint64_t size, uint64_t align, int& error) {
  const uint64_t at = blocks_.alloc(owner, size, align, error);
  if (at) std::memset(host_mem.data() + at, 0, size);
  return at;
}

}  // namespace avp
