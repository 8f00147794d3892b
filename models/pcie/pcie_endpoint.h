// The accelerator's PCIe endpoint (libsystemctlm-soc style): a config socket,
// BAR0 (registers) and BAR2 (device memory aperture) target sockets, a DMA
// target for device-initiated accesses to host memory (bound to the
// interconnect's host window) with its upstream initiator, and an interrupt
// output (INTx level, or MSI writes when MSI is enabled).
#pragma once
#include <functional>
#include <memory>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "cmp/cmp_host_interface.h"
#include "pcie/acceldev_engine.h"
#include "pcie/acceldev_iommu.h"
#include "pcie/config_space.h"
#include "pcie/pcie_link.h"
#include "pcie/register_bank.h"

namespace avp {

// 64-bit atomics on host memory, carried on a device-initiated transaction.
struct PcieAtomicExtension : tlm::tlm_extension<PcieAtomicExtension> {
  enum Op { FetchAdd, CompareSwap } op = FetchAdd;
  uint64_t operand = 0, compare = 0;
  tlm::tlm_extension_base* clone() const override { return new PcieAtomicExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const PcieAtomicExtension&>(o); }
};

struct PlatformInfo {
  uint32_t cores = 0, harts_per_core = 0;
  uint64_t dram_base = 0, dram_size = 0, tcdm_base = 0, tcdm_per_core = 0, tcim_base = 0, tcim_size = 0;
  std::vector<uint64_t> xintf_uuids;
};

class PcieEndpoint : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<PcieEndpoint> cfg;         // type-0 configuration space
  tlm_utils::simple_target_socket<PcieEndpoint> bar0;        // 64 KiB registers
  tlm_utils::simple_target_socket<PcieEndpoint> bar2;        // device DRAM aperture
  tlm_utils::simple_initiator_socket<PcieEndpoint> device;   // BAR2 accesses into the interconnect
  tlm_utils::simple_target_socket<PcieEndpoint> dma;         // device-initiated accesses (host window)
  tlm_utils::simple_initiator_socket<PcieEndpoint> upstream; // to the root complex's host memory
  // BAR0 0x2000..0x3FFF as a TLM target range (address = offset - 0x2000) for
  // a block that is its own TLM target; optional. Offsets registered in the
  // register bank take precedence; unbound, the range is unused offsets.
  tlm_utils::simple_initiator_socket_optional<PcieEndpoint> aql_range{"aql_range"};

  // Interrupt output: INTx level changes, or an MSI message (address, data).
  std::function<void(bool level)> intx;
  std::function<void(uint64_t addr, uint32_t data)> msi;

  PcieEndpoint(sc_core::sc_module_name name, PcieLink& link, CmpHostInterface* cmp, const PlatformInfo& info);

  void raise(uint32_t bits);  // sets INTR bits and updates the interrupt output
  uint32_t intr() const { return intr_; }
  AcceldevEngine& acceldev() { return *acceldev_; }
  // BAR0's register bank, for blocks that live behind BAR0 (the AQL registration and doorbells).
  RegisterBank& bar0_registers() { return regs_; }
  // The reset input (Acceldev registers, queue, runs).
  void reset();

 private:
  void cfg_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void bar0_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void bar2_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned bar2_transport_dbg(tlm::tlm_generic_payload& gp);
  void dma_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned dma_transport_dbg(tlm::tlm_generic_payload& gp);
  // A device access to host physical memory over the link (after the IOMMU).
  void upstream_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  bool host_debug_read(uint64_t pa, void* data, unsigned len);
  bool memory_space_decodes(tlm::tlm_generic_payload& gp, const char* bar);
  bool host_access(bool write, uint64_t pa, void* data, unsigned len, sc_core::sc_time& delay);
  // The Acceldev engine's writes into device memory (its CMP_SUBMIT staging copy).
  bool device_write(uint64_t addr, const void* data, unsigned len, sc_core::sc_time& delay);
  void update_irq();
  void start_of_simulation() override;
  void record_lines();  // the interrupt lines in the VCD (when enabled)
  void map_cmp_registers();
  void map_info_block();

  PcieLink& link_;
  CmpHostInterface* cmp_;
  PlatformInfo info_;
  ConfigSpace config_;
  RegisterBank regs_;
  std::unique_ptr<AcceldevEngine> acceldev_;
  std::unique_ptr<AcceldevIommu> iommu_;
  uint32_t intr_ = 0, intr_enable_ = 0;
  bool level_ = false;
  uint64_t cb_addr_ = 0;
  uint32_t cb_size_ = 0;
  tlm::tlm_generic_payload up_gp_;
  Logger log_;
  Counter mmio_reads_, mmio_writes_, mmio_misuse_, unsupported_requests_, dma_reads_, dma_writes_, interrupts_;
};

}  // namespace avp
