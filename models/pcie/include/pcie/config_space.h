// Type-0 PCI configuration space of the endpoint: ids and class, command and
// status, BAR0 (32-bit, 64 KiB) and BAR2/3 (64-bit prefetchable, DRAM size)
// with sizing by writing all-ones, and an MSI capability (64-bit address).
#pragma once
#include <cstdint>

namespace avp {

class ConfigSpace {
 public:
  ConfigSpace(uint32_t bar0_size, uint64_t bar2_size);
  uint32_t read32(uint32_t off) const;
  void write32(uint32_t off, uint32_t v);

  // The command register and its bits the endpoint implements.
  static constexpr uint32_t kCommand = 0x04;
  static constexpr uint16_t kMemorySpace = 0x2, kBusMaster = 0x4, kIntxDisable = 0x400;

  bool memory_enabled() const { return command_ & kMemorySpace; }
  bool bus_master() const { return command_ & kBusMaster; }
  bool intx_disabled() const { return command_ & kIntxDisable; }
  bool msi_enabled() const { return msi_control_ & 1; }
  uint64_t msi_address() const { return msi_addr_; }
  uint16_t msi_data() const { return msi_data_; }
  uint64_t bar0() const { return bar0_ & ~0xFull; }
  uint64_t bar2() const { return bar2_ & ~0xFull; }
  uint64_t bar0_size() const { return bar0_size_; }
  uint64_t bar2_size() const { return bar2_size_; }

  static constexpr uint32_t kMsiCap = 0x50;

 private:
  uint32_t bar0_size_;
  uint64_t bar2_size_;
  uint16_t command_ = 0;
  uint64_t bar0_ = 0, bar2_ = 0xC;  // BAR2: 64-bit (type 2), prefetchable
  uint16_t msi_control_ = 0x0080;   // 64-bit address capable, one vector
  uint64_t msi_addr_ = 0;
  uint16_t msi_data_ = 0;
  uint8_t interrupt_line_ = 0;
};

}  // namespace avp
