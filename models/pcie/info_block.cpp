#include "pcie/info_block.h"

#include <stdexcept>
#include <string>

namespace avp {

namespace {
const PlatformInfo& checked(const PlatformInfo& info) {
  if (info.xintf_uuids.size() > InfoBlock::kMaxXintf)
    throw std::invalid_argument("the BAR0 info block lists at most " + std::to_string(InfoBlock::kMaxXintf) +
                                " extension devices");
  if (info.refsi_map.size() > AVP_INFO_REFSI_MAP_MAX)
    throw std::invalid_argument("the BAR0 info block lists at most " + std::to_string(AVP_INFO_REFSI_MAP_MAX) +
                                " RefSi memory-map entries");
  return info;
}
}  // namespace

InfoBlock::InfoBlock(const sc_core::sc_object* owner, const PlatformInfo& info)
    : info_(checked(info)), regs_(owner, "BAR0 info", AVP_INFO_MAGIC + 0x1000, RegisterBlock::Misuse::Ignore, "info_latency") {
  XINTF_UUID.on_read([this](unsigned i) { return info_.xintf_uuids[i]; });
  RANGE_BASE.on_read([this](unsigned i) { return info_.ranges[i].base; });
  RANGE_SIZE.on_read([this](unsigned i) { return info_.ranges[i].size; });
  REFSI_MAP.on_read([this](unsigned i) { return i < info_.refsi_map.size() ? info_.refsi_map[i] : 0u; });
}

}  // namespace avp
