// The per-privilege maps of the overloadable opcodes (platform.md section 6):
// (uuid, seq, privilege) -> lun and (lun, privilege) -> (device, subdevice),
// parsed from parameter strings.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "harts/hart_state.h"

namespace avp {

enum class XintfDevice : uint8_t { HartInfo, Barrier, Dma };
const char* xintf_device_name(XintfDevice d);

struct XintfRoute {
  XintfDevice device;
  uint16_t subdevice;
};

class XintfMap {
 public:
  // luns: "uuid[:seq]=lun[@msu],..."; devices: "lun[@msu]=device[.subdevice],...".
  // Throws ParamError naming the bad entry.
  void configure(const std::string& luns, const std::string& devices);
  // The lun of (uuid, seq) at `priv`, or -1 when not recognised.
  int lookup_lun(uint64_t uuid, unsigned seq, rv::Priv priv) const;
  // The device behind (lun, priv), or nullptr (an illegal-instruction trap).
  const XintfRoute* route(unsigned lun, rv::Priv priv) const;

 private:
  struct LunEntry {
    uint64_t uuid;
    unsigned seq;
    unsigned privs;  // bit per rv::Priv
    unsigned lun;
  };
  struct DeviceEntry {
    unsigned lun;
    unsigned privs;
    XintfRoute route;
  };
  std::vector<LunEntry> luns_;
  std::vector<DeviceEntry> devices_;
};

}  // namespace avp
