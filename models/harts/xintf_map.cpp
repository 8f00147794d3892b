#include "harts/xintf_map.h"

#include <sstream>

#include "base/params.h"
#include "harts/xintf.h"

namespace avp {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

unsigned parse_privs(const std::string& p, const std::string& what) {
  unsigned privs = 0;
  for (char c : p) {
    if (c == 'm') privs |= 1u << rv::PRV_M;
    else if (c == 's') privs |= 1u << rv::PRV_S;
    else if (c == 'u') privs |= 1u << rv::PRV_U;
    else throw ParamError(what + ": privilege letters are m, s and u");
  }
  return privs;
}

// "x@privs" -> x and the privilege set (all when absent).
std::string with_privs(const std::string& s, unsigned& privs, const std::string& what) {
  size_t at = s.find('@');
  privs = at == std::string::npos ? 0xFu : parse_privs(s.substr(at + 1), what);
  return s.substr(0, at);
}

}  // namespace

const char* xintf_device_name(XintfDevice d) {
  switch (d) {
    case XintfDevice::HartInfo: return "hartinfo";
    case XintfDevice::Barrier: return "barrier";
    case XintfDevice::Dma: return "dma";
  }
  return "?";
}

void XintfMap::configure(const std::string& luns, const std::string& devices) {
  luns_.clear();
  devices_.clear();
  for (const auto& e : split(luns, ',')) {
    const std::string what = "harts.xintf.luns entry '" + e + "'";
    size_t eq = e.find('=');
    if (eq == std::string::npos) throw ParamError(what + ": expected uuid[:seq]=lun[@msu]");
    LunEntry l{};
    std::string key = e.substr(0, eq);
    size_t colon = key.find(':');
    l.uuid = parse_u64(key.substr(0, colon), what);
    l.seq = colon == std::string::npos ? 0 : static_cast<unsigned>(parse_u64(key.substr(colon + 1), what));
    l.lun = static_cast<unsigned>(parse_u64(with_privs(e.substr(eq + 1), l.privs, what), what));
    if (l.lun < 32 || l.lun > 0xFFF) throw ParamError(what + ": device luns are 32..4095 (0..2 are the fallbacks)");
    if (l.seq > 0xFFF || l.uuid >> 52) throw ParamError(what + ": uuid has 52 bits and seq 12 bits");
    if (l.uuid <= AVP_XINTF_UUID_RETURN_MINUS_ONE)
      throw ParamError(what + ": uuids 0..2 are the standard fallback interfaces (Trap, ReturnZero, ReturnMinusOne)");
    luns_.push_back(l);
  }
  for (const auto& e : split(devices, ',')) {
    const std::string what = "harts.xintf.devices entry '" + e + "'";
    size_t eq = e.find('=');
    if (eq == std::string::npos) throw ParamError(what + ": expected lun[@msu]=device[.subdevice]");
    DeviceEntry d{};
    d.lun = static_cast<unsigned>(parse_u64(with_privs(e.substr(0, eq), d.privs, what), what));
    std::string dev = e.substr(eq + 1);
    size_t dot = dev.find('.');
    d.route.subdevice = dot == std::string::npos ? 0 : static_cast<uint16_t>(parse_u64(dev.substr(dot + 1), what));
    dev = dev.substr(0, dot);
    if (dev == "hartinfo") d.route.device = XintfDevice::HartInfo;
    else if (dev == "barrier") d.route.device = XintfDevice::Barrier;
    else if (dev == "dma") d.route.device = XintfDevice::Dma;
    else throw ParamError(what + ": unknown device '" + dev + "' (hartinfo, barrier, dma)");
    if (d.route.subdevice > 0xFFF) throw ParamError(what + ": subdevice has 12 bits");
    devices_.push_back(d);
  }
}

int XintfMap::lookup_lun(uint64_t uuid, unsigned seq, rv::Priv priv) const {
  // The seed's standard fallback interfaces, at every privilege level:
  // org.RiscV:Fallback:ReturnZero (uuid 1) on lun 1, ReturnMinusOne (uuid 2) on lun 2.
  if (seq == 0 && (uuid == AVP_XINTF_UUID_RETURN_ZERO || uuid == AVP_XINTF_UUID_RETURN_MINUS_ONE))
    return static_cast<int>(uuid == AVP_XINTF_UUID_RETURN_ZERO ? AVP_XINTF_LUN_ZERO : AVP_XINTF_LUN_MINUS_ONE);
  for (const auto& l : luns_)
    if (l.uuid == uuid && l.seq == seq && ((l.privs >> priv) & 1)) return static_cast<int>(l.lun);
  return -1;
}

const XintfRoute* XintfMap::route(unsigned lun, rv::Priv priv) const {
  for (const auto& d : devices_)
    if (d.lun == lun && ((d.privs >> priv) & 1)) return &d.route;
  return nullptr;
}

}  // namespace avp
