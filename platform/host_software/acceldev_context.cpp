// The per-context operations of the Acceldev host driver (one open file of
// the original driver); errno values as the original ioctls return them.
#include <cerrno>
#include <cstring>

#include "acceldev_driver.h"
#include "pcie/bar0_regs.h"
#include "pcie/host_port.h"

namespace avp {

namespace {
// True in a SystemC thread of a running simulation: the only place a call may wait.
bool can_wait() {
  const sc_core::sc_curr_proc_kind k = sc_core::sc_get_current_process_handle().proc_kind();
  return sc_core::sc_get_status() == sc_core::SC_RUNNING && (k == sc_core::SC_THREAD_PROC_ || k == sc_core::SC_CTHREAD_PROC_);
}
}  // namespace

AcceldevContext::~AcceldevContext() {
  if (released_) return;
  if (can_wait()) {
    close();
    return;
  }
  // Outside the simulation nothing can be sent: forget the buffers and the id.
  open_ = false;
  for (auto& [handle, b] : buffers_) {
    for (uint64_t pa : b.pages) drv_.free_page(pa);
    drv_.free_page(b.page_table);
  }
  buffers_.clear();
  for (Buffer& b : retired_) {
    for (uint64_t pa : b.pages) drv_.free_page(pa);
    drv_.free_page(b.page_table);
  }
  retired_.clear();
  free_id();
}

AcceldevContext::Buffer* AcceldevContext::find(int b) {
  auto it = buffers_.find(b);
  return it == buffers_.end() ? nullptr : &it->second;
}

const AcceldevContext::Buffer* AcceldevContext::buffer(int b) const {
  auto it = buffers_.find(b);
  return it == buffers_.end() ? nullptr : &it->second;
}

int AcceldevContext::slot(int b) const {
  const Buffer* buf = buffer(b);
  return buf && buf->kind == Kind::Data ? buf->slot : -EINVAL;
}

int AcceldevContext::create_buffer(Kind kind, uint64_t size) {
  if (!open_) return -EBADF;
  if (size == 0 || size > ACCELDEV_BUFFER_MAX_SIZE) return -EINVAL;
  int slot = -1;
  if (kind == Kind::Data) {
    for (int s = 0; s < ACCELDEV_NUM_BUFFERS && slot < 0; ++s)
      if (!slots_[s]) slot = s;
    if (slot < 0) return -ENOSPC;
  }
  Buffer b{kind, size, drv_.alloc_page(), {}, slot};
  if (!b.page_table) return -ENOMEM;
  auto* pt = reinterpret_cast<uint32_t*>(drv_.rc().host_ptr(b.page_table));
  for (uint64_t p = 0; p < (size + ACCELDEV_PAGE_SIZE - 1) / ACCELDEV_PAGE_SIZE; ++p) {
    const uint64_t page = drv_.alloc_page();
    if (!page) {
      release(b);
      return -ENOMEM;
    }
    b.pages.push_back(page);
    pt[p] = static_cast<uint32_t>((page >> 12) << 4) | ACCELDEV_PTE_PRESENT;
  }
  const int handle = drv_.next_handle_++;
  buffers_.emplace(handle, b);
  if (kind == Kind::Data) {
    slots_[slot] = true;
    const uint32_t w[5] = {ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT | id_ << 4, static_cast<uint32_t>(slot),
                           static_cast<uint32_t>(b.page_table), static_cast<uint32_t>(b.page_table >> 32), 0};
    drv_.submit(w);
  }
  return handle;
}

AcceldevStatus AcceldevContext::write(int bi, uint64_t offset, const void* data, uint64_t len) {
  const Buffer* b = buffer(bi);
  if (!b || offset > b->size || len > b->size - offset) return EINVAL;
  const auto* src = static_cast<const uint8_t*>(data);
  for (uint64_t k = 0; k < len;) {
    const uint64_t va = offset + k, n = std::min<uint64_t>(ACCELDEV_PAGE_SIZE - (va & 0xFFF), len - k);
    std::memcpy(drv_.rc().host_ptr(b->pages[va >> 12] + (va & 0xFFF)), src + k, n);
    k += n;
  }
  return 0;
}

AcceldevStatus AcceldevContext::read(int bi, uint64_t offset, void* data, uint64_t len) {
  const Buffer* b = buffer(bi);
  if (!b || offset > b->size || len > b->size - offset) return EINVAL;
  auto* dst = static_cast<uint8_t*>(data);
  for (uint64_t k = 0; k < len;) {
    const uint64_t va = offset + k, n = std::min<uint64_t>(ACCELDEV_PAGE_SIZE - (va & 0xFFF), len - k);
    std::memcpy(dst + k, drv_.rc().host_ptr(b->pages[va >> 12] + (va & 0xFFF)), n);
    k += n;
  }
  return 0;
}

AcceldevStatus AcceldevContext::run(int bi, uint64_t offset, uint64_t size) {
  if (!open_) return EBADF;
  const Buffer* b = buffer(bi);
  if (!b || b->kind != Kind::Code || ((offset | size) & 3) || offset > UINT32_MAX || size > UINT32_MAX) return EINVAL;
  if (in_error()) return EIO;  // refused: the device would skip it without a word
  const uint32_t w[5] = {ACCELDEV_DEVICE_CMD_TYPE_RUN | id_ << 4, static_cast<uint32_t>(b->page_table),
                         static_cast<uint32_t>(b->page_table >> 32), static_cast<uint32_t>(offset), static_cast<uint32_t>(size)};
  drv_.submit(w);
  return 0;
}

bool AcceldevContext::in_error() {
  return open_ && (drv_.config(id_)[ACCELDEV_CONFIG_STATUS] & ACCELDEV_CONTEXT_STATUS_ERROR);
}

uint32_t AcceldevContext::fence_counter() {
  uint32_t v = 0;
  if (open_) std::memcpy(&v, drv_.config(id_) + ACCELDEV_CONFIG_FENCE_COUNTER, 4);
  return v;
}

AcceldevStatus AcceldevContext::wait(uint32_t value) {
  const uint64_t signals = interrupts_;
  for (;;) {
    if (!open_) return EBADF;
    if (interrupts_ != signals) return EINTR;
    if (in_error()) return EIO;
    if (static_cast<int32_t>(fence_counter() - value) >= 0) return 0;
    drv_.wait_interrupt();
  }
}

void AcceldevContext::interrupt_waits() {
  ++interrupts_;
  drv_.serviced_.notify(sc_core::SC_ZERO_TIME);  // wakes the waiters to see it
}

// Unbinds a data buffer (queued after every RUN already scheduled, so those
// still see it) and releases its slot; its memory is freed by the caller once
// the device has executed everything before the unbind.
void AcceldevContext::release(Buffer& b) {
  if (b.kind == Kind::Data && b.slot >= 0 && slots_[b.slot]) {
    const uint32_t w[5] = {ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT | id_ << 4, static_cast<uint32_t>(b.slot), 0, 0, 0};
    drv_.submit(w);
    slots_[b.slot] = false;
  }
  for (uint64_t pa : b.pages) drv_.free_page(pa);
  if (b.page_table) drv_.free_page(b.page_table);
  b.pages.clear();
  b.page_table = 0;
}

AcceldevStatus AcceldevContext::close_buffer(int bi, bool keep_pages) {
  if (!open_) return EBADF;
  auto it = buffers_.find(bi);
  if (it == buffers_.end()) return EINVAL;
  Buffer b = it->second;
  buffers_.erase(it);  // no RUN of it can be sent from here on
  if (b.kind == Kind::Data && b.slot >= 0) {
    const uint32_t w[5] = {ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT | id_ << 4, static_cast<uint32_t>(b.slot), 0, 0, 0};
    drv_.submit(w);
  }
  drv_.barrier();  // every RUN scheduled before the unbind has been executed
  if (b.kind == Kind::Data && b.slot >= 0) slots_[b.slot] = false;
  b.slot = -1;
  if (keep_pages) retired_.push_back(std::move(b));
  else release(b);
  return 0;
}

void AcceldevContext::close() {
  if (!open_) return;
  open_ = false;  // no more RUNs or buffers; WAITs in progress end with EBADF
  for (auto& [handle, b] : buffers_) {
    if (b.kind != Kind::Data) continue;
    const uint32_t w[5] = {ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT | id_ << 4, static_cast<uint32_t>(b.slot), 0, 0, 0};
    drv_.submit(w);
  }
  drv_.barrier();  // every RUN scheduled on the context, and the unbinds, have been executed
  for (auto& [handle, b] : buffers_) {
    b.slot = -1;
    release(b);
  }
  buffers_.clear();
  for (Buffer& b : retired_) release(b);
  retired_.clear();
  free_id();
}

void AcceldevContext::free_id() {
  std::memset(drv_.config(id_), 0, ACCELDEV_CONTEXT_CONFIG_SIZE);
  drv_.used_[id_] = false;
  released_ = true;
}

}  // namespace avp
