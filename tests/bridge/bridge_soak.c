/* Soak: 40 client processes at once on one server, for several rounds, with
 * mixed valid and hostile traffic: well-behaved clients check their device
 * DRAM through BAR2 and their Acceldev fills in host memory; hostile ones send
 * garbage, oversized messages, requests before HELLO, never read their
 * replies, shrink their shared memory, disable the device, or are killed in
 * the middle of a request. Every well-behaved client's results must be
 * correct and the server's memory must stay flat from the first round to the
 * last (resident size, with a generous bound).
 *
 * usage: bridge_soak [ROUNDS] (default 4); with ACCELVP_SOAK_NO_RSS set the
 * resident size is reported, not checked (under ASan, whose quarantine keeps
 * freed memory, it measures the sanitizer). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "accelvp_bridge_proto.h"
#include "accelvp_device.h"
#include "accelvp_host.h"
#include "bar0_regs.h"
#include "check.h"
#include "raw_client.h"

#define CLIENTS 40
#define FILL_BYTES (256u * 1024u)

/* One exchange on a raw connection: the reply, its payload (up to cap bytes
 * kept) and a passed descriptor. Status 1: the server closed the connection. */
static struct avpb_reply call(int fd, uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, void *out,
                              uint32_t cap, int *passed) {
  struct avpb_request q = {op, 0, {a0, a1, a2, a3}};
  struct avpb_reply r = {0};
  if (send(fd, &q, sizeof q, MSG_NOSIGNAL) != (ssize_t)sizeof q) {
    r.status = 1;
    return r;
  }
  return raw_reply(fd, out, cap, passed);
}

static uint32_t pattern(uint32_t seed, uint32_t i) { return (seed * 2654435761u) ^ (i * 40503u); }

/* Device DRAM of its own through BAR2: written, read back, compared. */
static int good_dram(uint32_t seed) {
  avp_host *h = avp_host_connect(NULL);
  if (!h) return 19;
  avp_device *d = avp_device_open(h);
  if (!d) {
    uint32_t cmd = 0, id = 0;
    avp_cfg_read(h, 4, 2, &cmd);
    avp_cfg_read(h, 0, 4, &id);
    fprintf(stderr, "bridge_soak: avp_device_open: %s (command 0x%x, id 0x%x)\n", strerror(errno), cmd, id);
    return 20;
  }
  enum { WORDS = 16384 };
  static uint32_t in[WORDS], out[WORDS];
  for (int round = 0; round < 3; ++round) {
    const uint64_t at = avp_device_alloc(d, sizeof in, 4096);
    if (!at) return 21;
    for (uint32_t i = 0; i < WORDS; ++i) in[i] = pattern(seed + round, i);
    if (avp_device_write(d, at, in, sizeof in) || avp_device_read(d, at, out, sizeof out)) return 22;
    if (memcmp(in, out, sizeof in)) return 23;
    if (avp_device_free(d, at)) return 24;
  }
  avp_device_close(d);
  avp_host_disconnect(h);
  return 0;
}

/* An Acceldev context: a FILL of its data buffer then a FENCE, run and
 * waited for, the data checked in the shared host memory. */
static int good_acceldev(uint32_t seed, int ready_pipe) {
  int fd = dial();
  struct avpb_reply r = call(fd, AVPB_HELLO, AVPB_MAGIC, AVPB_VERSION, 0, 0, NULL, 0, NULL);
  if (r.status) return 30;
  r = call(fd, AVPB_DEV_OPEN, 0, 0, 0, 0, NULL, 0, NULL);
  if (r.status) return 32;
  const uint64_t ctx = r.r[0];
  int data_fd = -1, code_fd = -1;
  r = call(fd, AVPB_DEV_CREATE_BUFFER, ctx, 1, FILL_BYTES, 0, NULL, 0, &data_fd);
  if (r.status || data_fd < 0) return 33;
  const uint64_t data = r.r[0], slot = r.r[1];
  r = call(fd, AVPB_DEV_CREATE_BUFFER, ctx, 0, 4096, 0, NULL, 0, &code_fd);
  if (r.status || code_fd < 0) return 34;
  const uint64_t code = r.r[0];
  uint8_t *filled = mmap(NULL, FILL_BYTES, PROT_READ, MAP_SHARED, data_fd, 0);
  uint32_t *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, code_fd, 0);
  if (filled == MAP_FAILED || w == MAP_FAILED) return 31;
  const uint32_t value = pattern(seed, 7);
  const uint32_t cmds[10] = {ACCELDEV_USER_CMD_TYPE_FILL, value, (uint32_t)slot, 0, FILL_BYTES,
                             ACCELDEV_USER_CMD_TYPE_FENCE, 0, 0, 0, 0};
  memcpy(w, cmds, sizeof cmds);
  if (call(fd, AVPB_DEV_RUN, ctx, code, 0, sizeof cmds, NULL, 0, NULL).status) return 35;
  if (ready_pipe >= 0 && write(ready_pipe, "r", 1) != 1) return 36;
  r = call(fd, AVPB_DEV_WAIT, ctx, 1, 0, 0, NULL, 0, NULL);
  if (r.status) {
    fprintf(stderr, "bridge_soak: DEV_WAIT: status %d\n", (int)r.status);
    return 37;
  }
  for (unsigned i = 0; i < FILL_BYTES; i += 509)
    if (filled[i] != (uint8_t)(value >> 8 * (i % 4))) return 38;
  if (call(fd, AVPB_DEV_CLOSE_BUFFER, ctx, data, 0, 0, NULL, 0, NULL).status) return 39;
  if (call(fd, AVPB_DEV_CLOSE, ctx, 0, 0, 0, NULL, 0, NULL).status) return 40;
  call(fd, AVPB_BYE, 0, 0, 0, 0, NULL, 0, NULL);
  close(fd);
  return 0;
}

/* Hostile shapes; each ends its own connection (or is ended), nothing else. */
static void hostile(uint32_t kind, uint32_t seed) {
  int mem_fd = -1;
  int fd = dial();
  switch (kind % 6) {
    case 0: { /* garbage */
      uint8_t junk[4096];
      for (unsigned i = 0; i < sizeof junk; ++i) junk[i] = (uint8_t)pattern(seed, i);
      send(fd, junk, sizeof junk, MSG_NOSIGNAL);
      break;
    }
    case 1: { /* an oversized message after the handshake */
      call(fd, AVPB_HELLO, AVPB_MAGIC, AVPB_VERSION, 0, 0, NULL, 0, NULL);
      struct avpb_request q = {AVPB_BAR_WRITE, AVPB_MAX_PAYLOAD * 4, {2, 0, 0, 0}};
      send(fd, &q, sizeof q, MSG_NOSIGNAL);
      break;
    }
    case 2: /* a request before HELLO, then a wrong version */
      call(fd, AVPB_MMIO_READ, 0, 0, 4, 0, NULL, 0, NULL);
      close(fd);
      fd = dial();
      call(fd, AVPB_HELLO, AVPB_MAGIC, 77, 0, 0, NULL, 0, NULL);
      break;
    case 3: { /* requests whose replies are never read */
      call(fd, AVPB_HELLO, AVPB_MAGIC, AVPB_VERSION, 0, 0, NULL, 0, NULL);
      fcntl(fd, F_SETFL, O_NONBLOCK);
      struct avpb_request q = {AVPB_BAR_READ, 0, {2, 0, AVPB_MAX_PAYLOAD, 0}};
      for (int i = 0; i < 400; ++i)
        if (send(fd, &q, sizeof q, MSG_NOSIGNAL) != (ssize_t)sizeof q) break;
      break;
    }
    case 4: { /* shrinks its host memory (sealed: refused), then goes on */
      call(fd, AVPB_HELLO, AVPB_MAGIC, AVPB_VERSION, 0, 0, NULL, 0, NULL);
      struct avpb_reply r = call(fd, AVPB_HOST_ALLOC, 65536, 0, 0, 0, NULL, 0, &mem_fd);
      if (r.status == 0 && mem_fd >= 0) CHECK(ftruncate(mem_fd, 4096) == -1 && errno == EPERM);
      call(fd, AVPB_SIM_TIME, 0, 0, 0, 0, NULL, 0, NULL);
      break;
    }
    case 5: { /* bad MSI address, a context left open with the device disabled */
      call(fd, AVPB_HELLO, AVPB_MAGIC, AVPB_VERSION, 0, 0, NULL, 0, NULL);
      call(fd, AVPB_CFG_WRITE, 0x58, 4, 0xFFFFFFFFu, 0, NULL, 0, NULL);
      call(fd, AVPB_DEV_OPEN, 0, 0, 0, 0, NULL, 0, NULL);
      call(fd, AVPB_MMIO_WRITE, 0, ACCELDEV_ENABLE, 4, 0, NULL, 0, NULL);
      call(fd, AVPB_DRAM_ALLOC, 1 << 20, 0, 0, 0, NULL, 0, NULL);
      break;
    }
  }
  _exit(0); /* without closing anything */
}

enum role { GOOD_DRAM, GOOD_ACCELDEV, HOSTILE, KILLED };

static enum role role_of(int i) {
  switch (i % 5) {
    case 0: return GOOD_DRAM;
    case 1: return GOOD_ACCELDEV;
    case 2: return KILLED;
    default: return HOSTILE;
  }
}

static void round_of_clients(int round) {
  pid_t pid[CLIENTS];
  int ready[CLIENTS];
  for (int i = 0; i < CLIENTS; ++i) {
    int p[2] = {-1, -1};
    if (role_of(i) == KILLED) CHECK(pipe(p) == 0);
    ready[i] = p[0];
    pid[i] = fork();
    CHECK(pid[i] >= 0);
    if (pid[i] == 0) {
      const uint32_t seed = (uint32_t)(round * CLIENTS + i);
      switch (role_of(i)) {
        case GOOD_DRAM: _exit(good_dram(seed));
        case GOOD_ACCELDEV: _exit(good_acceldev(seed, -1));
        case KILLED: _exit(good_acceldev(seed, p[1]));  /* killed while its run is waited for */
        case HOSTILE: hostile(seed, seed);
      }
    }
    if (p[1] >= 0) close(p[1]);
  }
  for (int i = 0; i < CLIENTS; ++i) {
    if (role_of(i) != KILLED) continue;
    char c;
    if (read(ready[i], &c, 1) == 1) kill(pid[i], SIGKILL);
    close(ready[i]);
  }
  for (int i = 0; i < CLIENTS; ++i) {
    int st = 0;
    CHECK(waitpid(pid[i], &st, 0) == pid[i]);
    const int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (role_of(i) == GOOD_DRAM || role_of(i) == GOOD_ACCELDEV) {
      if (code != 0) fprintf(stderr, "bridge_soak: round %d client %d (role %d) failed with %d\n", round, i, role_of(i), code);
      CHECK(code == 0);
    }
  }
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  const int rounds = argc > 1 ? atoi(argv[1]) : 4;
  CHECK(rounds >= 2);
  round_of_clients(0); /* warm-up: the server's pools and the driver reach their working size */
  const long first = server_rss_kib();
  for (int r = 1; r < rounds; ++r) round_of_clients(r);
  const long last = server_rss_kib();
  fprintf(stderr, "bridge_soak: %d rounds of %d clients; server RSS after round 1: %ld KiB, after round %d: %ld KiB\n",
          rounds, CLIENTS, first, rounds, last);
  CHECK(getenv("ACCELVP_SOAK_NO_RSS") || last - first < 64 * 1024);
  /* Still serving, with the device in order. */
  CHECK(good_dram(12345) == 0 && good_acceldev(54321, -1) == 0);
  printf("bridge_soak: OK\n");
  return 0;
}
