// BAR0's platform information block (0x4000.., bar0_regs.h): read-only
// registers that describe the device to host software.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include <systemc>

#include "pcie/bar0_regs.h"
#include "regs/register_block.h"

namespace avp {

struct PlatformInfo {
  uint32_t cores = 0, harts_per_core = 0;
  uint64_t dram_base = 0, dram_size = 0, tcdm_base = 0, tcdm_per_core = 0, tcim_base = 0, tcim_size = 0;
  std::vector<uint64_t> xintf_uuids;
  struct Range {
    uint64_t base = 0, size = 0;
  };
  std::array<Range, AVP_NUM_RANGES> ranges;  // indexed by avp_info_range
  std::vector<uint32_t> refsi_map;           // AVP_INFO_REFSI_MAP entries, at most AVP_INFO_REFSI_MAP_MAX
};

class InfoBlock {
 public:
  static constexpr unsigned kMaxXintf = 24;  // UUID slots 0x4040..0x40FF, below the range table

  // Throws std::invalid_argument for more than kMaxXintf extension devices.
  InfoBlock(const sc_core::sc_object* owner, const PlatformInfo& info);
  RegisterBlock& registers() { return regs_; }

 private:
  static uint32_t lo(uint64_t v) { return static_cast<uint32_t>(v); }
  static uint32_t hi(uint64_t v) { return static_cast<uint32_t>(v >> 32); }
  using R32 = Reg<uint32_t>;

  PlatformInfo info_;  // checked before the registers are declared
  RegisterBlock regs_;
  R32 MAGIC{regs_, "INFO_MAGIC", AVP_INFO_MAGIC, Access::RO, AVP_INFO_MAGIC_VALUE};
  R32 VERSION{regs_, "INFO_VERSION", AVP_INFO_VERSION, Access::RO, AVP_INFO_VERSION_VALUE};
  R32 CORES{regs_, "INFO_CORES", AVP_INFO_CORES, Access::RO, info_.cores};
  R32 HARTS_PER_CORE{regs_, "INFO_HARTS_PER_CORE", AVP_INFO_HARTS_PER_CORE, Access::RO, info_.harts_per_core};
  R32 DRAM_BASE_LO{regs_, "INFO_DRAM_BASE_LO", AVP_INFO_DRAM_BASE_LO, Access::RO, lo(info_.dram_base)};
  R32 DRAM_BASE_HI{regs_, "INFO_DRAM_BASE_HI", AVP_INFO_DRAM_BASE_HI, Access::RO, hi(info_.dram_base)};
  R32 DRAM_SIZE_LO{regs_, "INFO_DRAM_SIZE_LO", AVP_INFO_DRAM_SIZE_LO, Access::RO, lo(info_.dram_size)};
  R32 DRAM_SIZE_HI{regs_, "INFO_DRAM_SIZE_HI", AVP_INFO_DRAM_SIZE_HI, Access::RO, hi(info_.dram_size)};
  R32 TCDM_BASE{regs_, "INFO_TCDM_BASE", AVP_INFO_TCDM_BASE, Access::RO, lo(info_.tcdm_base)};
  R32 TCDM_PER_CORE{regs_, "INFO_TCDM_PER_CORE", AVP_INFO_TCDM_PER_CORE, Access::RO, lo(info_.tcdm_per_core)};
  R32 TCIM_BASE{regs_, "INFO_TCIM_BASE", AVP_INFO_TCIM_BASE, Access::RO, lo(info_.tcim_base)};
  R32 TCIM_SIZE{regs_, "INFO_TCIM_SIZE", AVP_INFO_TCIM_SIZE, Access::RO, lo(info_.tcim_size)};
  R32 NUM_XINTF{regs_, "INFO_NUM_XINTF", AVP_INFO_NUM_XINTF, Access::RO, static_cast<uint32_t>(info_.xintf_uuids.size())};
  // One 64-bit register per extension device (its two 32-bit halves are _LO and _HI).
  Reg<uint64_t> XINTF_UUID{regs_, "INFO_XINTF_UUID", AVP_INFO_XINTF_UUID_LO(0), Access::RO, 0,
                           static_cast<unsigned>(info_.xintf_uuids.size()), 8};
  R32 NUM_RANGES{regs_, "INFO_NUM_RANGES", AVP_INFO_NUM_RANGES, Access::RO, AVP_NUM_RANGES};
  Reg<uint64_t> RANGE_BASE{regs_, "INFO_RANGE_BASE", AVP_INFO_RANGE_BASE_LO(0), Access::RO, 0, AVP_NUM_RANGES, 16};
  Reg<uint64_t> RANGE_SIZE{regs_, "INFO_RANGE_SIZE", AVP_INFO_RANGE_SIZE_LO(0), Access::RO, 0, AVP_NUM_RANGES, 16};
  R32 REFSI_MAP_COUNT{regs_, "INFO_REFSI_MAP_COUNT", AVP_INFO_REFSI_MAP_COUNT, Access::RO,
                      static_cast<uint32_t>(info_.refsi_map.size())};
  R32 REFSI_MAP{regs_, "INFO_REFSI_MAP", AVP_INFO_REFSI_MAP(0), Access::RO, 0, AVP_INFO_REFSI_MAP_MAX, 4};
};

}  // namespace avp
