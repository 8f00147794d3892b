// The Acceldev device file over the host bridge: the driver runs in the
// simulator (AcceldevDriver), one context per opened device file; buffers are
// pages of the shared host memory that the client maps itself. Errno values
// follow docs/host-bridge.md ("The device file").
#include <cerrno>
#include <cstring>

#include "acceldev_driver.h"
#include "host_bridge.h"
#include "pcie/bar0_regs.h"
#include "platform.h"

namespace avp {

AcceldevDriver* HostBridge::driver() {
  if (!driver_ && !driver_failed_) {
    auto d = std::make_unique<AcceldevDriver>(p_.host);
    if (d->start()) driver_ = std::move(d);
    else driver_failed_ = true;
  }
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

int HostBridge::acceldev_wait(Context& c, uint32_t value) {
  // The driver's wait for callers in several SystemC threads, which also
  // gives up when the simulation has nothing left to do (the fence can never come).
  PcieRootComplex& rc = driver_->rc();
  const uint64_t gen = starved_gen_;
  for (;;) {
    if (c.ctx->in_error()) return -EIO;
    if (static_cast<int32_t>(c.ctx->fence_counter() - value) >= 0) return 0;
    if (rc.irq_level()) {
      take_driver_interrupts();
      continue;
    }
    if (gen != starved_gen_) return -EDEADLK;
    sc_core::wait(rc.irq_event() | serviced_ev_ | starved_ev_);
  }
}

int HostBridge::handle_acceldev(Conn& conn, avpb_reply& r, std::vector<uint8_t>& out) {
  const avpb_request& q = conn.req;
  Session& s = *conn.session;
  if (!driver()) return -ENODEV;
  if (q.op == AVPB_DEV_WAIT) {
    auto it = s.contexts.find(q.a[0]);
    return it == s.contexts.end() ? -EBADF : acceldev_wait(it->second, static_cast<uint32_t>(q.a[1]));
  }
  lock_driver();
  const int st = acceldev_op(conn, r, out);
  unlock_driver();
  return st;
}

int HostBridge::acceldev_op(Conn& conn, avpb_reply& r, std::vector<uint8_t>& out) {
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
      c.ctx->close();
      s.contexts.erase(it);
      return 0;
    case AVPB_DEV_CREATE_BUFFER: {
      const uint64_t type = q.a[1], size = q.a[2];
      if (type > 1 || size == 0 || size > ACCELDEV_BUFFER_MAX_SIZE) return -EINVAL;
      const auto kind = type ? AcceldevContext::Kind::Data : AcceldevContext::Kind::Code;
      int b;
      try {
        b = c.ctx->create_buffer(kind, size);
      } catch (const std::runtime_error&) {
        return -ENOMEM;  // host memory exhausted
      }
      if (b < 0) return -ENOSPC;  // every slot of the context is taken
      const AcceldevContext::Buffer& buf = c.ctx->buffer(b);
      if (c.buffer_open.size() <= static_cast<size_t>(b)) c.buffer_open.resize(b + 1);
      c.buffer_open[b] = true;
      r.r[0] = static_cast<uint64_t>(b);
      r.r[1] = static_cast<uint64_t>(buf.slot);
      out.resize(buf.pages.size() * sizeof(uint64_t));
      std::memcpy(out.data(), buf.pages.data(), out.size());
      return 0;
    }
    case AVPB_DEV_CLOSE_BUFFER:
      if (q.a[1] >= c.buffer_open.size() || !c.buffer_open[q.a[1]]) return -EBADF;
      c.buffer_open[q.a[1]] = false;
      return 0;
    case AVPB_DEV_RUN: {
      const uint64_t b = q.a[1], off = q.a[2], size = q.a[3];
      if (b >= c.buffer_open.size() || !c.buffer_open[b] ||
          c.ctx->buffer(static_cast<int>(b)).kind != AcceldevContext::Kind::Code)
        return -EINVAL;
      if ((off & 3) || (size & 3) || off > UINT32_MAX || size > UINT32_MAX) return -EINVAL;
      if (c.ctx->in_error()) return -EIO;
      return c.ctx->run(static_cast<int>(b), off, size) ? 0 : -EINVAL;
    }
    default:
      return -ENOSYS;
  }
}

void HostBridge::release_session(Session& s) {
  if (s.contexts.empty()) return;
  lock_driver();
  for (auto& [h, c] : s.contexts) c.ctx->close();
  s.contexts.clear();
  unlock_driver();
}

}  // namespace avp
