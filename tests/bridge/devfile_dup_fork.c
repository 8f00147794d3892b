/* Duplicated and inherited descriptors of /dev/acceldev0 (run under
 * accel-vp exec): a dup, dup2, dup3 or F_DUPFD copy refers to the same
 * context or buffer, which lives until its last descriptor is closed; a
 * forked child cannot drive its parent's contexts (EIO), closing them there
 * leaves them to the parent, and the child opens a context of its own. */
#include <sys/stat.h>
#include <sys/wait.h>

#include "devfile.h"

#define SIZE 0x1000

static int all(const uint8_t *p, size_t n, uint8_t v) {
  for (size_t i = 0; i < n; ++i)
    if (p[i] != v) return 0;
  return 1;
}

/* Fills data slot `slot` through code buffer `cfd` of context `fd` and waits for fence `fence`. */
static int fill(int fd, int cfd, uint32_t slot, uint32_t value, uint32_t fence) {
  uint32_t *code = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
  if (code == MAP_FAILED) return -1;
  uint32_t *w = put_fence(put_fill(code, slot, value, 0, SIZE));
  const int rc = run_code(fd, cfd, 0, (uint32_t)((uint8_t *)w - (uint8_t *)code)) || wait_fence(fd, fence);
  munmap(code, SIZE);
  return rc;
}

int main(void) {
  int fd = open("/dev/acceldev0", O_RDWR);
  CHECK(fd >= 0);
  /* A dup of the device: the context lives on after the original closes. */
  int dev = dup(fd);
  CHECK(dev >= 0 && dev != fd);
  CHECK(close(fd) == 0);
  uint32_t slot = 99;
  int cfd = create_buf(dev, SIZE, BUFFER_TYPE_CODE, NULL);
  int dfd = create_buf(dev, SIZE, BUFFER_TYPE_DATA, &slot);
  CHECK(cfd >= 0 && dfd >= 0);
  /* F_DUPFD_CLOEXEC of a buffer: RUN and mmap through the copy after the original is closed. */
  int code = fcntl(cfd, F_DUPFD_CLOEXEC, 100);
  CHECK(code >= 100);
  CHECK(close(cfd) == 0);
  uint8_t *data = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
  CHECK(data != MAP_FAILED);
  CHECK(fill(dev, code, slot, 0x5A5A5A5Au, 1) == 0 && all(data, SIZE, 0x5A));
  struct stat st;
  CHECK(fstat(code, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == SIZE);

  /* dup2 onto another context's only descriptor closes that context and
   * makes the descriptor a second name of the data buffer. */
  int other = open("/dev/acceldev0", O_RDWR);
  CHECK(other >= 0);
  CHECK(dup2(dfd, other) == other);
  CHECK(fstat(other, &st) == 0 && S_ISREG(st.st_mode));
  CHECK_ERRNO(ioctl(other, ACCELDEV_IOCTL_WAIT, &(struct acceldev_ioctl_wait){1}), ENOTTY);  /* a buffer now */
  int third = dup3(dev, 200, O_CLOEXEC);
  CHECK(third == 200 && fstat(third, &st) == 0 && S_ISCHR(st.st_mode));
  CHECK(close(third) == 0 && wait_fence(dev, 1) == 0);  /* the context is still open through dev */

  /* fork: the child's inherited descriptors are its parent's; it opens its own. */
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    if (wait_fence(dev, 1) != -1 || errno != EIO) _exit(10);
    if (mmap(NULL, SIZE, PROT_READ, MAP_SHARED, dfd, 0) != MAP_FAILED) _exit(11);
    if (!all(data, SIZE, 0x5A)) _exit(12);  /* mappings from before the fork stay */
    if (close(dev) != 0 || close(code) != 0) _exit(13);
    int own = open("/dev/acceldev0", O_RDWR);
    uint32_t s = 99;
    int c = create_buf(own, SIZE, BUFFER_TYPE_CODE, NULL), d = create_buf(own, SIZE, BUFFER_TYPE_DATA, &s);
    if (own < 0 || c < 0 || d < 0) _exit(14);
    uint8_t *mine = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, d, 0);
    if (mine == MAP_FAILED || fill(own, c, s, 0x77777777u, 1) || !all(mine, SIZE, 0x77)) _exit(15);
    _exit(close(own) == 0 ? 0 : 16);
  }
  int status = -1;
  CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  /* The child's closes left the parent's context and buffers alone. */
  CHECK(fill(dev, code, slot, 0x3C3C3C3Cu, 2) == 0 && all(data, SIZE, 0x3C));

  CHECK(close(code) == 0 && close(dfd) == 0 && close(other) == 0 && close(dev) == 0);
  CHECK_ERRNO(close(dev), EBADF);
  printf("devfile_dup_fork: OK\n");
  return 0;
}
