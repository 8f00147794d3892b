// The Acceldev device file over the host bridge: the driver runs in the
// simulator (AcceldevDriver), one context per opened device file; buffers are
// pages of the shared host memory that the client maps itself. Errno values
// follow docs/host-bridge.md ("The device file").
#include <cerrno>
#include <cstring>

#include "acceldev_driver.h"
#include "host_bridge.h"
#include "pcie/bar0_regs.h"
#include "platform/platform.h"

namespace avp {

AcceldevDriver* HostBridge::driver() {
  if (driver_ || driver_failed_) return driver_.get();
  // Starting waits on the device: one client starts it, the others wait for
  // that start instead of starting (and replacing) a driver of their own.
  lock_driver();
  if (!driver_ && !driver_failed_) {
    auto d = std::make_unique<AcceldevDriver>(p_.host);
    if (d->start()) driver_ = std::move(d);
    else driver_failed_ = true;
  }
  unlock_driver();
  return driver_.get();
}

void HostBridge::lock_driver() {
  while (driver_locked_) sc_core::wait(driver_free_);
  driver_locked_ = true;
}

void HostBridge::unlock_driver() {
  driver_locked_ = false;
  driver_free_.notify(sc_core::SC_ZERO_TIME);
}

void HostBridge::take_driver_interrupts() {
  lock_driver();
  driver_->take_interrupts();
  unlock_driver();
  serviced_ev_.notify(sc_core::SC_ZERO_TIME);  // what was cleared may be another waiter's fence
}

void HostBridge::drain_device() {
  // A device FENCE behind everything queued: once FENCE_LAST shows it, every
  // RUN submitted before has finished and its context can go without its
  // commands reaching a new context that gets the same id.
  const uint32_t value = 0x80000000u | ++drain_seq_;
  const uint32_t w[5] = {ACCELDEV_DEVICE_CMD_TYPE_FENCE, value, 0, 0, 0};
  driver_->submit(w);
  while (p_.host.mmio_read32(ACCELDEV_CMD_FENCE_LAST) != value) sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
}

int HostBridge::acceldev_wait(Context& c, uint32_t value) {
  // The driver's wait for callers in several SystemC threads, which also
  // gives up when the simulation has nothing left to do (the fence can never come).
  HostPort& rc = driver_->rc();
  const uint64_t gen = starved_gen_;
  for (;;) {
    if (c.ctx->in_error()) return -EIO;
    if (static_cast<int32_t>(c.ctx->fence_counter() - value) >= 0) return 0;
    if (rc.irq_level()) {
      take_driver_interrupts();
      continue;
    }
    if (gen != starved_gen_) return -EDEADLK;  // nothing left to happen: the fence can never come
    sc_core::wait(rc.irq_event() | serviced_ev_ | starved_ev_);
  }
}

int HostBridge::handle_acceldev(Conn& conn, avpb_reply& r, int& pass_fd) {
  const avpb_request& q = conn.req;
  Session& s = *conn.session;
  if (!driver()) return -ENODEV;
  if (q.op == AVPB_DEV_WAIT) {
    auto it = s.contexts.find(q.a[0]);
    return it == s.contexts.end() ? -EBADF : acceldev_wait(it->second, static_cast<uint32_t>(q.a[1]));
  }
  lock_driver();
  const int st = acceldev_op(conn, r, pass_fd);
  unlock_driver();
  return st;
}

int HostBridge::acceldev_op(Conn& conn, avpb_reply& r, int& pass_fd) {
  const avpb_request& q = conn.req;
  Session& s = *conn.session;
  if (q.op == AVPB_DEV_OPEN) {
    auto ctx = driver_->open_context();
    if (!ctx) return -ENOSPC;
    const uint64_t h = s.next_context++;
    s.contexts[h].ctx = std::move(ctx);
    r.r[0] = h;
    return 0;
  }
  auto it = s.contexts.find(q.a[0]);
  if (it == s.contexts.end()) return -EBADF;
  Context& c = it->second;
  switch (q.op) {
    case AVPB_DEV_CLOSE:
      drain_device();
      close_context(c);
      s.contexts.erase(it);
      return 0;
    case AVPB_DEV_CREATE_BUFFER: {
      const uint64_t type = q.a[1], size = q.a[2];
      if (type > 1 || size == 0 || size > ACCELDEV_BUFFER_MAX_SIZE) return -EINVAL;
      const auto kind = type ? AcceldevContext::Kind::Data : AcceldevContext::Kind::Code;
      const int b = c.ctx->create_buffer(kind, size);
      if (b < 0) return b;  // -ENOSPC (every slot taken), -ENOMEM (host memory), -EINVAL
      const AcceldevContext::Buffer& buf = *c.ctx->buffer(b);
      pass_fd = host_grants_.grant(buf.pages);
      if (pass_fd < 0) {
        (void)c.ctx->close_buffer(b);
        return pass_fd;
      }
      c.granted_pages.insert(c.granted_pages.end(), buf.pages.begin(), buf.pages.end());
      if (c.buffer_open.size() <= static_cast<size_t>(b)) c.buffer_open.resize(b + 1);
      c.buffer_open[b] = true;
      r.r[0] = static_cast<uint64_t>(b);
      r.r[1] = static_cast<uint64_t>(buf.slot);
      return 0;
    }
    case AVPB_DEV_CLOSE_BUFFER:
      // As the driver's release of a buffer file: the context's scheduled
      // RUNs finish, a data buffer's slot is unbound (free for the context's
      // next buffer); the pages stay until the context closes, since the
      // client's mappings of them outlive the descriptor.
      if (q.a[1] >= c.buffer_open.size() || !c.buffer_open[q.a[1]]) return -EBADF;
      c.buffer_open[q.a[1]] = false;
      return -c.ctx->close_buffer(static_cast<int>(q.a[1]), true).err();
    case AVPB_DEV_RUN: {
      const uint64_t b = q.a[1], off = q.a[2], size = q.a[3];
      if (b >= c.buffer_open.size() || !c.buffer_open[b]) return -EINVAL;
      return -c.ctx->run(static_cast<int>(b), off, size).err();  // EINVAL, EIO as the driver decides
    }
    default:
      return -ENOSYS;
  }
}

// The context's buffers go back to the driver's pages, which it hands out
// again only with the driver locked: their grants end first.
void HostBridge::close_context(Context& c) {
  c.ctx->close();
  host_grants_.revoke(c.granted_pages);
  c.granted_pages.clear();
}

void HostBridge::release_session(Session& s) {
  for (const auto& [addr, bytes] : s.dram_blocks) dram_grants_.revoke_block(addr - p_.dram_base(), bytes);
  s.dram_blocks.clear();
  dram_alloc_.free_all(s.id);
  host_grants_.revoke(s.host_pages);
  p_.host.free_all(s.id);
  if (s.contexts.empty()) return;
  lock_driver();
  drain_device();
  for (auto& [h, c] : s.contexts) close_context(c);
  s.contexts.clear();
  unlock_driver();
}

}  // namespace avp
