// Device API in the style of RefSi's driver, for host programs running in the
// simulation's host thread: open the device (configuration space, BARs,
// interrupts), query its information and memory map, allocate device memory,
// move data through BAR2, execute command buffers through BAR0 and wait for
// them by interrupt, and report command-processor errors.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cmdbuf.h"
#include "pcie/bar0_regs.h"

namespace avp {

class HostPort;

struct AccelDeviceInfo {
  uint32_t cores = 0, harts_per_core = 0;
  uint64_t dram_base = 0, dram_size = 0, tcdm_base = 0, tcdm_per_core = 0, tcim_base = 0, tcim_size = 0;
  std::vector<uint64_t> xintf_uuids;
};

struct DeviceRange {
  uint64_t base = 0, size = 0;
};
using DeviceAddressMap = std::array<DeviceRange, AVP_NUM_RANGES>;  // indexed by avp_info_range

struct CmpError {
  uint32_t code = 0;     // cmp_packets.h avp_cmp_error; 0: none
  uint32_t offset = 0;   // byte offset of the failing packet
  uint32_t info = 0;     // opcode | hart << 8 | hart valid << 31
  uint64_t pc = 0;
  uint32_t cause = 0;
  std::string describe() const;
};

class AccelDevice {
 public:
  explicit AccelDevice(HostPort& rc) : rc_(rc) {}

  // Checks the ids, assigns the BARs, enables memory, bus mastering and the
  // command-processor interrupts, reads the information block. False with a
  // message in error() when the device is not an accel-vp device.
  bool open();
  const AccelDeviceInfo& info() const { return info_; }
  // The device address map from the info block's range table (34 BAR0 reads,
  // so not part of open()); all zero for an info block before version 2.
  DeviceAddressMap read_address_map();
  const std::string& error() const { return error_; }

  // Device DRAM (first fit, 256-byte aligned). Returns 0 when out of memory.
  uint64_t alloc(uint64_t size, uint64_t align = 256);
  void free(uint64_t addr);

  bool write(uint64_t dev_addr, const void* data, uint64_t len);  // through BAR2
  bool read(uint64_t dev_addr, void* data, uint64_t len);

  // Places the buffer in device memory and submits it; false if the queue was full.
  bool execute(const CommandBuffer& cb);
  // Waits (interrupt-driven) until every submitted buffer completed or failed;
  // returns the first error since the last wait (code 0: all finished).
  CmpError wait_idle();

 private:
  bool dram_range(uint64_t addr, uint64_t len) const;
  HostPort& rc_;
  AccelDeviceInfo info_;
  std::string error_;
  std::map<uint64_t, uint64_t> free_;  // start -> size
  std::map<uint64_t, uint64_t> used_;
  std::vector<uint64_t> pending_buffers_;
  uint32_t submitted_ = 0, base_done_ = 0;
};

}  // namespace avp
