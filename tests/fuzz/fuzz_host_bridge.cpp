// libFuzzer target: the host bridge's wire protocol (docs/host-bridge.md),
// served by a whole platform as `accel-vp exec` serves it. Each input is one
// client process (forked, so it shares nothing with the server but the
// socket) that sends the input as requests and reads every reply; the server
// must answer or drop it, release its session and return when it exits.
//
// Input: byte 0 chooses the mode. Bit 0 set: the rest goes out raw in one
// write (framing: partial headers, oversized lengths, requests ahead of
// replies), then the client half-closes and reads until the server closes.
// Bit 0 clear: the rest is a sequence of requests (a 40-byte header, then as
// many payload bytes as the header's length asks for or the input still has;
// the length sent is the number of bytes that follow), each followed by its
// reply. SHUTDOWN is sent as BYE: it would stop the server for later inputs.
// Bit 1 set (with bit 0 clear): after HELLO and RING on the socket, the
// requests go through the connection's request ring instead, with their
// lengths as the input gives them (oversized ones included).
// Bit 2 set (with bits 0 and 1 clear): the client sends every request without
// reading a reply, then dies with them unread. Bit 3 set: the client tries to
// shrink every memory file the server passes it (they are sealed; a shrunk
// one would end the server with SIGBUS at its next access).
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "accelvp_bridge_proto.h"
#include "base/params.h"
#include "host_bridge.h"
#include "platform/platform.h"

namespace {

avp::Platform* platform;
avp::HostBridge* bridge;

// The client's way out: not a noreturn call, which ASan would check against
// the stack bounds the SystemC coroutines of the parent left it with.
void leave(int code) {
  syscall(SYS_exit_group, code);
}

// Reads one reply; the descriptor HOST_ALLOC, DRAM_ALLOC and RING pass with it
// goes to *passed_fd, or is closed.
bool shrink_passed = false;  // input bit 3

bool read_reply(int fd, int* passed_fd = nullptr) {
  avpb_reply r;
  char ctrl[CMSG_SPACE(sizeof(int))];
  iovec iov{&r, sizeof r};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = ctrl;
  m.msg_controllen = sizeof ctrl;
  const ssize_t n = recvmsg(fd, &m, MSG_WAITALL);
  for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
    if (c->cmsg_type == SCM_RIGHTS) {
      int passed;
      std::memcpy(&passed, CMSG_DATA(c), sizeof passed);
      if (shrink_passed && ftruncate(passed, 0) == 0) leave(4);  // not sealed
      if (passed_fd) *passed_fd = passed;
      else close(passed);
    }
  if (n != static_cast<ssize_t>(sizeof r)) return false;
  if (r.length > AVPB_MAX_PAYLOAD) leave(3);  // the server broke its own limit
  static uint8_t payload[AVPB_MAX_PAYLOAD];
  return r.length == 0 || recv(fd, payload, r.length, MSG_WAITALL) == static_cast<ssize_t>(r.length);
}

// The next request of the input from `at` on and its payload length (at most
// what the header asks for, what the input still has and `cap`); SHUTDOWN
// becomes BYE. `at` moves past the header; the payload starts there.
avpb_request next_request(const uint8_t* data, size_t size, size_t& at, size_t& len, size_t cap) {
  avpb_request q{};
  const size_t head = std::min(sizeof q, size - at);
  std::memcpy(&q, data + at, head);
  at += head;
  if (q.op == AVPB_SHUTDOWN) q.op = AVPB_BYE;
  len = std::min<size_t>({q.length, size - at, cap});
  return q;
}

// Requests through the connection's request ring; leaves when the server
// drops the client.
void run_ring_client(int fd, const uint8_t* data, size_t size) {
  avpb_request hello{AVPB_HELLO, 0, {AVPB_MAGIC, AVPB_VERSION, 0, 0}}, ring{AVPB_RING, 0, {}};
  int ring_fd = -1;
  if (send(fd, &hello, sizeof hello, MSG_NOSIGNAL) != sizeof hello || !read_reply(fd) ||
      send(fd, &ring, sizeof ring, MSG_NOSIGNAL) != sizeof ring || !read_reply(fd, &ring_fd) || ring_fd < 0)
    leave(0);  // refused (a raw input before this one may have asked the server to shut down)
  void* p = mmap(nullptr, sizeof(avpb_ring), PROT_READ | PROT_WRITE, MAP_SHARED, ring_fd, 0);
  if (p == MAP_FAILED) leave(2);
  auto* g = static_cast<avpb_ring*>(p);
  const avpb_request doorbell{AVPB_RING_DOORBELL, 0, {}};
  size_t at = 1;
  while (at < size) {
    size_t len = 0;
    const avpb_request q = next_request(data, size, at, len, AVPB_MAX_PAYLOAD);  // its length as the input gives it
    std::memcpy(&g->req, &q, sizeof q);
    std::memcpy(g->req_payload, data + at, len);
    at += len;
    const uint32_t seq = g->req_seq + 1;
    __atomic_store_n(&g->req_seq, seq, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&g->server_polling, __ATOMIC_SEQ_CST) &&
        send(fd, &doorbell, sizeof doorbell, MSG_NOSIGNAL) != sizeof doorbell)
      leave(0);
    while (__atomic_load_n(&g->rep_seq, __ATOMIC_SEQ_CST) != seq) {
      pollfd pf{fd, POLLIN, 0};
      if (poll(&pf, 1, 1) != 0) leave(0);  // dropped: the server closed (a reply never comes here)
    }
    if (g->rep.length > AVPB_MAX_PAYLOAD) leave(3);  // the server broke its own limit
  }
  leave(0);
}

void run_client(const uint8_t* data, size_t size) {  // never returns
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  std::strcpy(sa.sun_path, bridge->path().c_str());
  if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) leave(2);
  const timeval limit{10, 0};  // a reply that never comes is the server's fault: the run times out
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  shrink_passed = data[0] & 8;
  if ((data[0] & 3) == 2) run_ring_client(fd, data, size);
  if (data[0] & 1) {
    if (send(fd, data + 1, size - 1, MSG_NOSIGNAL) >= 0) shutdown(fd, SHUT_WR);
    while (read_reply(fd)) {
    }
    leave(0);
  }
  const bool reads = !(data[0] & 4);
  if (!reads) fcntl(fd, F_SETFL, O_NONBLOCK);  // the server may stop reading it (backpressure)
  size_t at = 1;
  while (at < size) {
    size_t len = 0;
    avpb_request q = next_request(data, size, at, len, SIZE_MAX);
    q.length = static_cast<uint32_t>(len);  // the bytes that follow
    const bool sent = send(fd, &q, sizeof q, MSG_NOSIGNAL) == sizeof q &&
                      (!len || send(fd, data + at, len, MSG_NOSIGNAL) == static_cast<ssize_t>(len));
    at += len;
    if (!reads) {
      if (!sent) break;
      continue;
    }
    if (sent && q.op == AVPB_RING_DOORBELL && !len) continue;  // the one request without a reply
    if (!sent || !read_reply(fd)) break;  // dropped (or BYE): the server closed
  }
  leave(0);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  avp::set_default_log_level(avp::Level::Error);
  platform = new avp::Platform();
  bridge = new avp::HostBridge(*platform, "/tmp/avp-fuzz-bridge-" + std::to_string(getpid()) + ".sock");
  std::atexit([] { unlink(bridge->path().c_str()); });  // libFuzzer leaves through exit(): the bridge is never destroyed
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const pid_t child = fork();
  if (child < 0) return 0;
  if (child == 0) run_client(data, size);
  bool served = false;
  int status = -1;
  sc_core::sc_spawn([&] {
    status = bridge->serve(child);
    served = true;
    sc_core::sc_pause();
  });
  // Until serve() returns or nothing is left to happen; an idle gate pauses
  // the simulation after each sleep (for a run loop's signals and progress).
  do sc_core::sc_start();
  while (!served && sc_core::sc_pending_activity());
  if (!served || status != 0) __builtin_trap();  // the server stopped serving, or the client saw a broken reply
  return 0;
}

// libsystemc.so refers to sc_main; libFuzzer's main() runs instead.
int sc_main(int, char**) { return 0; }
