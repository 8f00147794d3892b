// The accelerator's PCIe endpoint (libsystemctlm-soc style), and nothing
// else: a config socket, BAR0 (registers) and BAR2 (device memory aperture)
// target sockets, a DMA target for device-initiated accesses to host memory
// (bound to the interconnect's host window) with its upstream initiator, the
// interrupt status register and output (INTx level, or MSI writes when MSI is
// enabled). The front ends (Acceldev, the CMP host interface, AQL) are their
// own modules: each maps its register block as a BAR0 window and binds its
// interrupt output to raise().
#pragma once
#include <functional>
#include <memory>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "base/interrupt_line.h"
#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "pcie/bar0_regs.h"
#include "pcie/context_translator.h"
#include "pcie/config_space.h"
#include "pcie/info_block.h"
#include "pcie/pcie_atomic.h"
#include "pcie/pcie_link.h"
#include "regs/register_block.h"

namespace avp {

class PcieEndpoint : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<PcieEndpoint> cfg;         // type-0 configuration space
  tlm_utils::simple_target_socket<PcieEndpoint> bar0;        // 64 KiB registers
  tlm_utils::simple_target_socket<PcieEndpoint> bar2;        // device DRAM aperture
  tlm_utils::simple_initiator_socket<PcieEndpoint> device;   // BAR2 accesses into the interconnect
  tlm_utils::simple_target_socket<PcieEndpoint> dma;         // device-initiated accesses (host window)
  tlm_utils::simple_initiator_socket<PcieEndpoint> upstream; // to the root complex's host memory

  // Interrupt outputs: the INTx level, or MSI messages when MSI is enabled.
  LevelLine intx;
  MsiLine msi;
  // Every device-initiated write that reached host memory (DMA, atomics,
  // debug writes): host physical address and length. A simulated host
  // (docs/full-system.md) drops its harts' decoded code there.
  std::function<void(uint64_t pa, uint64_t len)> host_memory_written;

  PcieEndpoint(sc_core::sc_module_name name, PcieLink& link, const PlatformInfo& info);

  // The interrupt input of every front end (IntrBits sink): sets INTR bits
  // (AVP_INTR_*) and updates the interrupt output.
  void raise(uint32_t bits);
  uint32_t intr() const { return INTR; }
  // BAR0 offsets [start, end) are served by `block` (whose register offsets
  // are BAR0 offsets). Offsets outside every window are misuse.
  void map_window(uint64_t start, uint64_t end, RegisterBlock& block);
  struct Window {
    uint64_t start, end;
    RegisterBlock* block;
  };
  const std::vector<Window>& windows() const { return windows_; }
  // The register at a BAR0 offset ("CB_SUBMIT", "CB_ADDR+4" for a 64-bit
  // register's high half); empty where no register is.
  std::string register_name(uint64_t offset) const;
  // What the BAR sizing handshake of configuration space reports (read by the
  // host bridge, which enumerates the device for its clients).
  const ConfigSpace& config_space() const { return config_; }
  // The reset input: clears the interrupt status and resets every front end
  // that registered with on_reset (Acceldev: registers, queue, runs).
  void reset();
  void on_reset(std::function<void()> f) { reset_inputs_.push_back(std::move(f)); }
  // Device-initiated access to host memory (a front end's DMA), timed by the
  // link; false when it failed.
  bool host_access(bool write, uint64_t pa, void* data, unsigned len, sc_core::sc_time& delay);
  // The same read, untimed and without side effects (debug).
  bool host_debug_read(uint64_t pa, void* data, unsigned len);
  // A front end's write into device memory through BAR2's path (as the host unit).
  bool device_write(uint64_t addr, const void* data, unsigned len, sc_core::sc_time& delay);
  // Device accesses tagged with an Acceldev context go through `t` (the
  // Acceldev IOMMU); without one they are refused.
  void set_context_translator(ContextTranslator t) { translator_ = std::move(t); }

 private:
  void cfg_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void bar0_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void bar2_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned bar2_transport_dbg(tlm::tlm_generic_payload& gp);
  void dma_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned dma_transport_dbg(tlm::tlm_generic_payload& gp);
  unsigned upstream_debug(tlm::tlm_generic_payload& gp);  // a debug access to host memory
  // A device access to host physical memory over the link (after the IOMMU).
  void upstream_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  bool memory_space_decodes(tlm::tlm_generic_payload& gp, const char* bar);
  void update_irq();
  void start_of_simulation() override;
  void record_lines();  // the interrupt lines in the VCD (when enabled)

  PcieLink& link_;
  PlatformInfo info_;
  ConfigSpace config_;
  std::vector<Window> windows_;  // sorted by start
  // INTR (write 1 to clear) and INTR_ENABLE: the interrupt status every source shares.
  RegisterBlock intr_regs_{this, "BAR0 interrupt status", ACCELDEV_INTR_ENABLE + 4, RegisterBlock::Misuse::Ignore,
                           "register_latency"};
  Reg<uint32_t> INTR{intr_regs_, "INTR", ACCELDEV_INTR, Access::W1C};
  Reg<uint32_t> INTR_ENABLE{intr_regs_, "INTR_ENABLE", ACCELDEV_INTR_ENABLE, Access::RW};
  InfoBlock info_block_;
  std::vector<std::function<void()>> reset_inputs_;
  ContextTranslator translator_;
  bool level_ = false;
  tlm::tlm_generic_payload up_gp_;
  Logger log_;
  Counter mmio_reads_, mmio_writes_, mmio_misuse_, unsupported_requests_, dma_reads_, dma_writes_, interrupts_;
};

}  // namespace avp
