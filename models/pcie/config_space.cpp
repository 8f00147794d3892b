#include "pcie/config_space.h"

#include "pcie/bar0_regs.h"

namespace avp {

ConfigSpace::ConfigSpace(uint32_t bar0_size, uint64_t bar2_size) : bar0_size_(bar0_size), bar2_size_(bar2_size) {}

uint32_t ConfigSpace::read32(uint32_t off) const {
  switch (off) {
    case 0x00: return AVP_PCI_VENDOR_ID | AVP_PCI_DEVICE_ID << 16;
    case kCommand: return command_ | (0x0010u << 16);  // status: capabilities list present
    case 0x08: return AVP_PCI_CLASS << 8 | 0x01;  // class code, revision 1
    case 0x0C: return 0;                          // header type 0
    case 0x10: return static_cast<uint32_t>(bar0_);
    case 0x18: return static_cast<uint32_t>(bar2_);
    case 0x1C: return static_cast<uint32_t>(bar2_ >> 32);
    case 0x2C: return AVP_PCI_VENDOR_ID | AVP_PCI_DEVICE_ID << 16;  // subsystem
    case 0x34: return kMsiCap;
    case 0x3C: return interrupt_line_ | (1u << 8);  // INTA
    case kMsiCap: return 0x05 | (msi_control_ << 16);  // MSI capability id 5, last in the list
    case kMsiCap + 4: return static_cast<uint32_t>(msi_addr_);
    case kMsiCap + 8: return static_cast<uint32_t>(msi_addr_ >> 32);
    case kMsiCap + 12: return msi_data_;
    default: return 0;
  }
}

void ConfigSpace::write32(uint32_t off, uint32_t v) {
  switch (off) {
    case kCommand: command_ = v & (kMemorySpace | kBusMaster | kIntxDisable); break;
    case 0x10: bar0_ = (v & ~(bar0_size_ - 1)) & 0xFFFFFFF0u; break;
    case 0x18: bar2_ = ((bar2_ & ~0xFFFFFFFFull) | (v & ~0xFull)) & ~(bar2_size_ - 1) ; bar2_ |= 0xC; break;
    case 0x1C: bar2_ = ((static_cast<uint64_t>(v) << 32) | (bar2_ & 0xFFFFFFFFull)) & ~(bar2_size_ - 1); bar2_ |= 0xC; break;
    case 0x3C: interrupt_line_ = v & 0xFF; break;
    case kMsiCap: msi_control_ = (msi_control_ & ~1u) | ((v >> 16) & 1); break;
    case kMsiCap + 4: msi_addr_ = (msi_addr_ & ~0xFFFFFFFFull) | (v & ~3u); break;
    case kMsiCap + 8: msi_addr_ = (msi_addr_ & 0xFFFFFFFFull) | static_cast<uint64_t>(v) << 32; break;
    case kMsiCap + 12: msi_data_ = v & 0xFFFF; break;
    default: break;
  }
}

}  // namespace avp
