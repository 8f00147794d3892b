/* Device-file helpers shared by the Acceldev tests: every call is the plain
 * system call a program written for the original driver makes. */
#ifndef AVP_BRIDGE_TEST_DEVFILE_H
#define AVP_BRIDGE_TEST_DEVFILE_H

#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acceldev_uapi.h"
#include "check.h"

static inline int create_buf(int fd, int size, enum acceldev_buffer_type type, uint32_t *slot) {
  struct acceldev_ioctl_create_buffer_result res = {0xFFFFFFFFu};
  struct acceldev_ioctl_create_buffer arg = {size, type, &res};
  int bfd = ioctl(fd, ACCELDEV_IOCTL_CREATE_BUFFER, &arg);
  if (slot) *slot = res.buffer_slot;
  return bfd;
}

static inline int run_code(int fd, int cfd, uint32_t addr, uint32_t size) {
  struct acceldev_ioctl_run arg = {cfd, addr, size};
  return ioctl(fd, ACCELDEV_IOCTL_RUN, &arg);
}

static inline int wait_fence(int fd, uint32_t fence) {
  struct acceldev_ioctl_wait arg = {fence};
  return ioctl(fd, ACCELDEV_IOCTL_WAIT, &arg);
}

/* User commands written into a mapped code buffer. */
static inline uint32_t *put_fill(uint32_t *w, uint32_t slot, uint32_t value, uint32_t offset, uint32_t size) {
  w[0] = ACCELDEV_USER_CMD_TYPE_FILL;
  w[1] = value;
  w[2] = slot;
  w[3] = offset;
  w[4] = size;
  return w + ACCELDEV_USER_CMD_WORDS;
}

static inline uint32_t *put_fence(uint32_t *w) {
  w[0] = ACCELDEV_USER_CMD_TYPE_FENCE;
  w[1] = w[2] = w[3] = w[4] = 0;
  return w + ACCELDEV_USER_CMD_WORDS;
}

#define CMD_BYTES (ACCELDEV_USER_CMD_WORDS * 4)

#endif
