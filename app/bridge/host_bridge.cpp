// The host bridge's gate: accepts clients, reads their requests, hands each to
// the connection's SystemC thread and decides when simulated time may pass.
// Synchronisation policy (docs/host-bridge.md): the simulation advances only
// while some client has a request in progress; with none pending the gate
// blocks on the sockets and simulated time stands still, so one client gets
// the same simulated times on every run.
#include "host_bridge.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>
#include <stdexcept>

#include "acceldev_driver.h"
#include "base/log.h"
#include "pcie/bar0_regs.h"
#include "platform/platform.h"
#include "platform/run_signals.h"

namespace avp {
namespace {

// How often, in simulated time, the gate looks for other clients' requests
// while one is in progress.
const sc_core::sc_time kPollInterval(1, sc_core::SC_US);
// How often, in wall-clock time, the gate looks at its sockets and the child
// while it serves ring requests without sleeping.
constexpr std::chrono::microseconds kSocketCheck(20);
// How long, in wall-clock milliseconds, an idle gate sleeps on its sockets
// before it looks for a stop signal that came just before it slept.
constexpr int kIdlePoll = 200;
// Input read ahead of the request in progress: room for one more whole request.
constexpr size_t kMaxInput = 2 * (sizeof(avpb_request) + AVPB_MAX_PAYLOAD);
// Replies a client has not read yet: past this the gate neither reads nor
// takes its requests until it reads (backpressure), so a client that never
// reads costs at most this and one more reply.
constexpr size_t kMaxQueuedReplies = 4 * (sizeof(avpb_reply) + AVPB_MAX_PAYLOAD);

}  // namespace

HostBridge::HostBridge(Platform& platform, const std::string& socket_path)
    : p_(platform),
      path_(socket_path),
      // Below the staging area at the end of DRAM where the engine copies command buffers.
      dram_alloc_(p_.dram_base(), p_.dram_base() + p_.dram.size() - std::min<uint64_t>(p_.dram.size(), ACCELDEV_CMP_STAGING_SIZE)),
      host_grants_(p_.host.host_mem),
      // Nothing is stored in DRAM before a session starts, so its storage may be replaced here.
      dram_grants_(p_.dram) {
  spare_fd_ = open("/dev/null", O_RDONLY | O_CLOEXEC);
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  if (path_.size() >= sizeof(sa.sun_path)) throw std::runtime_error(path_ + ": socket path too long");
  std::strcpy(sa.sun_path, path_.c_str());
  listen_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (listen_fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  unlink(path_.c_str());
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || listen(listen_fd_, 64) != 0) {
    const std::string err = std::strerror(errno);
    close(listen_fd_);
    throw std::runtime_error(path_ + ": " + err);
  }
}

HostBridge::~HostBridge() {
  for (auto& [id, c] : conns_) {
    if (c->fd >= 0) close(c->fd);
    // The simulation has stopped: contexts still open cannot be closed on the
    // device any more (that takes simulated time), so they are let go as they are.
    if (c->session)
      for (auto& [h, ctx] : c->session->contexts) (void)ctx.ctx.release();
  }
  if (spare_fd_ >= 0) close(spare_fd_);
  if (listen_fd_ >= 0) {
    close(listen_fd_);
    unlink(path_.c_str());
  }
}

void HostBridge::irq_watch() {
  for (;;) {
    sc_core::wait(p_.host.irq_event());
    ++irq_count_;
    irq_ev_.notify(sc_core::SC_ZERO_TIME);
  }
}

int HostBridge::serve(pid_t child) {
  if (!irq_watch_started_) sc_core::sc_spawn([this] { irq_watch(); }, "host_bridge_irq");
  irq_watch_started_ = true;  // serve may be called again (one child after another)
  int status = 0;
  bool child_running = child > 0;
  for (;;) {
    for (auto it = conns_.begin(); it != conns_.end();) it = it->second->finished ? conns_.erase(it) : std::next(it);
    bool busy = false;
    for (auto& [id, c] : conns_) busy |= c->busy;
    // Socket and child checks cost system calls: while ring requests keep
    // coming they are made once per kSocketCheck of wall-clock time.
    const bool checked = ring_served_ && std::chrono::steady_clock::now() < sockets_checked_ + kSocketCheck;
    if (child_running && !checked) {
      int st = 0;
      if (waitpid(child, &st, WNOHANG) == child) {
        child_running = false;
        status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      }
    }
    const bool stopping = child > 0 ? !child_running : shutdown_requested_;
    if (stopping && conns_.empty()) return status;
    if (stop_signal()) {
      // SIGINT/SIGTERM: the session's run loop, which writes the outputs,
      // looks at it once sc_start returns; an idle gate never lets simulated
      // time pass, so it pauses the simulation for it.
      sc_core::sc_pause();
      sc_core::wait(sc_core::SC_ZERO_TIME);
      continue;
    }

    // Blocking here freezes simulated time: nothing is asked of the device.
    // A ring request that comes while the gate spins saves the sleep.
    const int timeout = busy || work_without_sockets() ? 0 : child_running || stopping ? 20 : kIdlePoll;
    const bool sleeps = timeout != 0 && !await_ring_request();
    if (sleeps || !checked) {
      check_sockets(sleeps ? timeout : 0);
      if (sleeps) set_ring_polling(true);
      sockets_checked_ = std::chrono::steady_clock::now();
      ring_served_ = false;
    }
    for (auto& [id, c] : conns_) {
      if (c->busy || c->finished || (c->out.size() >= kMaxQueuedReplies && !c->dead)) continue;
      c->has_request = take_request(*c);
      if (!c->has_request) ring_served_ |= c->has_request = take_ring_request(*c);
      if (c->has_request || c->dead) {
        c->busy = true;  // until its thread has answered (or released a closed client's session)
        c->wake.notify(sc_core::SC_ZERO_TIME);
      }
    }
    busy = false;
    for (auto& [id, c] : conns_) busy |= c->busy;
    if (!busy) {
      // After a sleep on the sockets, the session's run loop gets its turn
      // (the progress line, a SIGUSR1 snapshot): simulated time stands still.
      if (sleeps) sc_core::sc_pause();
      sc_core::wait(sc_core::SC_ZERO_TIME);
      continue;
    }
    // Requests in progress: let the simulation run. When nothing but the gate
    // is left to happen, those requests can never complete: they are failed.
    if (!sc_core::sc_pending_activity()) {
      ++starved_gen_;
      starved_ev_.notify(sc_core::SC_ZERO_TIME);
    }
    sc_core::wait(std::max(kPollInterval, sc_core::sc_time_to_pending_activity()), done_ev_);
  }
}

bool HostBridge::work_without_sockets() const {
  for (const auto& [id, c] : conns_) {
    if (c->busy || c->finished) continue;
    if (c->dead) return true;  // its thread closes it (after BYE, a drop)
    avpb_request r;
    if (c->out.size() >= kMaxQueuedReplies || c->in.size() < sizeof r) continue;
    std::memcpy(&r, c->in.data(), sizeof r);
    if (r.length > AVPB_MAX_PAYLOAD || c->in.size() >= sizeof r + r.length) return true;  // read ahead, or to drop
  }
  return false;
}

std::vector<pollfd> HostBridge::socket_set(std::vector<Conn*>& order) const {
  std::vector<pollfd> pfd{{listen_fd_, POLLIN, 0}};
  for (auto& [id, c] : conns_) {
    if (c->dead) continue;
    // Backpressure both ways: no reading while its replies are unread or its
    // input already holds a whole request ahead; the socket then fills and
    // the client blocks.
    const bool reads = c->out.size() < kMaxQueuedReplies && c->in.size() < kMaxInput;
    pfd.push_back({c->fd, static_cast<short>((reads ? POLLIN : 0) | (c->out.empty() ? 0 : POLLOUT)), 0});
    order.push_back(c.get());
  }
  return pfd;
}

bool HostBridge::socket_ready() const {
  std::vector<Conn*> order;
  std::vector<pollfd> pfd = socket_set(order);
  return poll(pfd.data(), pfd.size(), 0) > 0;
}

void HostBridge::check_sockets(int timeout_ms) {
  std::vector<Conn*> order;
  std::vector<pollfd> pfd = socket_set(order);
  if (poll(pfd.data(), pfd.size(), timeout_ms) < 0) {
    if (errno == EINTR) return;
    throw std::runtime_error(std::string("host bridge: poll: ") + std::strerror(errno));
  }
  if (pfd[0].revents & POLLIN) accept_clients();
  for (size_t i = 0; i < order.size(); ++i) {
    Conn& c = *order[i];
    const short ev = pfd[i + 1].revents;
    if (ev & POLLOUT) flush(c);
    // A client gone while its input is full (not read, so poll keeps
    // reporting the hang-up): nothing it sent can be answered.
    if (!(ev & POLLIN) && (ev & (POLLHUP | POLLERR)) && c.in.size() >= kMaxInput) c.dead = true;
    else if (ev & (POLLIN | POLLHUP | POLLERR)) read_from(c);
  }
}

void HostBridge::accept_clients() {
  for (;;) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0 && (errno == EMFILE || errno == ENFILE) && spare_fd_ >= 0) {
      // Out of descriptors: the client waiting would keep the listener ready
      // (a busy loop), so the spare descriptor makes room to accept and close it.
      close(spare_fd_);
      const int refused = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (refused >= 0) close(refused);
      spare_fd_ = open("/dev/null", O_RDONLY | O_CLOEXEC);
      AVP_LOG(log_, Warn, "client refused: the server has no descriptor left for it");
      if (refused < 0) return;
      continue;
    }
    if (fd < 0) return;
    if (shutdown_requested_) {
      close(fd);
      continue;
    }
    auto c = std::make_unique<Conn>();
    c->fd = fd;
    c->id = next_conn_++;
    Conn* raw = c.get();
    conns_[raw->id] = std::move(c);
    sc_core::sc_spawn([this, raw] { conn_thread(raw); }, ("host_bridge_conn" + std::to_string(raw->id)).c_str());
  }
}

void HostBridge::read_from(Conn& c) {
  uint8_t buf[16384];
  while (c.in.size() < kMaxInput) {
    const ssize_t n = recv(c.fd, buf, std::min(sizeof buf, kMaxInput - c.in.size()), 0);
    if (n > 0) {
      c.in.insert(c.in.end(), buf, buf + n);
      continue;
    }
    if (n == 0 || (errno != EAGAIN && errno != EINTR)) c.dead = true;
    return;
  }
}

void HostBridge::flush(Conn& c) {
  while (!c.out.empty()) {
    const ssize_t n = send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
    if (n <= 0) {
      if (n < 0 && errno != EAGAIN && errno != EINTR) c.dead = true;
      return;
    }
    c.out.erase(c.out.begin(), c.out.begin() + n);
  }
}

bool HostBridge::take_request(Conn& c) {
  avpb_request r;
  for (;;) {
    if (c.in.size() < sizeof(avpb_request)) return false;
    std::memcpy(&r, c.in.data(), sizeof r);
    if (r.op != AVPB_RING_DOORBELL || r.length) break;
    c.in.erase(c.in.begin(), c.in.begin() + sizeof r);  // its request is in the ring
  }
  if (r.length > AVPB_MAX_PAYLOAD) {
    drop(c, "oversized message (" + std::to_string(r.length) + " payload bytes, at most " +
                std::to_string(AVPB_MAX_PAYLOAD) + ")");
    return false;
  }
  if (c.in.size() < sizeof r + r.length) return false;
  c.req = r;
  c.payload.assign(c.in.begin() + sizeof r, c.in.begin() + sizeof r + r.length);
  c.in.erase(c.in.begin(), c.in.begin() + sizeof r + r.length);
  return true;
}

void HostBridge::drop(Conn& c, const std::string& why) {
  AVP_LOG(log_, Warn, "client " << c.id << ": " << why << ": disconnected");
  c.dead = true;
  c.in.clear();
}

void HostBridge::send_reply(Conn& c, const avpb_reply& r, const void* payload, uint32_t len, int pass_fd) {
  if (c.dead) return;
  if (c.from_ring) return ring_reply(c, r, payload, len);  // its requests pass no descriptor
  const auto* h = reinterpret_cast<const uint8_t*>(&r);
  c.out.insert(c.out.end(), h, h + sizeof r);
  if (len) c.out.insert(c.out.end(), static_cast<const uint8_t*>(payload), static_cast<const uint8_t*>(payload) + len);
  if (pass_fd >= 0) {
    // The header goes with the descriptor in one message; the rest follows as stream data.
    char ctrl[CMSG_SPACE(sizeof(int))] = {};
    iovec iov{c.out.data(), sizeof r};
    msghdr m{};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = ctrl;
    m.msg_controllen = sizeof ctrl;
    cmsghdr* cm = CMSG_FIRSTHDR(&m);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(cm), &pass_fd, sizeof(int));
    const ssize_t n = sendmsg(c.fd, &m, MSG_NOSIGNAL);
    if (n <= 0) return drop(c, "cannot pass the host-memory descriptor");
    c.out.erase(c.out.begin(), c.out.begin() + n);
  }
  flush(c);
}

void HostBridge::conn_thread(Conn* c) {
  for (;;) {
    sc_core::wait(c->wake);
    if (!c->has_request) break;  // woken without a request: the client has gone
    handle(*c);
    c->has_request = false;
    c->busy = false;
    done_ev_.notify(sc_core::SC_ZERO_TIME);
  }
  // Closed or dropped: the session ends with its last connection, freeing its
  // contexts as closing their device files would.
  if (c->session && --c->session->conns == 0) release_session(*c->session);
  close(c->fd);
  c->fd = -1;
  c->busy = false;
  c->finished = true;
  done_ev_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace avp
