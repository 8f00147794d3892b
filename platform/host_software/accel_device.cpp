#include "accel_device.h"

#include <sstream>

#include "cmp/cmp_names.h"
#include "pcie/bar0_regs.h"
#include "pcie/host_port.h"

namespace avp {

std::string CmpError::describe() const {
  std::ostringstream os;
  os << cmp_error_name(code) << " at offset " << offset << " (" << cmp_opcode_name(info & 0xFF) << ")";
  if (info & (1u << 31)) os << " on " << cmp_error_detail(code, info, pc, cause);
  return os.str();
}

bool AccelDevice::open() {
  const uint32_t id = rc_.cfg_read32(0x00);
  if (id != (AVP_PCI_VENDOR_ID | AVP_PCI_DEVICE_ID << 16)) {
    std::ostringstream os;
    os << "no accel-vp device: vendor/device 0x" << std::hex << id;
    error_ = os.str();
    return false;
  }
  rc_.cfg_write32(0x10, 0xF000'0000u);  // BAR0 (the model does not route by BAR address)
  rc_.cfg_write32(0x18, 0x0000'000Cu);
  rc_.cfg_write32(0x1C, 0x0000'0010u);
  rc_.cfg_write32(0x04, 0x0006);  // memory space, bus master
  if (rc_.mmio_read32(AVP_INFO_MAGIC) != AVP_INFO_MAGIC_VALUE) {
    error_ = "platform information block missing (BAR0 + 0x4000)";
    return false;
  }
  info_.cores = rc_.mmio_read32(AVP_INFO_CORES);
  info_.harts_per_core = rc_.mmio_read32(AVP_INFO_HARTS_PER_CORE);
  info_.dram_base = rc_.mmio_read32(AVP_INFO_DRAM_BASE_LO) | uint64_t{rc_.mmio_read32(AVP_INFO_DRAM_BASE_HI)} << 32;
  info_.dram_size = rc_.mmio_read32(AVP_INFO_DRAM_SIZE_LO) | uint64_t{rc_.mmio_read32(AVP_INFO_DRAM_SIZE_HI)} << 32;
  info_.tcdm_base = rc_.mmio_read32(AVP_INFO_TCDM_BASE);
  info_.tcdm_per_core = rc_.mmio_read32(AVP_INFO_TCDM_PER_CORE);
  info_.tcim_base = rc_.mmio_read32(AVP_INFO_TCIM_BASE);
  info_.tcim_size = rc_.mmio_read32(AVP_INFO_TCIM_SIZE);
  const uint32_t n = rc_.mmio_read32(AVP_INFO_NUM_XINTF);
  for (uint32_t i = 0; i < n; ++i)
    info_.xintf_uuids.push_back(rc_.mmio_read32(AVP_INFO_XINTF_UUID_LO(i)) | uint64_t{rc_.mmio_read32(AVP_INFO_XINTF_UUID_HI(i))} << 32);
  free_.clear();
  used_.clear();
  free_[info_.dram_base] = info_.dram_size - ACCELDEV_CMP_STAGING_SIZE;  // the top is the Acceldev engine's
  rc_.mmio_write32(ACCELDEV_INTR, AVP_INTR_CMDBUF_DONE | AVP_INTR_CMP_ERROR | AVP_INTR_CMP_QUEUE_FULL);
  rc_.mmio_write32(ACCELDEV_INTR_ENABLE, rc_.mmio_read32(ACCELDEV_INTR_ENABLE) | AVP_INTR_CMDBUF_DONE | AVP_INTR_CMP_ERROR);
  base_done_ = rc_.mmio_read32(AVP_CB_DONE_COUNT);
  submitted_ = 0;
  return true;
}

DeviceAddressMap AccelDevice::read_address_map() {
  DeviceAddressMap map{};
  const uint32_t n = rc_.mmio_read32(AVP_INFO_VERSION) >= 2 ? rc_.mmio_read32(AVP_INFO_NUM_RANGES) : 0;
  for (uint32_t r = 0; r < n && r < AVP_NUM_RANGES; ++r) {
    map[r].base = rc_.mmio_read32(AVP_INFO_RANGE_BASE_LO(r)) | uint64_t{rc_.mmio_read32(AVP_INFO_RANGE_BASE_HI(r))} << 32;
    map[r].size = rc_.mmio_read32(AVP_INFO_RANGE_SIZE_LO(r)) | uint64_t{rc_.mmio_read32(AVP_INFO_RANGE_SIZE_HI(r))} << 32;
  }
  return map;
}

uint64_t AccelDevice::alloc(uint64_t size, uint64_t align) {
  if (size == 0) size = 1;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const uint64_t start = (it->first + align - 1) & ~(align - 1);
    if (start - it->first + size > it->second) continue;
    const uint64_t block = it->first, block_size = it->second;
    free_.erase(it);
    if (start > block) free_[block] = start - block;
    if (block + block_size > start + size) free_[start + size] = block + block_size - (start + size);
    used_[start] = size;
    return start;
  }
  return 0;
}

void AccelDevice::free(uint64_t addr) {
  auto it = used_.find(addr);
  if (it == used_.end()) return;
  uint64_t start = addr, size = it->second;
  used_.erase(it);
  auto next = free_.lower_bound(start);
  if (next != free_.end() && start + size == next->first) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      prev->second += size;
      return;
    }
  }
  free_[start] = size;
}

bool AccelDevice::dram_range(uint64_t addr, uint64_t len) const {
  return addr >= info_.dram_base && len <= info_.dram_size && addr - info_.dram_base <= info_.dram_size - len;
}

bool AccelDevice::write(uint64_t dev_addr, const void* data, uint64_t len) {
  return dram_range(dev_addr, len) && rc_.bar2_write(dev_addr - info_.dram_base, data, len);
}

bool AccelDevice::read(uint64_t dev_addr, void* data, uint64_t len) {
  return dram_range(dev_addr, len) && rc_.bar2_read(dev_addr - info_.dram_base, data, len);
}

bool AccelDevice::execute(const CommandBuffer& cb) {
  const uint64_t at = alloc(cb.size_bytes());
  if (!at || !write(at, cb.chunks().data(), cb.size_bytes())) return false;
  if (rc_.mmio_read32(AVP_CB_FREE) == 0) {
    free(at);
    return false;
  }
  rc_.mmio_write32(AVP_CB_ADDR_LO, static_cast<uint32_t>(at));
  rc_.mmio_write32(AVP_CB_ADDR_HI, static_cast<uint32_t>(at >> 32));
  rc_.mmio_write32(AVP_CB_SIZE, static_cast<uint32_t>(cb.size_bytes()));
  rc_.mmio_write32(AVP_CB_SUBMIT, 1);
  pending_buffers_.push_back(at);
  ++submitted_;
  return true;
}

CmpError AccelDevice::wait_idle() {
  CmpError err;
  for (;;) {
    const uint32_t intr = rc_.mmio_read32(ACCELDEV_INTR);
    const uint32_t mine = intr & (AVP_INTR_CMDBUF_DONE | AVP_INTR_CMP_ERROR);
    if (mine) rc_.mmio_write32(ACCELDEV_INTR, mine);
    if ((intr & AVP_INTR_CMP_ERROR) && !err.code) {
      err.code = rc_.mmio_read32(AVP_CMP_ERR_CODE);
      err.offset = rc_.mmio_read32(AVP_CMP_ERR_OFFSET);
      err.info = rc_.mmio_read32(AVP_CMP_ERR_INFO);
      err.pc = rc_.mmio_read32(AVP_CMP_ERR_PC_LO) | uint64_t{rc_.mmio_read32(AVP_CMP_ERR_PC_HI)} << 32;
      err.cause = rc_.mmio_read32(AVP_CMP_ERR_CAUSE);
    }
    if (!(rc_.mmio_read32(AVP_CMP_STATUS) & 1)) break;
    if (!rc_.irq_level()) sc_core::wait(rc_.irq_event());
  }
  for (uint64_t b : pending_buffers_) free(b);
  pending_buffers_.clear();
  return err;
}

}  // namespace avp
