// Request rings of the host bridge (docs/host-bridge.md, "Request rings"): a
// connection's requests through shared memory, so that a round trip needs no
// system call while both sides poll. The gate takes a ring request exactly
// where it takes one from the socket, so the synchronisation policy and the
// request handling are the same for both.
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>

#include "base/cpu_relax.h"
#include "host_bridge.h"

namespace avp {
namespace {

// How long the idle gate polls the rings before it sleeps on its sockets
// (and clients must ring the doorbell): a client that posts requests back to
// back finds it awake.
constexpr std::chrono::microseconds kSpin(200);
// How often the spinning gate looks at its sockets (a system call).
constexpr std::chrono::microseconds kSocketLook(20);

uint32_t load(const uint32_t& w) { return __atomic_load_n(&w, __ATOMIC_SEQ_CST); }
void store(uint32_t& w, uint32_t v) { __atomic_store_n(&w, v, __ATOMIC_SEQ_CST); }

}  // namespace

void HostBridge::RingUnmap::operator()(avpb_ring* r) const { munmap(r, sizeof *r); }

int HostBridge::open_ring(Conn& c) {
  if (c.ring) return -EEXIST;
  const int fd = memfd_create("accel-vp-ring", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return -errno;
  // Sealed at its size, as the shared memories are (Memory::share).
  void* p = ftruncate(fd, sizeof(avpb_ring)) == 0 &&
                    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0
                ? mmap(nullptr, sizeof(avpb_ring), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                : MAP_FAILED;
  if (p == MAP_FAILED) {
    const int e = errno;
    close(fd);
    return -e;
  }
  c.ring.reset(static_cast<avpb_ring*>(p));
  c.ring_seen = 0;
  store(c.ring->server_polling, 1);  // the gate is running: it is serving this request
  return fd;
}

bool HostBridge::take_ring_request(Conn& c) {
  if (!c.ring || c.dead) return false;
  avpb_ring& g = *c.ring;
  const uint32_t seq = load(g.req_seq);
  if (seq == c.ring_seen) return false;
  // The client may rewrite the ring at any time: read the header once, then
  // check it, then copy exactly what it announced.
  avpb_request q;
  std::memcpy(&q, &g.req, sizeof q);
  if (seq != c.ring_seen + 1) {
    drop(c, "posted more than one request ahead in its ring");
    return false;
  }
  if (q.length > AVPB_MAX_PAYLOAD) {
    drop(c, "oversized ring message (" + std::to_string(q.length) + " payload bytes, at most " +
                std::to_string(AVPB_MAX_PAYLOAD) + ")");
    return false;
  }
  c.ring_seen = seq;
  c.req = q;
  c.payload.assign(g.req_payload, g.req_payload + q.length);
  c.from_ring = true;
  return true;
}

void HostBridge::ring_reply(Conn& c, const avpb_reply& r, const void* payload, uint32_t len) {
  c.from_ring = false;
  avpb_ring& g = *c.ring;
  std::memcpy(&g.rep, &r, sizeof r);
  if (len) std::memcpy(g.rep_payload, payload, len);
  store(g.rep_seq, c.ring_seen);
  if (load(g.client_sleeping)) syscall(SYS_futex, &g.rep_seq, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

bool HostBridge::ring_request_pending() const {
  for (const auto& [id, c] : conns_)
    if (c->ring && !c->busy && !c->dead && load(c->ring->req_seq) != c->ring_seen) return true;
  return false;
}

bool HostBridge::await_ring_request() {
  bool any_ring = false;
  for (const auto& [id, c] : conns_) any_ring |= c->ring && !c->dead;
  if (!any_ring) return false;
  const auto start = std::chrono::steady_clock::now();
  auto socket_look = start;
  for (auto now = start; now < start + kSpin; now = std::chrono::steady_clock::now()) {
    for (int i = 0; i < 64; ++i) {
      if (ring_request_pending()) return true;
      cpu_relax();
    }
    // Socket clients are not kept waiting for the spin to end.
    if (now >= socket_look + kSocketLook) {
      if (socket_ready()) return true;
      socket_look = now;
    }
  }
  // Clients post, then read server_polling; the gate clears it, then looks
  // again: one of the two sees the other (both sequentially consistent).
  set_ring_polling(false);
  if (!ring_request_pending()) return false;
  set_ring_polling(true);
  return true;
}

void HostBridge::set_ring_polling(bool polling) {
  for (const auto& [id, c] : conns_)
    if (c->ring) store(c->ring->server_polling, polling ? 1 : 0);
}

}  // namespace avp
