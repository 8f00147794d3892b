// The host side of the PCIe link: host memory (system RAM, reached by the
// device's DMA), the host CPU's configuration and MMIO accesses to the
// endpoint (timed by the link: posted writes, non-posted reads), and
// interrupt delivery (INTx level or MSI) to the host thread as an event.
// Every method that takes time must be called from a SystemC thread.
#pragma once
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "base/block_allocator.h"
#include "base/interrupt_line.h"
#include "base/log.h"
#include "base/stats.h"
#include "memory/memory.h"
#include "pcie/host_port.h"
#include "pcie/pcie_link.h"

namespace avp {

class PcieRootComplex : public sc_core::sc_module, public HostPort {
 public:
  Memory host_mem;
  tlm_utils::simple_initiator_socket<PcieRootComplex> cfg_out, bar0_out, bar2_out;

  PcieRootComplex(sc_core::sc_module_name name, PcieLink& link);

  uint32_t cfg_read32(uint32_t off) override;
  void cfg_write32(uint32_t off, uint32_t v) override;
  uint32_t mmio_read32(uint32_t off) override;
  void mmio_write32(uint32_t off, uint32_t v) override;
  uint64_t mmio_read64(uint32_t off) override;
  void mmio_write64(uint32_t off, uint64_t v) override;
  bool bar2_write(uint64_t off, const void* data, uint64_t len) override;
  bool bar2_read(uint64_t off, void* data, uint64_t len) override;
  // One access of any size the link carries (1, 2, 4, 8 bytes for registers,
  // up to 4 KiB for BAR2) to configuration space (bar < 0) or BAR0/BAR2, for
  // host programs outside the simulator. False for another BAR or a failed access.
  bool access(int bar, bool write, uint64_t off, void* data, unsigned len);

  // Interrupts from the endpoint.
  void intx(bool level);
  void msi(const MsiMessage& m);
  // The INTx wire into the host's interrupt controller, when the host is a
  // simulated system (the host system's PLIC); every level change.
  LevelLine intx_line;
  bool irq_level() const override { return level_; }
  const sc_core::sc_event& irq_event() const override { return irq_event_; }
  uint64_t interrupts() const { return irqs_.value(); }

  // Host memory (HostPort): zero-filled blocks for the platform's drivers and
  // runtimes (never freed; throws std::runtime_error when none is left).
  uint64_t alloc(uint64_t size, uint64_t align = 4096) override;
  // Zero-filled blocks of another owner (a host program's session: ids from
  // 1), freed together; 0 with `error` as BlockAllocator::alloc sets it.
  uint64_t alloc_for(uint64_t owner, uint64_t size, uint64_t align, int& error);
  void free_all(uint64_t owner) { blocks_.free_all(owner); }
  uint8_t* host_ptr(uint64_t pa) override { return host_mem.data() + pa; }

 private:
  tlm::tlm_response_status access(tlm_utils::simple_initiator_socket<PcieRootComplex>& s, tlm::tlm_command cmd,
                                  uint64_t addr, void* data, unsigned len);
  PcieLink& link_;
  bool level_ = false;
  BlockAllocator blocks_;  // of host memory, from 1 MiB
  sc_core::sc_event irq_event_;
  Logger log_;
  Counter irqs_;
  // Host-observed latency per BAR and direction (BAR0 registers, BAR2 device memory).
  Histogram bar0_read_latency_, bar0_write_latency_, bar2_read_latency_, bar2_write_latency_;
};

}  // namespace avp
