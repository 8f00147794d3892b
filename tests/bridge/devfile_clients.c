/* Several client processes of one platform: a client killed in the middle of
 * a run has its contexts freed as if it had closed its device files, and the
 * next client works; two clients at once each get their own results. Each
 * child connects by itself (none is open before the fork). */
#include <signal.h>
#include <sys/wait.h>

#include "devfile.h"

#define SIZE ACCELDEV_BUFFER_MAX_SIZE

/* One context filling its whole 4 MiB data buffer `rounds` times with `value`. */
static int fill_and_check(uint32_t value, int rounds, int ready_pipe) {
  int fd = open("/dev/acceldev0", O_RDWR);
  uint32_t slot;
  int dfd = create_buf(fd, SIZE, BUFFER_TYPE_DATA, &slot);
  int cfd = create_buf(fd, 0x1000, BUFFER_TYPE_CODE, NULL);
  if (fd < 0 || dfd < 0 || cfd < 0) return 10;
  uint8_t *data = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
  uint32_t *code = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
  if (data == MAP_FAILED || code == MAP_FAILED) return 11;
  uint32_t *w = code;
  for (int r = 0; r < rounds; ++r) w = put_fill(w, slot, value, 0, SIZE);
  put_fence(w);
  if (run_code(fd, cfd, 0, (uint32_t)(rounds + 1) * CMD_BYTES) != 0) return 12;
  if (ready_pipe >= 0) CHECK(write(ready_pipe, "r", 1) == 1);
  if (wait_fence(fd, 1) != 0) return 13;
  for (unsigned i = 0; i < SIZE; i += 4093)
    if (data[i] != (uint8_t)(value >> 8 * (i % 4))) return 14;
  return 0;
}

static int status_of(pid_t pid) {
  int st = 0;
  CHECK(waitpid(pid, &st, 0) == pid);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(void) {
  /* A client killed while the device runs its long command. */
  int p[2];
  CHECK(pipe(p) == 0);
  pid_t victim = fork();
  CHECK(victim >= 0);
  if (victim == 0) _exit(fill_and_check(0x5A5A5A5Au, 50, p[1]));
  char c;
  CHECK(read(p[0], &c, 1) == 1);
  CHECK(kill(victim, SIGKILL) == 0);
  CHECK(status_of(victim) == 128 + SIGKILL);

  /* The next client gets all 255 contexts once the server has freed the
   * victim's (it notices the closed connection on its own schedule, and a
   * context is freed only after the device commands queued on it have run:
   * the victim's 50 fills of 4 MiB take a while, longer in the sanitizer
   * build). The wait is bounded by tries, not by wall time: 2 minutes at most. */
  pid_t next = fork();
  CHECK(next >= 0);
  if (next == 0) {
    int fds[ACCELDEV_MAX_CONTEXTS], n = 0;
    for (int tries = 0; n < ACCELDEV_MAX_CONTEXTS && tries < 12000; ++tries) {
      while (n < ACCELDEV_MAX_CONTEXTS && (fds[n] = open("/dev/acceldev0", O_RDWR)) >= 0) ++n;
      if (n < ACCELDEV_MAX_CONTEXTS) usleep(10000);
    }
    if (n < ACCELDEV_MAX_CONTEXTS) _exit(20);
    for (int i = 0; i < n; ++i) close(fds[i]);
    _exit(fill_and_check(0x3C3C3C3Cu, 2, -1));
  }
  const int next_status = status_of(next);
  if (next_status != 0) fprintf(stderr, "next client: exit status %d\n", next_status);
  CHECK(next_status == 0);

  /* Two clients at once. */
  pid_t a = fork();
  if (a == 0) _exit(fill_and_check(0x11223344u, 3, -1));
  pid_t b = fork();
  if (b == 0) _exit(fill_and_check(0x55667788u, 3, -1));
  CHECK(a > 0 && b > 0);
  const int sa = status_of(a), sb = status_of(b);
  if (sa || sb) {
    fprintf(stderr, "concurrent clients: %d %d\n", sa, sb);
    return 1;
  }
  printf("devfile_clients: OK\n");
  return 0;
}
