#include "acceldev_driver.h"

#include <cstring>
#include <stdexcept>

#include "pcie/bar0_regs.h"
#include "pcie/host_port.h"

namespace avp {

namespace {
// With this many free queue entries or fewer the driver keeps one of its
// device FENCEs queued: its FENCE_WAIT interrupt ends a wait for room even
// when the queued commands raise no interrupt themselves.
constexpr uint32_t kFenceReserve = 32;
}  // namespace

void encode_cmp_submit(uint32_t w[5], unsigned slot, uint32_t offset, uint32_t size) {
  w[0] = ACCELDEV_USER_CMD_TYPE_CMP_SUBMIT | slot << 4;
  w[1] = offset;
  w[2] = size;
  w[3] = w[4] = 0;
}

// A ticket lock: callers get the feed in the order they asked for it.
struct AcceldevDriver::Lock {
  AcceldevDriver& d;
  explicit Lock(AcceldevDriver& drv) : d(drv) {
    const uint64_t ticket = d.next_ticket_++;
    while (d.serving_ != ticket) sc_core::wait(d.turn_);
  }
  ~Lock() {
    ++d.serving_;
    d.turn_.notify(sc_core::SC_ZERO_TIME);
  }
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;
};

bool AcceldevDriver::start() {
  if (rc_.cfg_read32(0) != (AVP_PCI_VENDOR_ID | AVP_PCI_DEVICE_ID << 16)) return false;
  rc_.cfg_write32(0x04, 0x0006);  // memory space, bus master
  if (!configs_) configs_ = rc_.alloc(ACCELDEV_MAX_CONTEXTS * ACCELDEV_CONTEXT_CONFIG_SIZE, 64);
  rc_.mmio_write32(ACCELDEV_INTR, 0xFFFFFFFFu);
  rc_.mmio_write32(ACCELDEV_INTR_ENABLE, kInterrupts);
  rc_.mmio_write32(ACCELDEV_CONTEXTS_CONFIGS_LO, static_cast<uint32_t>(configs_));
  rc_.mmio_write32(ACCELDEV_CONTEXTS_CONFIGS_HI, static_cast<uint32_t>(configs_ >> 32));
  rc_.mmio_write32(ACCELDEV_ENABLE, 1);
  fence_seen_ = fence_seq_;  // a reset emptied the queue: no driver FENCE is outstanding
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

void AcceldevDriver::service() {
  const uint32_t v = rc_.mmio_read32(ACCELDEV_INTR) & kInterrupts;
  if (v) rc_.mmio_write32(ACCELDEV_INTR, v);
  seen_ |= v;
  untaken_ |= v;
  ++serviced_count_;
  serviced_.notify(sc_core::SC_ZERO_TIME);
}

uint32_t AcceldevDriver::take_interrupts() {
  service();
  const uint32_t v = untaken_;
  untaken_ = 0;
  return v;
}

void AcceldevDriver::wait_interrupt() {
  if (!rc_.irq_level()) sc_core::wait(rc_.irq_event() | serviced_);
  if (rc_.irq_level()) service();
}

// No lost wake-up: an interrupt serviced by another caller while `done()` ran
// changes serviced_count_, and nothing else runs between that check and the
// wait inside wait_interrupt().
template <typename Done>
void AcceldevDriver::wait_until(Done done) {
  for (;;) {
    const uint64_t n = serviced_count_;
    if (done()) return;
    if (serviced_count_ == n) wait_interrupt();
  }
}

void AcceldevDriver::feed(const uint32_t w[5]) {
  for (unsigned i = 0; i < 5; ++i) rc_.mmio_write32(ACCELDEV_CMD_MANUAL_FEED(i), w[i]);
}

uint32_t AcceldevDriver::feed_fence() {
  ++fence_seq_;
  // Only ever moved forward, before its FENCE is fed: the newest driver FENCE
  // always raises FENCE_WAIT when the device executes it.
  rc_.mmio_write32(ACCELDEV_CMD_FENCE_WAIT, fence_seq_);
  const uint32_t w[5] = {ACCELDEV_DEVICE_CMD_TYPE_FENCE, fence_seq_, 0, 0, 0};
  feed(w);
  return fence_seq_;
}

void AcceldevDriver::make_room() {
  uint32_t free = rc_.mmio_read32(ACCELDEV_CMD_MANUAL_FREE);
  if (free <= kFenceReserve && free > 0) {
    if (fence_seen_ != fence_seq_) fence_seen_ = rc_.mmio_read32(ACCELDEV_CMD_FENCE_LAST);
    if (static_cast<int32_t>(fence_seen_ - fence_seq_) >= 0) {
      feed_fence();
      --free;
    }
  }
  if (free == 0) wait_until([&] { return (free = rc_.mmio_read32(ACCELDEV_CMD_MANUAL_FREE)) > 0; });
}

void AcceldevDriver::submit(const uint32_t w[5]) {
  Lock lock(*this);
  make_room();
  feed(w);
}

void AcceldevDriver::barrier() {
  uint32_t seq = 0;
  {
    Lock lock(*this);
    make_room();
    seq = feed_fence();
  }
  wait_until([&] {
    fence_seen_ = rc_.mmio_read32(ACCELDEV_CMD_FENCE_LAST);
    return static_cast<int32_t>(fence_seen_ - seq) >= 0;
  });
}

uint64_t AcceldevDriver::alloc_page() {
  if (!free_pages_.empty()) {
    const uint64_t pa = free_pages_.back();
    free_pages_.pop_back();
    std::memset(rc_.host_ptr(pa), 0, ACCELDEV_PAGE_SIZE);
    return pa;
  }
  try {
    return rc_.alloc(ACCELDEV_PAGE_SIZE, ACCELDEV_PAGE_SIZE);  // zero-filled
  } catch (const std::runtime_error&) {
    return 0;  // host memory exhausted
  }
}

}  // namespace avp
