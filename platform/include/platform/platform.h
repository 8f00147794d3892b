// The accelerator device: interconnect, memories and every model, built from
// parameters and wired together. One Platform per process (SystemC elaborates once).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "base/params.h"
#include "base/unit.h"
#include "acceldev/acceldev_engine.h"
#include "acceldev/acceldev_iommu.h"
#include "aql/aql_processor.h"
#include "cmp/cmp_host_registers.h"
#include "cmp/command_processor.h"
#include "cmp/window_unit.h"
#include "console/console_device.h"
#include "dma/dma_controller.h"
#include "pcie/pcie_endpoint.h"
#include "pcie/pcie_link.h"
#include "pcie/root_complex.h"
#include "harts/hart_cluster.h"
#include "interconnect/router.h"
#include "memory/core_local_view.h"
#include "memory/memory.h"
#include "sysdev/clint.h"
#include "sysdev/htif.h"
#include "sysdev/plic.h"
#include "sysdev/poweroff_device.h"
#include "sysdev/uart16550.h"

namespace avp {

// The platform's own initiator into the device interconnect as the host unit:
// loaders, raw command-buffer placement and host workloads before PCIe use it.
class DevicePort : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DevicePort> socket;
  explicit DevicePort(sc_core::sc_module_name name);

  // Timed accesses from a SystemC thread; they return the TLM response status.
  tlm::tlm_response_status write(uint64_t addr, const void* data, unsigned len, sc_core::sc_time& delay);
  tlm::tlm_response_status read(uint64_t addr, void* data, unsigned len, sc_core::sc_time& delay);
  // Debug accesses (no time, no side effects on timing); false if unmapped.
  bool write_debug(uint64_t addr, const void* data, uint64_t len);
  bool read_debug(uint64_t addr, void* data, uint64_t len);
  // A timed access on behalf of another unit (a hart of core `core`, a core,
  // the CMP), for host tools that look at memory as that unit sees it. Its own
  // payload, so it may run while another thread's access is in progress.
  tlm::tlm_response_status access_as(UnitId unit, uint32_t core, bool write, uint64_t addr, void* data, unsigned len,
                                     sc_core::sc_time& delay);

 private:
  tlm::tlm_response_status transport(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len, sc_core::sc_time& delay);
  tlm::tlm_generic_payload gp_;
};

class Platform {
 public:
  Platform();
  ~Platform();

  // Shape and global settings.
  Param<uint64_t> seed;
  Param<sc_core::sc_time> quantum;
  Param<sc_core::sc_time> time_limit;
  Param<bool> run_ahead;  // base/run_ahead.h
  Param<std::string> pace;  // real-time pacing (real_time_pace.h): auto, realtime or none
  Param<uint32_t> cores;
  Param<uint32_t> harts_per_core;
  Param<uint64_t> tcdm_slice;
  Param<std::string> refsi_memory_map;
  // Limits of the shape, checked before anything is allocated (docs/configuration.md).
  static constexpr unsigned kMaxHarts = 1024;
  const bool shape_checked_ = check_shape();

  Router bus;
  Memory tcim;
  Memory tcdm;
  CoreLocalView tcdm_local;
  Memory dram;
  DevicePort device_port;
  HartCluster harts;
  WindowUnit windows;
  CommandProcessor cmp;
  CmpHostRegisters cmp_host_regs{&cmp, cmp};  // BAR0 0x1000..: the CMP's host interface
  DmaController dma;
  ConsoleDevice console;
  PcieLink link;
  PcieRootComplex host;
  std::unique_ptr<PcieEndpoint> endpoint;
  std::unique_ptr<AcceldevEngine> acceldev;  // BAR0 0x0008.., Acceldev
  std::unique_ptr<AcceldevIommu> iommu;      // its contexts' view of host memory
  std::unique_ptr<AqlProcessor> aql;
  // System devices for firmware (docs/platform.md, "System devices").
  Clint clint;
  Plic plic;
  Uart16550 uart;
  PowerOffDevice poweroff;
  Htif htif;  // served only for programs with tohost/fromhost symbols (boot)

  // Whether [addr, addr + size) lies inside one memory (for window targets).
  bool is_memory(uint64_t addr, uint64_t size) const;

  // Base address of a bus range (bus.<range>.base): the one address map.
  uint64_t base_of(const std::string& range) const;
  // platform.refsi_memory_map as AVP_INFO_REFSI_MAP entries; ParamError for a bad list.
  std::vector<uint32_t> refsi_map() const;
  uint64_t size_of(const std::string& range) const;
  uint64_t dram_base() const;
  uint64_t tcdm_global_base() const;
  unsigned num_harts() const { return cores.get() * harts_per_core.get(); }
  // Instructions retired by the accelerator's harts and by the clusters
  // simulated beside it (the host system's), for the run's summary.
  uint64_t instructions_retired() const;
  void add_hart_cluster(const HartCluster* c) { other_harts_.push_back(c); }
  // The timeline slices of every cluster's harts still running, up to `at` (HartCluster::trace_running).
  void trace_running_harts(const sc_core::sc_time& at) const;
  void remove_hart_cluster(const HartCluster* c);

  // Whether the simulation loop paces simulated time to host time
  // (platform.pace: realtime, or auto with a person typing at the UART's
  // terminal); throws ParamError for another value.
  bool paced() const;

 private:
  bool check_shape() const;  // throws ParamError naming the parameter
  std::vector<const HartCluster*> other_harts_;
};

}  // namespace avp
