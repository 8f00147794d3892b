/* libaccelvp-host: sessions, connections and the host-memory view. A
 * session is the first connection (HELLO); calls
 * from several threads at once each take a free connection, opening more
 * with ATTACH, so a blocking call never holds up the others. Each connection
 * asks for a request ring (AVPB_RING): requests that pass no descriptor go
 * through it, without a system call while the server polls (host_ring.c).
 * The host memory and the device DRAM are views (granted_view.h): each block
 * the program is given (HOST_ALLOC, DRAM_ALLOC, with its memfd) is mapped at
 * its address; nothing else is. */
#define _GNU_SOURCE
#include "host_client.h"
#include "granted_view.h"
#include "host_ring.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_IDLE 64

/* A connection: its socket and, when the server gave one, its request ring. */
struct conn {
  int fd;
  struct avpb_ring *ring;
};

struct avp_host {
  char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
  uint64_t session, token;
  struct granted_view host_mem;
  struct granted_view dram; /* reserved at the first DRAM_ALLOC (its reply names the DRAM) */
  pthread_mutex_t lock; /* guards idle */
  struct conn idle[MAX_IDLE];
  int nidle;
};

static int write_all(int fd, const void *p, size_t n) {
  const uint8_t *b = p;
  while (n) {
    ssize_t k = send(fd, b, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    b += k;
    n -= (size_t)k;
  }
  return 0;
}

static int read_all(int fd, void *p, size_t n) {
  uint8_t *b = p;
  while (n) {
    ssize_t k = recv(fd, b, n, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    b += k;
    n -= (size_t)k;
  }
  return 0;
}

static int dial(const char *path) {
  struct sockaddr_un sa;
  memset(&sa, 0, sizeof sa);
  sa.sun_family = AF_UNIX;
  if (strlen(path) >= sizeof sa.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  strcpy(sa.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
    int e = errno;
    close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

/* One exchange on `fd`; the reply's header may carry a descriptor. */
static int exchange(int fd, const struct avpb_request *q, const void *payload, struct avpb_reply *r, void *out,
                    uint32_t out_cap, int *passed_fd) {
  if (write_all(fd, q, sizeof *q) || (q->length && write_all(fd, payload, q->length))) return -EPIPE;
  char ctrl[CMSG_SPACE(sizeof(int))];
  struct iovec iov = {r, sizeof *r};
  struct msghdr m;
  memset(&m, 0, sizeof m);
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = ctrl;
  m.msg_controllen = sizeof ctrl;
  ssize_t k;
  do k = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
  while (k < 0 && errno == EINTR);
  if (k <= 0) return -EPIPE;
  struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
  if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
    int got;
    memcpy(&got, CMSG_DATA(cm), sizeof got);
    if (passed_fd) *passed_fd = got;
    else close(got);
  }
  if ((size_t)k < sizeof *r && read_all(fd, (uint8_t *)r + k, sizeof *r - (size_t)k)) return -EPIPE;
  if (r->length > AVPB_MAX_PAYLOAD) return -EPROTO;
  uint8_t sink[4096];
  for (uint32_t done = 0; done < r->length;) {
    uint32_t n = r->length - done;
    uint8_t *dst = done < out_cap ? (uint8_t *)out + done : sink;
    if (done < out_cap && n > out_cap - done) n = out_cap - done;
    if (done >= out_cap && n > sizeof sink) n = sizeof sink;
    if (read_all(fd, dst, n)) return -EPIPE;
    done += n;
  }
  return r->status;
}

/* Asks for the connection's request ring; without one (an older server, or
 * ACCELVP_NO_RING set) its requests go over the socket. */
static void open_ring(struct conn *c) {
  c->ring = NULL;
  const char *off = getenv(AVPB_NO_RING_ENV);
  if (off && *off) return;
  struct avpb_request q = {AVPB_RING, 0, {0, 0, 0, 0}};
  struct avpb_reply r;
  int fd = -1;
  if (exchange(c->fd, &q, NULL, &r, NULL, 0, &fd) == 0 && fd >= 0 && r.r[0] == sizeof(struct avpb_ring))
    c->ring = avp_ring_map(fd);
  if (fd >= 0) close(fd);
}

static void close_conn(struct conn *c) {
  if (c->ring) avp_ring_unmap(c->ring);
  close(c->fd);
}

static int take_conn(avp_host *h, struct conn *c) {
  pthread_mutex_lock(&h->lock);
  const int found = h->nidle > 0;
  if (found) *c = h->idle[--h->nidle];
  pthread_mutex_unlock(&h->lock);
  if (found) return 0;
  c->fd = dial(h->path);
  if (c->fd < 0) return -1;
  struct avpb_request q = {AVPB_ATTACH, 0, {h->session, h->token, 0, 0}};
  struct avpb_reply r;
  int st = exchange(c->fd, &q, NULL, &r, NULL, 0, NULL);
  if (st) {
    close(c->fd);
    errno = -st;
    return -1;
  }
  open_ring(c);
  return 0;
}

static void give_conn(avp_host *h, struct conn *c, int broken) {
  pthread_mutex_lock(&h->lock);
  if (!broken && h->nidle < MAX_IDLE) {
    h->idle[h->nidle++] = *c;
    c = NULL;
  }
  pthread_mutex_unlock(&h->lock);
  if (c) close_conn(c);
}

int avp_host_call(avp_host *h, uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, const void *payload,
                  uint32_t len, struct avpb_reply *reply, void *out, uint32_t out_cap) {
  struct avpb_reply local;
  if (!reply) reply = &local;
  struct conn c;
  if (take_conn(h, &c)) return errno ? -errno : -EPIPE;
  struct avpb_request q = {op, len, {a0, a1, a2, a3}};
  int st = c.ring ? avp_ring_exchange(c.ring, c.fd, &q, payload, reply, out, out_cap)
                  : exchange(c.fd, &q, payload, reply, out, out_cap, NULL);
  give_conn(h, &c, st == -EPIPE || st == -EPROTO);
  return st;
}

int avp_host_call_fd(avp_host *h, uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                     struct avpb_reply *reply, int *passed_fd) {
  *passed_fd = -1;
  struct conn c;
  if (take_conn(h, &c)) return errno ? -errno : -EPIPE;
  struct avpb_request q = {op, 0, {a0, a1, a2, a3}};
  int st = exchange(c.fd, &q, NULL, reply, NULL, 0, passed_fd);
  give_conn(h, &c, st == -EPIPE || st == -EPROTO);
  if (st && *passed_fd >= 0) {
    close(*passed_fd);
    *passed_fd = -1;
  }
  return st;
}

avp_host *avp_host_connect(const char *socket_path) {
  if (!socket_path) socket_path = getenv(AVPB_SOCKET_ENV);
  if (!socket_path || !*socket_path) {
    errno = ENOENT;
    return NULL;
  }
  avp_host *h = calloc(1, sizeof *h);
  if (!h) return NULL;
  if (strlen(socket_path) >= sizeof h->path) {
    free(h);
    errno = ENAMETOOLONG;
    return NULL;
  }
  strcpy(h->path, socket_path);
  pthread_mutex_init(&h->lock, NULL);
  granted_view_init(&h->host_mem);
  granted_view_init(&h->dram);
  int fd = dial(socket_path);
  if (fd < 0) goto fail;
  struct avpb_request q = {AVPB_HELLO, 0, {AVPB_MAGIC, AVPB_VERSION, 0, 0}};
  struct avpb_reply r;
  int st = exchange(fd, &q, NULL, &r, NULL, 0, NULL);
  if (st) {
    close(fd);
    errno = -st;
    goto fail;
  }
  h->session = r.r[2];
  h->token = r.r[3];
  if (granted_view_reserve(&h->host_mem, 0, r.r[1])) {
    close(fd);
    goto fail;
  }
  struct conn *c = &h->idle[h->nidle++];
  c->fd = fd;
  open_ring(c);
  return h;
fail:;
  int e = errno;
  granted_view_destroy(&h->host_mem);
  granted_view_destroy(&h->dram);
  pthread_mutex_destroy(&h->lock);
  free(h);
  errno = e;
  return NULL;
}

void avp_host_disconnect(avp_host *h) {
  if (!h) return;
  for (int i = 0; i < h->nidle; ++i) {
    struct avpb_request q = {AVPB_BYE, 0, {0, 0, 0, 0}};
    (void)write_all(h->idle[i].fd, &q, sizeof q);
    close_conn(&h->idle[i]);
  }
  granted_view_destroy(&h->host_mem);
  granted_view_destroy(&h->dram);
  pthread_mutex_destroy(&h->lock);
  free(h);
}

static int result(int st) {
  if (st == 0) return 0;
  errno = -st;
  return -1;
}

int avp_host_shutdown_server(avp_host *h) { return result(avp_host_call(h, AVPB_SHUTDOWN, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0)); }

int avp_cfg_read(avp_host *h, uint32_t offset, unsigned size, uint32_t *value) {
  struct avpb_reply r;
  int st = avp_host_call(h, AVPB_CFG_READ, offset, size, 0, 0, NULL, 0, &r, NULL, 0);
  if (st == 0) *value = (uint32_t)r.r[0];
  return result(st);
}

int avp_cfg_write(avp_host *h, uint32_t offset, unsigned size, uint32_t value) {
  return result(avp_host_call(h, AVPB_CFG_WRITE, offset, size, value, 0, NULL, 0, NULL, NULL, 0));
}

void *avp_host_alloc(avp_host *h, size_t size, size_t align, uint64_t *bus_addr) {
  struct avpb_reply r;
  int fd = -1;
  if (result(avp_host_call_fd(h, AVPB_HOST_ALLOC, size, align, 0, 0, &r, &fd))) return NULL;
  if (fd < 0) return errno = EPROTO, NULL;
  void *p = granted_view_map(&h->host_mem, fd, r.r[0], r.r[1]);
  if (p && bus_addr) *bus_addr = r.r[0];
  return p;
}

void *avp_host_ptr(avp_host *h, uint64_t bus_addr, size_t len) { return granted_view_ptr(&h->host_mem, bus_addr, len); }

uint64_t avp_host_dram_alloc(avp_host *h, uint64_t size, uint64_t align) {
  struct avpb_reply r;
  int fd = -1;
  if (result(avp_host_call_fd(h, AVPB_DRAM_ALLOC, size, align, 0, 0, &r, &fd))) return 0;
  if (fd < 0) return errno = EPROTO, 0;
  if (granted_view_reserve(&h->dram, r.r[2], r.r[3])) {
    close(fd);
    return 0;
  }
  if (granted_view_map(&h->dram, fd, r.r[0], r.r[1])) return r.r[0];
  const int e = errno;
  (void)avp_host_call(h, AVPB_DRAM_FREE, r.r[0], 0, 0, 0, NULL, 0, NULL, NULL, 0);
  return errno = e, 0;
}

int avp_host_dram_free(avp_host *h, uint64_t addr) {
  if (result(avp_host_call(h, AVPB_DRAM_FREE, addr, 0, 0, 0, NULL, 0, NULL, NULL, 0))) return -1;
  granted_view_unmap(&h->dram, addr);
  return 0;
}

void *avp_host_dram_ptr(avp_host *h, uint64_t addr, size_t len) { return granted_view_ptr(&h->dram, addr, len); }

long avp_irq_wait(avp_host *h, uint64_t timeout_ns) {
  struct avpb_reply r;
  int st = avp_host_call(h, AVPB_IRQ_WAIT, timeout_ns, 0, 0, 0, NULL, 0, &r, NULL, 0);
  if (result(st)) return -1;
  if (r.r[0] == 0) {
    errno = ETIMEDOUT;
    return -1;
  }
  return (long)r.r[0];
}

uint64_t avp_sim_time_ps(avp_host *h) {
  struct avpb_reply r;
  return avp_host_call(h, AVPB_SIM_TIME, 0, 0, 0, 0, NULL, 0, &r, NULL, 0) == 0 ? r.r[0] : 0;
}

