/* Hostile clients of the host bridge (issue shapes that once ended, hung or
 * bloated the server): shared memory shrunk under it, an MSI address near
 * 2^64, a client that never reads its replies, the device disabled before a
 * context closes (and a client dying so), BYE, device DRAM from two handles,
 * two processes and four threads, BAR accesses that fail, the server out of
 * descriptors. Each gets an error or the documented
 * result, and the server goes on serving. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <poll.h>
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

static void send_req(int fd, uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3) {
  struct avpb_request q = {op, 0, {a0, a1, a2, a3}};
  CHECK(send(fd, &q, sizeof q, MSG_NOSIGNAL) == (ssize_t)sizeof q);
}

/* The next reply (its payload skipped). */
static struct avpb_reply reply(int fd, int *passed) { return raw_reply(fd, NULL, 0, passed); }

static int hello(void) {
  int fd = dial();
  send_req(fd, AVPB_HELLO, AVPB_MAGIC, AVPB_VERSION, 0, 0);
  struct avpb_reply r = reply(fd, NULL);
  CHECK(r.status == 0);
  return fd;
}

/* Every memory file the server hands out is sealed at its size: shrinking
 * it (which made the server's next access raise SIGBUS) or growing it fails. */
static void shared_memory_cannot_be_resized(void) {
  int mem_fd = -1, ring_fd = -1, dram_fd = -1, buffer_fd = -1;
  int fd = hello();
  send_req(fd, AVPB_HOST_ALLOC, 8192, 0, 0, 0);
  CHECK(reply(fd, &mem_fd).status == 0 && mem_fd >= 0);
  send_req(fd, AVPB_RING, 0, 0, 0, 0);
  CHECK(reply(fd, &ring_fd).status == 0 && ring_fd >= 0);
  send_req(fd, AVPB_DRAM_ALLOC, 8192, 0, 0, 0);
  CHECK(reply(fd, &dram_fd).status == 0 && dram_fd >= 0);
  send_req(fd, AVPB_DEV_OPEN, 0, 0, 0, 0);
  const struct avpb_reply opened = reply(fd, NULL);
  CHECK(opened.status == 0);
  send_req(fd, AVPB_DEV_CREATE_BUFFER, opened.r[0], 1, 8192, 0);
  CHECK(reply(fd, &buffer_fd).status == 0 && buffer_fd >= 0);
  const int fds[4] = {mem_fd, ring_fd, dram_fd, buffer_fd};
  for (int i = 0; i < 4; ++i) {
    CHECK_ERRNO(ftruncate(fds[i], 4096), EPERM);
    CHECK_ERRNO(ftruncate(fds[i], 0), EPERM);
    CHECK_ERRNO(ftruncate(fds[i], 1ll << 40), EPERM);
    close(fds[i]);
  }
  /* Closed here, not by the session's end, whose drain would use the device
   * while the next test drives it with raw MMIO. */
  send_req(fd, AVPB_DEV_CLOSE, opened.r[0], 0, 0, 0);
  CHECK(reply(fd, NULL).status == 0);
  close(fd);
  /* The server still reads host memory (the MSI doorbell, DMA) as before. */
  avp_host *h = avp_host_connect(NULL);
  CHECK(h);
  uint64_t bus;
  uint32_t *p = avp_host_alloc(h, 4096, 4096, &bus);
  CHECK(p);
  p[0] = 0x12345678u;
  avp_host_disconnect(h);
}

/* An MSI address past the host memory, up to 2^64 - 4 (where addr + 4
 * wrapped to 0 and the server ended on "write past the end"): the interrupt
 * is still delivered, the write goes nowhere. One at the last word of a block
 * the program owns lands there. */
static void msi_addresses_near_the_top(void) {
  avp_host *h = avp_host_connect(NULL);
  CHECK(h);
  avp_bar *bar0 = avp_bar_map(h, 0);
  CHECK(bar0);
  const uint64_t host_size = 1ull << 30;
  uint64_t page = 0;
  const uint32_t *last = (const uint32_t *)((const uint8_t *)avp_host_alloc(h, 4096, 0, &page) + 4092);
  const uint64_t addrs[] = {~0ull - 3, ~0ull - 7, host_size, host_size + 4, host_size - 4, page + 4092};
  CHECK(avp_mmio_write32(bar0, ACCELDEV_INTR_ENABLE, ACCELDEV_INTR_CMD_ERROR) == 0);
  CHECK(avp_mmio_write32(bar0, ACCELDEV_ENABLE, 1) == 0);
  for (unsigned i = 0; i < sizeof addrs / sizeof addrs[0]; ++i) {
    CHECK(avp_cfg_write(h, 0x54, 4, (uint32_t)addrs[i]) == 0);
    CHECK(avp_cfg_write(h, 0x58, 4, (uint32_t)(addrs[i] >> 32)) == 0);
    CHECK(avp_cfg_write(h, 0x5C, 4, 0xBEEF) == 0);
    CHECK(avp_cfg_write(h, 0x50, 4, 1u << 16) == 0); /* MSI enable */
    /* An unknown device command: CMD_ERROR, an interrupt. */
    for (uint32_t w = 0; w < 5; ++w) CHECK(avp_mmio_write32(bar0, ACCELDEV_CMD_MANUAL_FEED(w), w ? 0 : 0xF) == 0);
    CHECK(avp_irq_wait(h, 1000000) > 0);
    CHECK(avp_mmio_write32(bar0, ACCELDEV_INTR, ACCELDEV_INTR_CMD_ERROR) == 0);
  }
  CHECK(page && *last == 0xBEEF);
  CHECK(avp_cfg_write(h, 0x50, 4, 0) == 0);
  CHECK(avp_mmio_write32(bar0, ACCELDEV_INTR_ENABLE, 0) == 0);
  avp_bar_unmap(bar0);
  avp_host_disconnect(h);
}

/* A client that sends requests and never reads the replies: the server stops
 * reading it once its unread replies reach the cap (the client's sends then
 * block), its memory does not grow with the requests, and every reply comes
 * once the client reads. Each request asks for a 64 KiB reply (BAR2 read). */
static void replies_never_read(void) {
  int fd = hello();
  const long before = server_rss_kib();
  CHECK(fcntl(fd, F_SETFL, O_NONBLOCK) == 0);
  long sent = 0;
  const long most = 4000; /* 250 MiB of replies, were they all queued */
  while (sent < most) {
    struct avpb_request q = {AVPB_BAR_READ, 0, {2, 0, AVPB_MAX_PAYLOAD, 0}};
    ssize_t n = send(fd, &q, sizeof q, MSG_NOSIGNAL);
    if (n == (ssize_t)sizeof q) {
      ++sent;
      continue;
    }
    CHECK(n < 0 && errno == EAGAIN);
    /* Blocked: the server stops reading once its queue for us is full. It is
     * done with us when the socket stays full while it serves another
     * client's requests. */
    avp_host *h = avp_host_connect(NULL);
    CHECK(h);
    for (int i = 0; i < 50; ++i) avp_sim_time_ps(h);
    avp_host_disconnect(h);
    struct pollfd p = {fd, POLLOUT, 0};
    if (poll(&p, 1, 0) == 0) break;
  }
  const long after = server_rss_kib();
  fprintf(stderr, "replies_never_read: %ld requests sent before the server stopped reading; server RSS %ld -> %ld KiB\n",
          sent, before, after);
  CHECK(sent < most);
  CHECK(after - before < 64 * 1024);
  CHECK(fcntl(fd, F_SETFL, 0) == 0);
  /* Every request sent gets its reply, in order, once the client reads. */
  for (long i = 0; i < sent; ++i) {
    struct avpb_reply r = reply(fd, NULL);
    CHECK(r.status == 0 && r.op == AVPB_BAR_READ && r.length == AVPB_MAX_PAYLOAD);
  }
  close(fd);
}

/* A client disables the device (ENABLE = 0) and closes its context: the
 * driver's drain used to wait for ever holding the driver, and every other
 * client's DEV_OPEN with it. The driver owns Acceldev's registers once it has
 * started: a program's raw write there is refused with EBUSY (INTR and
 * INTR_ENABLE excepted, for the bits of the other units), so the device stays
 * enabled; a client dying with an open context after trying changes nothing. */
static void device_disabled_before_close(void) {
  int fd = hello();
  send_req(fd, AVPB_DEV_OPEN, 0, 0, 0, 0);
  struct avpb_reply r = reply(fd, NULL);
  CHECK(r.status == 0);
  const uint64_t ctx = r.r[0];
  send_req(fd, AVPB_MMIO_WRITE, 0, ACCELDEV_ENABLE, 4, 0);
  CHECK(reply(fd, NULL).status == -EBUSY);
  send_req(fd, AVPB_MMIO_WRITE, 0, ACCELDEV_CMD_MANUAL_FEED(0), 4, 0xF);
  CHECK(reply(fd, NULL).status == -EBUSY);
  send_req(fd, AVPB_MMIO_WRITE, 0, ACCELDEV_CONTEXTS_CONFIGS_LO, 8, 0);
  CHECK(reply(fd, NULL).status == -EBUSY);
  /* Nor memory decoding, bus mastering or INTx off under it. */
  const uint32_t commands[] = {0x0004, 0x0002, 0x0406, 0};
  for (unsigned i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
    send_req(fd, AVPB_CFG_WRITE, 4, 2, commands[i], 0);
    CHECK(reply(fd, NULL).status == -EBUSY);
  }
  send_req(fd, AVPB_CFG_WRITE, 4, 2, 0x0006, 0);
  CHECK(reply(fd, NULL).status == 0);
  /* The driver's interrupt bits stay enabled; the command processor's change. */
  send_req(fd, AVPB_MMIO_WRITE, 0, ACCELDEV_INTR_ENABLE, 4, AVP_INTR_CMP_ERROR);
  CHECK(reply(fd, NULL).status == 0);
  send_req(fd, AVPB_MMIO_READ, 0, ACCELDEV_INTR_ENABLE, 4, 0);
  r = reply(fd, NULL);
  CHECK(r.status == 0 && r.r[0] == (AVP_INTR_CMP_ERROR | 0x3Fu));
  send_req(fd, AVPB_MMIO_WRITE, 0, ACCELDEV_INTR_ENABLE, 4, 0);
  CHECK(reply(fd, NULL).status == 0);
  send_req(fd, AVPB_DEV_CLOSE, ctx, 0, 0, 0);
  CHECK(reply(fd, NULL).status == 0);
  send_req(fd, AVPB_MMIO_READ, 0, ACCELDEV_ENABLE, 4, 0);
  r = reply(fd, NULL);
  CHECK(r.status == 0 && r.r[0] == 1);
  close(fd);

  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    int c = hello();
    send_req(c, AVPB_DEV_OPEN, 0, 0, 0, 0);
    CHECK(reply(c, NULL).status == 0);
    send_req(c, AVPB_MMIO_WRITE, 0, ACCELDEV_ENABLE, 4, 0);
    CHECK(reply(c, NULL).status == -EBUSY);
    _exit(0); /* dies with its context open */
  }
  int st;
  CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
  fd = hello();
  send_req(fd, AVPB_DEV_OPEN, 0, 0, 0, 0);
  r = reply(fd, NULL);
  CHECK(r.status == 0);
  send_req(fd, AVPB_DEV_CLOSE, r.r[0], 0, 0, 0);
  CHECK(reply(fd, NULL).status == 0);
  close(fd);
}

/* Accesses past a BAR's end, or with memory decoding off, are errors: EIO,
 * reads answering all-ones (they were answered 0 / all-ones with no error). */
static void bar_accesses_that_fail(void) {
  avp_host *h = avp_host_connect(NULL);
  CHECK(h);
  avp_bar *bar0 = avp_bar_map(h, 0), *bar2 = avp_bar_map(h, 2);
  CHECK(bar0 && bar2);
  errno = 0;
  CHECK(avp_mmio_read32(bar0, avp_bar_size(bar0)) == 0xFFFFFFFFu && errno == EIO);
  errno = 0;
  CHECK(avp_mmio_read32(bar0, avp_bar_size(bar0) - 2) == 0xFFFFFFFFu && errno == EIO);
  CHECK_ERRNO(avp_mmio_write32(bar0, avp_bar_size(bar0), 1), EIO);
  errno = 0;
  CHECK(avp_mmio_read64(bar2, avp_bar_size(bar2)) == ~0ull && errno == EIO);
  char buf[64];
  CHECK_ERRNO(avp_bar_read(bar2, avp_bar_size(bar2) - 32, buf, sizeof buf), EIO);
  CHECK_ERRNO(avp_bar_read(bar2, ~0ull - 31, buf, sizeof buf), EIO);
  uint32_t cmd;
  CHECK(avp_cfg_read(h, 4, 2, &cmd) == 0);
  CHECK(avp_cfg_write(h, 4, 2, cmd & ~2u) == 0); /* memory decoding off */
  errno = 0;
  CHECK(avp_mmio_read32(bar0, AVP_INFO_MAGIC) == 0xFFFFFFFFu && errno == EIO);
  CHECK_ERRNO(avp_bar_read(bar2, 0, buf, sizeof buf), EIO);
  CHECK(avp_cfg_write(h, 4, 2, cmd) == 0);
  CHECK(avp_mmio_read32(bar0, AVP_INFO_MAGIC) == AVP_INFO_MAGIC_VALUE);
  avp_bar_unmap(bar0);
  avp_bar_unmap(bar2);
  avp_host_disconnect(h);
}

/* The highest descriptor number open in `pid` (the limit counts numbers). */
static int highest_fd(pid_t pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
  DIR *d = opendir(path);
  CHECK(d);
  int highest = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.' && atoi(e->d_name) > highest) highest = atoi(e->d_name);
  closedir(d);
  return highest;
}

/* The server out of descriptors: a new client is accepted and closed at once
 * (the listener left ready made the server spin), and clients are served
 * again once descriptors are free. */
static void descriptors_exhausted(void) {
  struct rlimit old, low;
  CHECK(prlimit(getppid(), RLIMIT_NOFILE, NULL, &old) == 0);
  low = old;
  low.rlim_cur = (rlim_t)highest_fd(getppid()) + 3;
  CHECK(prlimit(getppid(), RLIMIT_NOFILE, &low, NULL) == 0);
  int fds[1000], n = 0, refused = 0;
  while (n < 1000 && !refused) {
    int fd = dial();
    /* A refused client may be closed before its HELLO is sent (EPIPE) or
     * answered (EOF or a reset): each is the refusal. */
    struct avpb_request q = {AVPB_HELLO, 0, {AVPB_MAGIC, AVPB_VERSION, 0, 0}};
    struct avpb_reply r;
    refused = send(fd, &q, sizeof q, MSG_NOSIGNAL) != (ssize_t)sizeof q ||
              recv(fd, &r, sizeof r, MSG_WAITALL) <= 0;
    fds[n++] = fd;
  }
  CHECK(refused);
  CHECK(prlimit(getppid(), RLIMIT_NOFILE, &old, NULL) == 0);
  for (int i = 0; i < n; ++i) close(fds[i]);
  avp_host *h = avp_host_connect(NULL);
  CHECK(h && avp_sim_time_ps(h) > 0);
  avp_host_disconnect(h);
}

/* BYE ends the connection at once (the server closes its side). */
static void bye_closes(void) {
  int fd = hello();
  send_req(fd, AVPB_BYE, 0, 0, 0, 0);
  char c;
  CHECK(recv(fd, &c, 1, 0) == 0);
  close(fd);
}

struct span {
  uint64_t start, size;
};

static int overlap(const struct span *s, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (s[i].start < s[j].start + s[j].size && s[j].start < s[i].start + s[i].size) return 1;
  return 0;
}

#define PER_THREAD 64
struct alloc_job {
  avp_device *d;
  struct span got[PER_THREAD];
};

static void *alloc_many(void *arg) {
  struct alloc_job *j = arg;
  for (int i = 0; i < PER_THREAD; ++i) {
    j->got[i].size = 4096 + 256 * (uint64_t)i;
    j->got[i].start = avp_device_alloc(j->d, j->got[i].size, 256);
    CHECK(j->got[i].start);
  }
  return NULL;
}

/* Whether reading `p` ends a process with SIGSEGV (checked in a child). */
static int unreadable(const volatile uint8_t *p) {
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    signal(SIGSEGV, SIG_DFL);
    (void)*p;
    _exit(0);
  }
  int st;
  CHECK(waitpid(pid, &st, 0) == pid);
  return WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV;
}

/* Runs `program` with `arg` in a child process, another program of the
 * server (a session of its own); the value it leaves in *got comes back. Its
 * exit status (0 when its checks passed) must be 0. */
static uint64_t in_another_program(int (*program)(uint64_t arg, uint64_t *got), uint64_t arg) {
  int p[2];
  CHECK(pipe(p) == 0);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    uint64_t got = 0;
    const int status = program(arg, &got);
    if (write(p[1], &got, sizeof got) != sizeof got) _exit(100);
    _exit(status);
  }
  uint64_t got = 0;
  CHECK(read(p[0], &got, sizeof got) == sizeof got);
  int st;
  CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
  close(p[0]);
  close(p[1]);
  return got;
}

/* Another program's host memory block: its own, and the first program's
 * block (at `mine`) not mapped. */
static int map_another_host_block(uint64_t mine, uint64_t *theirs) {
  avp_host *h = avp_host_connect(NULL);
  if (!h) return 2;
  uint8_t *other = avp_host_alloc(h, 4096, 0, theirs);
  if (!other || *theirs == mine) return 3;
  memset(other, 0xC3, 4096);
  if (avp_host_ptr(h, mine, 1) != NULL || errno != EFAULT) return 4;
  if (!unreadable(other - *theirs + mine)) return 5; /* the first program's block */
  return 0;
}

/* Host memory as an operating system shares it: a program maps only the
 * blocks it was given. Another program's block, an Acceldev buffer of
 * another program and everything the server keeps (the driver's page tables
 * and context configurations) are not mapped in it at all; the device still
 * reaches every program's blocks. */
static void programs_map_only_their_own_memory(void) {
  avp_host *h = avp_host_connect(NULL);
  CHECK(h);
  uint64_t mine = 0;
  uint8_t *block = avp_host_alloc(h, 3 * 4096, 0, &mine);
  CHECK(block && (mine & 4095) == 0);
  memset(block, 0x5A, 3 * 4096);
  const uint8_t *view = block - mine; /* where the program's view of the host memory starts */
  CHECK(!unreadable(block) && !unreadable(block + 3 * 4096 - 1));
  CHECK(unreadable(block + 3 * 4096)); /* the page after: not given */
  CHECK(avp_host_ptr(h, mine + 3 * 4096 - 4, 4) == block + 3 * 4096 - 4);
  CHECK(avp_host_ptr(h, mine + 3 * 4096 - 4, 8) == NULL && errno == EFAULT);
  CHECK(avp_host_ptr(h, 0, 4) == NULL && errno == EFAULT);
  CHECK(unreadable(view)); /* the driver's first allocations (context configurations) */

  const uint64_t theirs = in_another_program(map_another_host_block, mine);
  CHECK(unreadable(view + theirs)); /* and the other way round */
  for (int i = 0; i < 3 * 4096; ++i) CHECK(block[i] == 0x5A);
  avp_host_disconnect(h);
}

/* Another program's DRAM block: its own, and the first program's block (at
 * `mine`) not mapped. */
static int map_another_dram_block(uint64_t mine, uint64_t *theirs) {
  avp_host *h = avp_host_connect(NULL);
  avp_device *d = h ? avp_device_open(h) : NULL;
  if (!d) return 2;
  *theirs = avp_device_alloc(d, 4096, 0);
  uint8_t *q = *theirs ? avp_device_ptr(d, *theirs, 4096) : NULL;
  if (!q) return 3;
  if (avp_device_ptr(d, mine, 1) != NULL || errno != EFAULT) return 4;
  if (!unreadable(q - *theirs + mine)) return 5; /* the first program's block */
  return 0;
}

/* Device DRAM likewise: a program maps only its own DRAM blocks (whole
 * pages), every handle of the program the same mapping, until it frees them;
 * the device sees what the program stored. */
static void programs_map_only_their_own_dram(void) {
  avp_host *h = avp_host_connect(NULL);
  CHECK(h);
  avp_device *a = avp_device_open(h), *b = avp_device_open(h);
  CHECK(a && b);
  const uint64_t mine = avp_device_alloc(a, 100, 256);
  CHECK(mine && (mine & 4095) == 0);
  uint8_t *p = avp_device_ptr(a, mine, 4096); /* the whole page is the block */
  CHECK(p && avp_device_ptr(b, mine + 4000, 96) == p + 4000);
  CHECK(avp_device_ptr(a, mine + 4000, 97) == NULL && errno == EFAULT);
  CHECK(unreadable(p + 4096) && unreadable(p - 1));
  memset(p, 0x77, 4096);
  uint8_t back[16];
  CHECK(avp_device_read(b, mine + 4080, back, sizeof back) == 0 && back[0] == 0x77 && back[15] == 0x77);

  const uint64_t theirs = in_another_program(map_another_dram_block, mine);
  CHECK(unreadable(p - mine + theirs)); /* and the other way round */
  CHECK(avp_device_free(b, mine) == 0);
  CHECK(avp_device_ptr(a, mine, 1) == NULL && errno == EFAULT);
  CHECK(unreadable(p)); /* freed: no longer mapped */
  avp_device_close(a);
  avp_device_close(b);
  avp_host_disconnect(h);
}

/* Another program's 1 MiB of DRAM, and the first program's block (at
 * `theirs`) not its to free; its block goes when it exits. */
static int allocate_in_another_program(uint64_t theirs, uint64_t *mine) {
  avp_host *h = avp_host_connect(NULL);
  avp_device *d = h ? avp_device_open(h) : NULL;
  if (!d) return 2;
  *mine = avp_device_alloc(d, 1 << 20, 4096);
  errno = 0;
  if (avp_device_free(d, theirs) == 0 || errno != EINVAL) return 4; /* not its block */
  return 0;
}

/* Device DRAM comes from one allocator in the server: two handles, another
 * process and four threads never get the same bytes; a program frees only its
 * own blocks; a program's blocks go when it disconnects. */
static void one_dram_allocator(void) {
  avp_host *h = avp_host_connect(NULL);
  CHECK(h);
  avp_device *a = avp_device_open(h), *b = avp_device_open(h);
  CHECK(a && b);
  struct span s[2 + 4 * PER_THREAD];
  s[0] = (struct span){avp_device_alloc(a, 1 << 20, 4096), 1 << 20};
  s[1] = (struct span){avp_device_alloc(b, 1 << 20, 4096), 1 << 20};
  CHECK(s[0].start && s[1].start && !overlap(s, 2));

  const uint64_t theirs = in_another_program(allocate_in_another_program, s[0].start);
  struct span three[3] = {s[0], s[1], {theirs, 1 << 20}};
  CHECK(theirs && !overlap(three, 3));

  pthread_t t[4];
  struct alloc_job jobs[4];
  for (int i = 0; i < 4; ++i) {
    jobs[i].d = i % 2 ? a : b;
    CHECK(pthread_create(&t[i], NULL, alloc_many, &jobs[i]) == 0);
  }
  for (int i = 0; i < 4; ++i) CHECK(pthread_join(t[i], NULL) == 0);
  for (int i = 0; i < 4; ++i) memcpy(&s[2 + i * PER_THREAD], jobs[i].got, sizeof jobs[i].got);
  CHECK(!overlap(s, 2 + 4 * PER_THREAD));
  CHECK(avp_device_free(b, s[0].start) == 0); /* any handle of the program frees its blocks */
  CHECK_ERRNO(avp_device_free(a, s[0].start), EINVAL);
  avp_device_close(a);
  avp_device_close(b);
  avp_host_disconnect(h);

  /* Everything above was released with its program: the whole DRAM is free again. */
  h = avp_host_connect(NULL);
  a = avp_device_open(h);
  CHECK(a);
  const avp_device_info *info = avp_device_get_info(a);
  const uint64_t all = info->dram_size - ACCELDEV_CMP_STAGING_SIZE;
  const uint64_t at = avp_device_alloc(a, all, 4096);
  CHECK(at == info->dram_base);
  errno = 0;
  CHECK(avp_device_alloc(a, 4096, 4096) == 0 && errno == ENOMEM);
  errno = 0;
  CHECK(avp_device_alloc(a, 4096, 3) == 0 && errno == EINVAL);
  errno = 0;
  CHECK(avp_device_alloc(a, 0, 4096) == 0 && errno == EINVAL);
  errno = 0;
  CHECK(avp_device_alloc(a, ~0ull, 4096) == 0 && errno == EINVAL);
  CHECK(avp_device_free(a, at) == 0);
  avp_device_close(a);
  avp_host_disconnect(h);
}

int main(void) {
  signal(SIGPIPE, SIG_IGN);
  /* Acceldev driven raw and memory decoding turned off: before the server's driver starts. */
  msi_addresses_near_the_top();
  bar_accesses_that_fail();
  shared_memory_cannot_be_resized();
  replies_never_read();
  device_disabled_before_close();
  bye_closes();
  descriptors_exhausted();
  one_dram_allocator();
  programs_map_only_their_own_memory();
  programs_map_only_their_own_dram();
  printf("bridge_hostile: OK\n");
  return 0;
}
