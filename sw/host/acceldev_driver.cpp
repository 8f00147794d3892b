#include "acceldev_driver.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "pcie/bar0_regs.h"
#include "pcie/root_complex.h"

namespace avp {

void encode_cmp_submit(uint32_t w[5], unsigned slot, uint32_t offset, uint32_t size) {
  w[0] = ACCELDEV_USER_CMD_TYPE_CMP_SUBMIT | slot << 4;
  w[1] = offset;
  w[2] = size;
  w[3] = w[4] = 0;
}

bool AcceldevDriver::start() {
  if (rc_.cfg_read32(0) != (AVP_PCI_VENDOR_ID | AVP_PCI_DEVICE_ID << 16)) return false;
  rc_.cfg_write32(0x04, 0x0006);  // memory space, bus master
  if (!configs_) configs_ = rc_.alloc(ACCELDEV_MAX_CONTEXTS * ACCELDEV_CONTEXT_CONFIG_SIZE, 64);
  rc_.mmio_write32(ACCELDEV_INTR, 0xFFFFFFFFu);
  rc_.mmio_write32(ACCELDEV_INTR_ENABLE, 0x3F);
  rc_.mmio_write32(ACCELDEV_CONTEXTS_CONFIGS_LO, static_cast<uint32_t>(configs_));
  rc_.mmio_write32(ACCELDEV_CONTEXTS_CONFIGS_HI, static_cast<uint32_t>(configs_ >> 32));
  rc_.mmio_write32(ACCELDEV_ENABLE, 1);
  return true;
}

uint8_t* AcceldevDriver::config(unsigned ctx) { return rc_.host_ptr(configs_ + ACCELDEV_CONTEXT_CONFIG_SIZE * ctx); }

std::unique_ptr<AcceldevContext> AcceldevDriver::open_context() {
  for (unsigned i = 0; i < used_.size(); ++i) {
    if (used_[i]) continue;
    used_[i] = true;
    std::memset(config(i), 0, ACCELDEV_CONTEXT_CONFIG_SIZE);
    return std::unique_ptr<AcceldevContext>(new AcceldevContext(*this, i));
  }
  return nullptr;
}

void AcceldevDriver::submit(const uint32_t w[5]) {
  while (rc_.mmio_read32(ACCELDEV_CMD_MANUAL_FREE) == 0) wait_interrupt();
  rc_.mmio_write32(ACCELDEV_CMD_MANUAL_FEED(0), w[0]);
  for (unsigned i = 1; i < 5; ++i) rc_.mmio_write32(ACCELDEV_CMD_MANUAL_FEED(i), w[i]);
}

uint32_t AcceldevDriver::take_interrupts() {
  const uint32_t v = rc_.mmio_read32(ACCELDEV_INTR) & 0x3F;
  if (v) rc_.mmio_write32(ACCELDEV_INTR, v);
  seen_ |= v;
  return v;
}

void AcceldevDriver::wait_interrupt() {
  if (!rc_.irq_level()) sc_core::wait(rc_.irq_event());
  take_interrupts();
}

AcceldevContext::~AcceldevContext() { close(); }

int AcceldevContext::create_buffer(Kind kind, uint64_t size) {
  if (size == 0 || size > ACCELDEV_BUFFER_MAX_SIZE) return -1;
  int slot = -1;
  if (kind == Kind::Data) {
    for (int s = 0; s < ACCELDEV_NUM_BUFFERS && slot < 0; ++s)
      if (!slots_[s]) slot = s;
    if (slot < 0) return -1;
  }
  PcieRootComplex& rc = drv_.rc();
  Buffer b{kind, size, rc.alloc(ACCELDEV_PAGE_SIZE, ACCELDEV_PAGE_SIZE), {}, slot};
  auto* pt = reinterpret_cast<uint32_t*>(rc.host_ptr(b.page_table));
  for (uint64_t p = 0; p < (size + ACCELDEV_PAGE_SIZE - 1) / ACCELDEV_PAGE_SIZE; ++p) {
    const uint64_t page = rc.alloc(ACCELDEV_PAGE_SIZE, ACCELDEV_PAGE_SIZE);  // zero-filled
    b.pages.push_back(page);
    pt[p] = static_cast<uint32_t>((page >> 12) << 4) | ACCELDEV_PTE_PRESENT;
  }
  if (kind == Kind::Data) {
    slots_[slot] = true;
    const uint32_t w[5] = {ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT | id_ << 4, static_cast<uint32_t>(slot),
                           static_cast<uint32_t>(b.page_table), static_cast<uint32_t>(b.page_table >> 32), 0};
    drv_.submit(w);
  }
  buffers_.push_back(b);
  return static_cast<int>(buffers_.size() - 1);
}

void AcceldevContext::write(int bi, uint64_t offset, const void* data, uint64_t len) {
  const Buffer& b = buffers_.at(bi);
  if (offset + len > b.size) throw std::out_of_range("AcceldevContext::write past the buffer");
  const auto* src = static_cast<const uint8_t*>(data);
  for (uint64_t k = 0; k < len;) {
    const uint64_t va = offset + k, n = std::min<uint64_t>(ACCELDEV_PAGE_SIZE - (va & 0xFFF), len - k);
    std::memcpy(drv_.rc().host_ptr(b.pages[va >> 12] + (va & 0xFFF)), src + k, n);
    k += n;
  }
}

void AcceldevContext::read(int bi, uint64_t offset, void* data, uint64_t len) {
  const Buffer& b = buffers_.at(bi);
  if (offset + len > b.size) throw std::out_of_range("AcceldevContext::read past the buffer");
  auto* dst = static_cast<uint8_t*>(data);
  for (uint64_t k = 0; k < len;) {
    const uint64_t va = offset + k, n = std::min<uint64_t>(ACCELDEV_PAGE_SIZE - (va & 0xFFF), len - k);
    std::memcpy(dst + k, drv_.rc().host_ptr(b.pages[va >> 12] + (va & 0xFFF)), n);
    k += n;
  }
}

bool AcceldevContext::run(int bi, uint64_t offset, uint64_t size) {
  const Buffer& b = buffers_.at(bi);
  if (b.kind != Kind::Code || (offset & 3) || (size & 3)) return false;
  const uint32_t w[5] = {ACCELDEV_DEVICE_CMD_TYPE_RUN | id_ << 4, static_cast<uint32_t>(b.page_table),
                         static_cast<uint32_t>(b.page_table >> 32), static_cast<uint32_t>(offset), static_cast<uint32_t>(size)};
  drv_.submit(w);
  return true;
}

bool AcceldevContext::in_error() { return drv_.config(id_)[ACCELDEV_CONFIG_STATUS] & ACCELDEV_CONTEXT_STATUS_ERROR; }

uint32_t AcceldevContext::fence_counter() {
  uint32_t v;
  std::memcpy(&v, drv_.config(id_) + ACCELDEV_CONFIG_FENCE_COUNTER, 4);
  return v;
}

bool AcceldevContext::wait(uint32_t value) {
  for (;;) {
    if (in_error()) return false;
    if (static_cast<int32_t>(fence_counter() - value) >= 0) return true;
    drv_.wait_interrupt();
  }
}

void AcceldevContext::close() {
  if (!open_) return;
  for (const Buffer& b : buffers_) {
    if (b.kind != Kind::Data) continue;
    const uint32_t w[5] = {ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT | id_ << 4, static_cast<uint32_t>(b.slot), 0, 0, 0};
    drv_.submit(w);
  }
  std::memset(drv_.config(id_), 0, ACCELDEV_CONTEXT_CONFIG_SIZE);
  drv_.used_[id_] = false;
  open_ = false;
}

}  // namespace avp
