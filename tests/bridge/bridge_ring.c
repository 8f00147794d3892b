/* Request rings spoken by hand (docs/host-bridge.md, "Request rings"): the
 * server hands a connection its ring, answers requests posted there with or
 * without the doorbell, refuses socket-only requests through it, and
 * disconnects a client that posts an oversized request or two at once; the
 * host library uses rings and keeps working after. */
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "accelvp_bridge_proto.h"
#include "accelvp_host.h"
#include "bar0_regs.h"
#include "check.h"
#include "raw_client.h"

/* One socket exchange without payloads; the descriptor passed, or -1. */
static int call(int fd, uint32_t op, uint32_t length, uint64_t a0, uint64_t a1, struct avpb_reply *r) {
  struct avpb_request q = {op, length, {a0, a1, 0, 0}};
  CHECK(send(fd, &q, sizeof q, MSG_NOSIGNAL) == (ssize_t)sizeof q);
  char ctrl[CMSG_SPACE(sizeof(int))];
  struct iovec iov = {r, sizeof *r};
  struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl, .msg_controllen = sizeof ctrl};
  CHECK(recvmsg(fd, &m, MSG_WAITALL) == (ssize_t)sizeof *r && r->length == 0);
  struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
  int passed = -1;
  if (cm && cm->cmsg_type == SCM_RIGHTS) memcpy(&passed, CMSG_DATA(cm), sizeof passed);
  return passed;
}

static struct avpb_ring *open_ring(int fd) {
  struct avpb_reply r;
  CHECK(call(fd, AVPB_HELLO, 0, AVPB_MAGIC, AVPB_VERSION, &r) < 0 && r.status == 0);  /* no descriptor: host memory comes block by block */
  struct avpb_request with_payload = {AVPB_RING, 1, {0}};
  CHECK(send(fd, &with_payload, sizeof with_payload, MSG_NOSIGNAL) == (ssize_t)sizeof with_payload);
  CHECK(send(fd, "x", 1, MSG_NOSIGNAL) == 1);
  struct avpb_reply bad;
  CHECK(recv(fd, &bad, sizeof bad, MSG_WAITALL) == (ssize_t)sizeof bad && bad.status == -EINVAL);
  const int rfd = call(fd, AVPB_RING, 0, 0, 0, &r);
  CHECK(r.status == 0 && rfd >= 0 && r.r[0] == sizeof(struct avpb_ring));
  CHECK(call(fd, AVPB_RING, 0, 0, 0, &r) < 0 && r.status == -EEXIST);  /* one ring per connection */
  struct avpb_ring *g = mmap(NULL, sizeof *g, PROT_READ | PROT_WRITE, MAP_SHARED, rfd, 0);
  CHECK(g != MAP_FAILED);
  close(rfd);
  return g;
}

/* Posts a request in the ring (ringing the doorbell when the server sleeps)
 * and waits for its reply by polling; the reply's status. */
static int post(int fd, struct avpb_ring *g, uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2, struct avpb_reply *r) {
  const uint32_t seq = g->req_seq + 1;
  struct avpb_request q = {op, 0, {a0, a1, a2, 0}};
  memcpy(&g->req, &q, sizeof q);
  __atomic_store_n(&g->req_seq, seq, __ATOMIC_SEQ_CST);
  if (!__atomic_load_n(&g->server_polling, __ATOMIC_SEQ_CST)) {
    struct avpb_request d = {AVPB_RING_DOORBELL, 0, {0}};
    CHECK(send(fd, &d, sizeof d, MSG_NOSIGNAL) == (ssize_t)sizeof d);
  }
  while (__atomic_load_n(&g->rep_seq, __ATOMIC_SEQ_CST) != seq) usleep(10);
  memcpy(r, &g->rep, sizeof *r);
  CHECK(r->op == op);
  return r->status;
}

/* True when the server closes the connection within a second (a reset when
 * it closed with the doorbell unread). */
static int closed(int fd) {
  const struct timeval limit = {1, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  char c;
  const ssize_t n = recv(fd, &c, 1, 0);
  return n == 0 || (n < 0 && errno == ECONNRESET);
}

int main(void) {
  int fd = dial();
  struct avpb_ring *g = open_ring(fd);
  struct avpb_reply r;
  CHECK(post(fd, g, AVPB_CFG_WRITE, 4, 2, 6, &r) == 0);  /* memory space and bus master on */
  CHECK(post(fd, g, AVPB_MMIO_READ, 0, AVP_INFO_MAGIC, 4, &r) == 0 && r.r[0] == AVP_INFO_MAGIC_VALUE);
  const uint64_t t0 = r.sim_time_ps;
  CHECK(t0 > 0);
  /* After an idle while the server sleeps on its sockets (it wakes every
   * 20 ms to look at its child and spins briefly then): the doorbell wakes it. */
  for (int i = 0; i < 200 && __atomic_load_n(&g->server_polling, __ATOMIC_SEQ_CST); ++i) usleep(5000);
  CHECK(__atomic_load_n(&g->server_polling, __ATOMIC_SEQ_CST) == 0);
  CHECK(post(fd, g, AVPB_MMIO_READ, 0, AVP_INFO_MAGIC, 4, &r) == 0 && r.r[0] == AVP_INFO_MAGIC_VALUE);
  CHECK(r.sim_time_ps > t0);
  /* A 64 KiB reply payload through the ring. */
  CHECK(post(fd, g, AVPB_BAR_READ, 2, 0, AVPB_MAX_PAYLOAD, &r) == 0 && r.length == AVPB_MAX_PAYLOAD);
  CHECK(post(fd, g, AVPB_MMIO_READ, 1, 0, 4, &r) == -EINVAL);  /* no BAR 1: an ordinary error */
  /* Requests that belong to the socket are refused through the ring. */
  CHECK(post(fd, g, AVPB_DRAM_ALLOC, 4096, 0, 0, &r) == -EINVAL);  /* its memfd needs the socket */
  CHECK(post(fd, g, AVPB_HELLO, AVPB_MAGIC, AVPB_VERSION, 0, &r) == -EINVAL);
  CHECK(post(fd, g, AVPB_RING, 0, 0, 0, &r) == -EINVAL);
  CHECK(post(fd, g, AVPB_BYE, 0, 0, 0, &r) == -EINVAL);
  /* The socket still works beside the ring. */
  CHECK(call(fd, AVPB_SIM_TIME, 0, 0, 0, &r) < 0 && r.status == 0 && r.r[0] > t0);

  /* An oversized request in the ring: disconnected. */
  g->req.op = AVPB_BAR_WRITE;
  g->req.length = AVPB_MAX_PAYLOAD + 1;
  __atomic_store_n(&g->req_seq, g->req_seq + 1, __ATOMIC_SEQ_CST);
  struct avpb_request d = {AVPB_RING_DOORBELL, 0, {0}};
  CHECK(send(fd, &d, sizeof d, MSG_NOSIGNAL) == (ssize_t)sizeof d);
  CHECK(closed(fd));
  munmap(g, sizeof *g);
  close(fd);

  /* Two requests posted at once: disconnected. */
  fd = dial();
  g = open_ring(fd);
  g->req.op = AVPB_SIM_TIME;
  g->req.length = 0;
  __atomic_store_n(&g->req_seq, g->req_seq + 2, __ATOMIC_SEQ_CST);
  CHECK(send(fd, &d, sizeof d, MSG_NOSIGNAL) == (ssize_t)sizeof d);
  CHECK(closed(fd));
  munmap(g, sizeof *g);
  close(fd);

  /* The library's clients (rings) are served as before, with and without rings. */
  avp_host *h = avp_host_connect(NULL);
  uint32_t v;
  CHECK(h && avp_cfg_read(h, 0, 2, &v) == 0 && v == 0x0666);
  avp_host_disconnect(h);
  setenv(AVPB_NO_RING_ENV, "1", 1);
  h = avp_host_connect(NULL);
  CHECK(h && avp_cfg_read(h, 0, 2, &v) == 0 && v == 0x0666);
  avp_host_disconnect(h);
  printf("bridge_ring: OK\n");
  return 0;
}
