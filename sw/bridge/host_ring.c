/* Requests through a connection's shared request ring: post, ring the
 * doorbell only when the server sleeps, spin for the reply a short while,
 * then sleep on it as a futex. */
#define _GNU_SOURCE
#include "host_ring.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* How long a caller spins for its reply (a register access is answered well
 * within the first phase), then spins yielding its core (other threads of
 * the program, or the server, may need it), before it sleeps; and how often
 * a sleeping caller checks that the server is still there. */
#define SPIN_NS 10000L
#define YIELD_NS 100000L
#define CHECK_NS 100000000L

static uint32_t load(const uint32_t *w) { return __atomic_load_n(w, __ATOMIC_SEQ_CST); }
static void store(uint32_t *w, uint32_t v) { __atomic_store_n(w, v, __ATOMIC_SEQ_CST); }

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

static long elapsed_ns(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

struct avpb_ring *avp_ring_map(int fd) {
  void *p = mmap(NULL, sizeof(struct avpb_ring), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? NULL : p;
}

void avp_ring_unmap(struct avpb_ring *ring) { munmap(ring, sizeof *ring); }

/* The server closed the socket (or broke the protocol by writing to it). */
static int server_gone(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  return poll(&p, 1, 0) != 0;
}

static int doorbell(int fd) {
  const struct avpb_request d = {AVPB_RING_DOORBELL, 0, {0, 0, 0, 0}};
  ssize_t k;
  do k = send(fd, &d, sizeof d, MSG_NOSIGNAL);
  while (k < 0 && errno == EINTR);
  return k == (ssize_t)sizeof d ? 0 : -EPIPE;  /* 40 bytes into an idle socket go in one piece */
}

/* Waits until rep_seq is `seq`: spins, then sleeps on it. */
static int await_reply(struct avpb_ring *g, int fd, uint32_t seq) {
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (unsigned i = 1; load(&g->rep_seq) != seq; ++i) {
    if (i % 64) {
      cpu_relax();
      continue;
    }
    const long waited = elapsed_ns(&t0);
    if (waited < SPIN_NS) continue;
    if (waited < YIELD_NS) {
      sched_yield();
      continue;
    }
    /* Sleeping flag first, then a last look: the server stores rep_seq, then
     * reads the flag, so one of the two sees the other. */
    store(&g->client_sleeping, 1);
    const uint32_t now = load(&g->rep_seq);
    if (now != seq) {
      const struct timespec check = {0, CHECK_NS};
      if (syscall(SYS_futex, &g->rep_seq, FUTEX_WAIT, now, &check, NULL, 0) != 0 && errno == ETIMEDOUT &&
          server_gone(fd)) {
        store(&g->client_sleeping, 0);
        return -EPIPE;
      }
    }
    store(&g->client_sleeping, 0);
  }
  return 0;
}

int avp_ring_exchange(struct avpb_ring *g, int fd, const struct avpb_request *q, const void *payload,
                      struct avpb_reply *r, void *out, uint32_t out_cap) {
  if (q->length > AVPB_MAX_PAYLOAD) return -EINVAL;
  const uint32_t seq = load(&g->req_seq) + 1;
  memcpy(&g->req, q, sizeof *q);
  if (q->length) memcpy(g->req_payload, payload, q->length);
  store(&g->req_seq, seq);
  if (!load(&g->server_polling) && doorbell(fd)) return -EPIPE;
  const int st = await_reply(g, fd, seq);
  if (st) return st;
  memcpy(r, &g->rep, sizeof *r);
  if (r->length > AVPB_MAX_PAYLOAD) return -EPROTO;
  if (out_cap) memcpy(out, g->rep_payload, r->length < out_cap ? r->length : out_cap);
  return r->status;
}
