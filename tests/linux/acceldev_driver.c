/* The Acceldev kernel driver's own checks (docs/linux-driver.md), run in the
 * host system's Linux beside the programs written for the original driver:
 * a reused context id carries nothing over, errors of one context (MEM_ERROR,
 * SLOT_ERROR) give that context EIO and spare the others, a signal ends a
 * WAIT with EINTR, a forked child shares its parent's context, threads share
 * one context, and more commands than the queue holds flow through it. */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>

#include "devfile.h"

#define PAGE 4096

static int all(const uint8_t *p, size_t n, uint8_t v) {
  for (size_t i = 0; i < n; ++i)
    if (p[i] != v) return 0;
  return 1;
}

static void *map(int bfd, size_t size) {
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
  CHECK(p != MAP_FAILED);
  return p;
}

/* Runs the commands written in code[0 .. end) on context fd. */
static int run_to(int fd, int cfd, const uint32_t *code, const uint32_t *end) {
  return run_code(fd, cfd, 0, (uint32_t)((const uint8_t *)end - (const uint8_t *)code));
}

/* WAIT interrupted by SIGUSR1, sent by a thread until the WAIT returns. */
static volatile sig_atomic_t signals_seen;
static void on_usr1(int sig) { (void)sig; ++signals_seen; }
struct interrupter {
  pthread_t target;
  volatile int done;
};
static void *interrupt_until_done(void *p) {
  struct interrupter *it = p;
  while (!it->done) {
    pthread_kill(it->target, SIGUSR1);
    usleep(20000);
  }
  return NULL;
}
/* WAIT(fence) on fd while SIGUSR1 arrives every 20 ms: its result and errno. */
static int wait_signalled(int fd, uint32_t fence, int *err) {
  struct sigaction sa = {0};
  sa.sa_handler = on_usr1;
  sa.sa_flags = SA_RESTART; /* the driver's EINTR is not restarted */
  CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
  struct interrupter it = {pthread_self(), 0};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, interrupt_until_done, &it) == 0);
  errno = 0;
  const int rc = wait_fence(fd, fence);
  *err = errno;
  it.done = 1;
  pthread_join(t, NULL);
  return rc;
}

/* All 255 contexts open; one errs and closes; the context that reuses its id
 * starts with fence counter 0, no error and no bound slot. */
static void context_reuse(void) {
  int fds[ACCELDEV_MAX_CONTEXTS];
  for (int i = 0; i < ACCELDEV_MAX_CONTEXTS; ++i) CHECK((fds[i] = open("/dev/acceldev0", O_RDWR)) >= 0);
  CHECK_ERRNO(open("/dev/acceldev0", O_RDWR), ENOSPC);
  const int k = 7;
  uint32_t slot;
  int cfd = create_buf(fds[k], PAGE, BUFFER_TYPE_CODE, NULL), dfd = create_buf(fds[k], PAGE, BUFFER_TYPE_DATA, &slot);
  CHECK(cfd >= 0 && dfd >= 0 && slot == 0);
  uint32_t *code = map(cfd, PAGE), *w = code;
  for (int i = 0; i < 3; ++i) w = put_fence(put_fill(w, slot, 0x5A5A5A5Au, 0, PAGE));
  w = put_fence(w);
  w[-ACCELDEV_USER_CMD_WORDS] = 0xF; /* an unknown user command instead of a fourth fence */
  CHECK(run_to(fds[k], cfd, code, w) == 0);
  CHECK_ERRNO(wait_fence(fds[k], 4), EIO);
  munmap(code, PAGE);
  CHECK(close(cfd) == 0 && close(dfd) == 0 && close(fds[k]) == 0);

  CHECK((fds[k] = open("/dev/acceldev0", O_RDWR)) >= 0); /* the only free id: the old one */
  cfd = create_buf(fds[k], PAGE, BUFFER_TYPE_CODE, NULL);
  CHECK(cfd >= 0);
  code = map(cfd, PAGE);
  CHECK(run_to(fds[k], cfd, code, put_fence(code)) == 0); /* not in error: the RUN is accepted */
  CHECK(wait_fence(fds[k], 1) == 0);
  int err;
  CHECK(wait_signalled(fds[k], 2, &err) == -1 && err == EINTR); /* the counter is 1, not 4 */
  CHECK(run_to(fds[k], cfd, code, put_fence(put_fill(code, 0, 1, 0, 4))) == 0);
  CHECK_ERRNO(wait_fence(fds[k], 2), EIO); /* slot 0 is not bound in the new context: SLOT_ERROR */
  munmap(code, PAGE);
  CHECK(close(cfd) == 0);
  for (int i = 0; i < ACCELDEV_MAX_CONTEXTS; ++i) CHECK(close(fds[i]) == 0);
}

/* One erring context among healthy ones: the device's error interrupts reach
 * only it. */
static void errors(void) {
  int good = open("/dev/acceldev0", O_RDWR);
  uint32_t gslot;
  int gcode = create_buf(good, PAGE, BUFFER_TYPE_CODE, NULL), gdata = create_buf(good, PAGE, BUFFER_TYPE_DATA, &gslot);
  CHECK(good >= 0 && gcode >= 0 && gdata >= 0);
  uint32_t *gc = map(gcode, PAGE);
  uint8_t *gd = map(gdata, PAGE);
  uint32_t gfence = 0;
  for (int kind = 0; kind < 3; ++kind) {
    int fd = open("/dev/acceldev0", O_RDWR);
    uint32_t slot;
    int cfd = create_buf(fd, PAGE, BUFFER_TYPE_CODE, NULL), dfd = create_buf(fd, 2 * PAGE, BUFFER_TYPE_DATA, &slot);
    CHECK(fd >= 0 && cfd >= 0 && dfd >= 0);
    uint32_t *code = map(cfd, PAGE);
    uint8_t *data = map(dfd, 2 * PAGE);
    if (kind == 0) { /* MEM_ERROR: the RUN reaches past its code buffer */
      CHECK(run_code(fd, cfd, PAGE, CMD_BYTES) == 0);
    } else if (kind == 1) { /* SLOT_ERROR: a FILL of an unbound slot */
      CHECK(run_to(fd, cfd, code, put_fence(put_fill(code, slot + 1, 1, 0, 4))) == 0);
    } else { /* MEM_ERROR: a FILL past the data buffer; the pages before stay written */
      CHECK(run_to(fd, cfd, code, put_fence(put_fill(code, slot, 0x77777777u, 0, 3 * PAGE))) == 0);
    }
    CHECK_ERRNO(wait_fence(fd, 1), EIO);
    CHECK_ERRNO(run_code(fd, cfd, 0, CMD_BYTES), EIO);
    CHECK(kind != 2 || all(data, 2 * PAGE, 0x77));
    /* The healthy context carries on. */
    CHECK(run_to(good, gcode, gc, put_fence(put_fill(gc, gslot, 0x01010101u * (kind + 1), 0, PAGE))) == 0);
    CHECK(wait_fence(good, ++gfence) == 0 && all(gd, PAGE, (uint8_t)(kind + 1)));
    munmap(code, PAGE);
    munmap(data, 2 * PAGE);
    CHECK(close(cfd) == 0 && close(dfd) == 0 && close(fd) == 0);
  }
  /* A signal during WAIT: EINTR, and the context still works. */
  int err;
  CHECK(wait_signalled(good, gfence + 1, &err) == -1 && err == EINTR && signals_seen > 0);
  CHECK(run_to(good, gcode, gc, put_fence(gc)) == 0 && wait_fence(good, gfence + 1) == 0);
  munmap(gc, PAGE);
  munmap(gd, PAGE);
  CHECK(close(gcode) == 0 && close(gdata) == 0 && close(good) == 0);
}

/* A forked child's descriptors are its parent's files: it drives the same
 * context, and its closes leave the context to the parent. */
static void fork_shares_context(void) {
  int fd = open("/dev/acceldev0", O_RDWR);
  uint32_t slot;
  int cfd = create_buf(fd, PAGE, BUFFER_TYPE_CODE, NULL), dfd = create_buf(fd, PAGE, BUFFER_TYPE_DATA, &slot);
  CHECK(fd >= 0 && cfd >= 0 && dfd >= 0);
  uint8_t *data = map(dfd, PAGE);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    uint32_t *code = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
    if (code == MAP_FAILED) _exit(10);
    if (run_to(fd, cfd, code, put_fence(put_fill(code, slot, 0x42424242u, 0, PAGE))) || wait_fence(fd, 1)) _exit(11);
    if (!all(data, PAGE, 0x42)) _exit(12);
    _exit(close(cfd) || close(dfd) || close(fd) ? 13 : 0);
  }
  int status = -1;
  CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK(all(data, PAGE, 0x42) && wait_fence(fd, 1) == 0);
  uint32_t *code = map(cfd, PAGE);
  CHECK(run_to(fd, cfd, code, put_fence(put_fill(code, slot, 0x24242424u, 0, PAGE))) == 0);
  CHECK(wait_fence(fd, 2) == 0 && all(data, PAGE, 0x24));
  munmap(code, PAGE);
  munmap(data, PAGE);
  CHECK(close(cfd) == 0 && close(dfd) == 0 && close(fd) == 0);
}

/* Threads sharing one context, each with its own buffers, RUNs at once. */
#define SHARERS 8
#define SHARED_ROUNDS 4
static int shared_fd;
static void *sharer(void *p) {
  const int id = (int)(intptr_t)p;
  uint32_t slot;
  int cfd = create_buf(shared_fd, PAGE, BUFFER_TYPE_CODE, NULL), dfd = create_buf(shared_fd, PAGE, BUFFER_TYPE_DATA, &slot);
  if (cfd < 0 || dfd < 0) return (void *)1;
  uint32_t *code = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
  uint8_t *data = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
  if (code == MAP_FAILED || data == MAP_FAILED) return (void *)2;
  for (int r = 0; r < SHARED_ROUNDS; ++r) {
    const uint32_t offset = (uint32_t)r * 2 * CMD_BYTES;
    put_fence(put_fill(code + offset / 4, slot, 0x01010101u * (uint32_t)(id * 16 + r), 0, PAGE));
    if (run_code(shared_fd, cfd, offset, 2 * CMD_BYTES)) return (void *)3;
  }
  /* Every thread's RUNs end with a fence: the counter reaches them all. */
  if (wait_fence(shared_fd, SHARERS * SHARED_ROUNDS)) return (void *)4;
  if (!all(data, PAGE, (uint8_t)(id * 16 + SHARED_ROUNDS - 1))) return (void *)5;
  munmap(code, PAGE);
  munmap(data, PAGE);
  return close(cfd) || close(dfd) ? (void *)6 : NULL;
}
static void shared_context_threads(void) {
  CHECK((shared_fd = open("/dev/acceldev0", O_RDWR)) >= 0);
  pthread_t t[SHARERS];
  for (intptr_t i = 0; i < SHARERS; ++i) CHECK(pthread_create(&t[i], NULL, sharer, (void *)i) == 0);
  for (int i = 0; i < SHARERS; ++i) {
    void *r;
    pthread_join(t[i], &r);
    if (r) fprintf(stderr, "sharer %d failed (%ld)\n", i, (long)(intptr_t)r);
    CHECK(r == NULL);
  }
  CHECK(close(shared_fd) == 0);
}

/* More RUNs than the device queue holds (each RUN is followed by the
 * driver's FENCE): the free count paces the feed, nothing is lost. */
#define QUEUE_RUNS 600
static void queue_flow(void) {
  int fd = open("/dev/acceldev0", O_RDWR);
  int cfd = create_buf(fd, PAGE, BUFFER_TYPE_CODE, NULL);
  CHECK(fd >= 0 && cfd >= 0);
  uint32_t *code = map(cfd, PAGE);
  put_fence(code);
  for (int i = 0; i < QUEUE_RUNS; ++i) CHECK(run_code(fd, cfd, 0, CMD_BYTES) == 0);
  CHECK(wait_fence(fd, QUEUE_RUNS) == 0);
  munmap(code, PAGE);
  CHECK(close(cfd) == 0 && close(fd) == 0);
}

int main(void) {
  context_reuse();
  printf("acceldev_driver: context reuse OK\n");
  errors();
  printf("acceldev_driver: errors and EINTR OK\n");
  fork_shares_context();
  printf("acceldev_driver: fork OK\n");
  shared_context_threads();
  printf("acceldev_driver: %d threads on one context OK\n", SHARERS);
  queue_flow();
  printf("acceldev_driver: %d RUNs through the queue OK\n", QUEUE_RUNS);
  printf("acceldev_driver: OK\n");
  return 0;
}
