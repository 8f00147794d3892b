// The transaction a hart sends through its xintf socket: the device sees
// (subdevice | k << 12, rs1, rs2) and returns rd, or a fault the hart raises.
#pragma once
#include <cstdint>

namespace avp {

struct XintfPayload {
  uint64_t rs1, rs2, rd;
  uint32_t device;
  uint16_t subdevice;
  uint8_t k;      // xcmd number
  uint8_t fault;  // non-zero: the device asks the hart to trap
  uint64_t fault_cause = 0, fault_tval = 0;
};

// Address of the transaction: device << 16 | k << 12 | subdevice.
inline uint64_t xintf_address(const XintfPayload& p) {
  return static_cast<uint64_t>(p.device) << 16 | static_cast<uint64_t>(p.k) << 12 | p.subdevice;
}

}  // namespace avp
