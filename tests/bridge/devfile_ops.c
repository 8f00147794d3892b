/* Every device-file operation of /dev/acceldev0 and its errno paths, as a
 * program written for the original driver sees them (run under accel-vp exec). */
#include <sys/stat.h>

#include "devfile.h"

#define SIZE 0x3000

static void buffers_and_runs(void) {
  int fd = open("/dev/acceldev0", O_RDWR);
  CHECK(fd >= 0);
  CHECK_ERRNO(create_buf(fd, 0, BUFFER_TYPE_CODE, NULL), EINVAL);
  CHECK_ERRNO(create_buf(fd, -4, BUFFER_TYPE_DATA, NULL), EINVAL);
  CHECK_ERRNO(create_buf(fd, ACCELDEV_BUFFER_MAX_SIZE + 1, BUFFER_TYPE_CODE, NULL), EINVAL);
  CHECK_ERRNO(create_buf(fd, SIZE, (enum acceldev_buffer_type)7, NULL), EINVAL);
  CHECK_ERRNO(ioctl(fd, ACCELDEV_IOCTL_CREATE_BUFFER, NULL), EFAULT);

  int cfd = create_buf(fd, ACCELDEV_BUFFER_MAX_SIZE, BUFFER_TYPE_CODE, NULL);
  CHECK(cfd >= 0);
  int dfd[ACCELDEV_NUM_BUFFERS];
  uint32_t slot[ACCELDEV_NUM_BUFFERS];
  unsigned used = 0;
  for (int i = 0; i < ACCELDEV_NUM_BUFFERS; ++i) {
    dfd[i] = create_buf(fd, SIZE, BUFFER_TYPE_DATA, &slot[i]);
    CHECK(dfd[i] >= 0 && slot[i] < ACCELDEV_NUM_BUFFERS && !(used & 1u << slot[i]));
    used |= 1u << slot[i];
  }
  CHECK_ERRNO(create_buf(fd, SIZE, BUFFER_TYPE_DATA, NULL), ENOSPC);  /* the 17th data buffer */

  uint32_t *code = mmap(NULL, ACCELDEV_BUFFER_MAX_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
  CHECK(code != MAP_FAILED);
  for (uint32_t i = 0; i < ACCELDEV_BUFFER_MAX_SIZE / 4; i += 4099) CHECK(code[i] == 0);  /* zero-filled */
  uint8_t *data = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dfd[3], 0);
  CHECK(data != MAP_FAILED);
  uint32_t *w = put_fill(code, slot[3], 0xA1B2C3D4u, 1, 0x2001);
  w = put_fence(w);
  CHECK(run_code(fd, cfd, 0, (uint32_t)((uint8_t *)w - (uint8_t *)code)) == 0);
  CHECK(wait_fence(fd, 1) == 0);
  CHECK(data[0] == 0 && data[1] == 0xC3 && data[2] == 0xB2 && data[3] == 0xA1 && data[4] == 0xD4);
  CHECK(data[0x2001] == 0xC3 && data[0x2002] == 0);
  CHECK(run_code(fd, cfd, CMD_BYTES, 4) == 0);  /* a 4-byte run is valid (no whole command: nothing runs) */

  /* RUN with what is not a code buffer of this context. */
  CHECK_ERRNO(run_code(fd, dfd[0], 0, CMD_BYTES), EINVAL);
  int null_fd = open("/dev/null", O_RDWR);
  CHECK_ERRNO(run_code(fd, null_fd, 0, CMD_BYTES), EINVAL);
  CHECK_ERRNO(run_code(fd, 987, 0, CMD_BYTES), EBADF);
  int fd2 = open("/dev/acceldev0", O_RDWR);
  int cfd2 = create_buf(fd2, SIZE, BUFFER_TYPE_CODE, NULL);
  CHECK(fd2 >= 0 && cfd2 >= 0);
  CHECK_ERRNO(run_code(fd, cfd2, 0, CMD_BYTES), EINVAL);
  CHECK_ERRNO(run_code(fd, cfd, 2, CMD_BYTES), EINVAL);
  CHECK_ERRNO(run_code(fd, cfd, 0, 6), EINVAL);
  CHECK_ERRNO(ioctl(fd, 4, NULL), ENOTTY);  /* not 2: Linux answers FIGETBSZ (2) itself, for every file */
  CHECK_ERRNO(ioctl(fd, 0x40046d00, NULL), ENOTTY);
  CHECK_ERRNO(ioctl(cfd, ACCELDEV_IOCTL_WAIT, NULL), ENOTTY);

  /* An unknown user command errs the context: WAIT and RUN fail with EIO,
   * the other context carries on. */
  w = code;
  w[0] = 0xF;
  CHECK(run_code(fd, cfd, 0, CMD_BYTES) == 0);
  CHECK_ERRNO(wait_fence(fd, 2), EIO);
  CHECK_ERRNO(run_code(fd, cfd, 0, CMD_BYTES), EIO);
  uint32_t *code2 = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, cfd2, 0);
  CHECK(code2 != MAP_FAILED);
  put_fence(code2);
  CHECK(run_code(fd2, cfd2, 0, CMD_BYTES) == 0 && wait_fence(fd2, 1) == 0);

  /* read, write, fstat of the device's descriptors; other files untouched. */
  char b[8];
  CHECK_ERRNO(read(fd, b, sizeof b), EINVAL);
  CHECK_ERRNO(write(cfd, b, sizeof b), EINVAL);
  struct stat st;
  CHECK(fstat(fd, &st) == 0 && S_ISCHR(st.st_mode));
  CHECK(fstat(dfd[3], &st) == 0 && st.st_size == SIZE);
  CHECK(write(null_fd, "x", 1) == 1 && fstat(null_fd, &st) == 0 && S_ISCHR(st.st_mode));
  CHECK_ERRNO(mmap(NULL, SIZE, PROT_READ, MAP_PRIVATE, dfd[0], 0), EINVAL);
  CHECK_ERRNO(mmap(NULL, SIZE, PROT_READ, MAP_SHARED, fd, 0), ENODEV);

  munmap(code, ACCELDEV_BUFFER_MAX_SIZE);
  munmap(code2, SIZE);
  munmap(data, SIZE);
  for (int i = 0; i < ACCELDEV_NUM_BUFFERS; ++i) CHECK(close(dfd[i]) == 0);
  CHECK(close(cfd) == 0 && close(fd) == 0 && close(cfd2) == 0 && close(fd2) == 0 && close(null_fd) == 0);
  CHECK_ERRNO(close(cfd), EBADF);
}

/* 255 contexts; the 256th open fails; closing one frees its id. */
static void context_limit(void) {
  int fds[ACCELDEV_MAX_CONTEXTS];
  for (int i = 0; i < ACCELDEV_MAX_CONTEXTS; ++i) CHECK((fds[i] = open("/dev/acceldev0", O_RDWR)) >= 0);
  CHECK_ERRNO(open("/dev/acceldev0", O_RDWR), ENOSPC);
  CHECK(close(fds[100]) == 0);
  CHECK((fds[100] = open("/dev/acceldev0", O_RDWR)) >= 0);
  for (int i = 0; i < ACCELDEV_MAX_CONTEXTS; ++i) CHECK(close(fds[i]) == 0);
}

int main(void) {
  CHECK_ERRNO(open("/dev/acceldev1", O_RDWR), ENOENT);
  buffers_and_runs();
  context_limit();
  printf("devfile_ops: OK\n");
  return 0;
}
