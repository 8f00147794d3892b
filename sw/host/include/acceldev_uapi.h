/* The device-file ABI of the Acceldev driver (/dev/acceldevN), with the
 * names, request numbers and argument layouts of the original driver's
 * acceldev.h, so a program written for it compiles against this header and
 * runs unchanged under `accel-vp exec` (docs/host-bridge.md). The device
 * constants (ACCELDEV_NUM_BUFFERS, ACCELDEV_USER_CMD_WORDS, ...) come from
 * the register header shared with the model. The kernel driver
 * (sw/linux/acceldev) includes it too. */
#ifndef ACCELDEV_UAPI_H
#define ACCELDEV_UAPI_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

#include "bar0_regs.h"

/* Request numbers are bare integers, not _IOW-encoded. */
#define ACCELDEV_IOCTL_CREATE_BUFFER 0x0
#define ACCELDEV_IOCTL_RUN 0x1
#define ACCELDEV_IOCTL_WAIT 0x3

enum acceldev_buffer_type {
  BUFFER_TYPE_CODE = 0,
  BUFFER_TYPE_DATA = 1,
  BUFFER_TYPES_COUNT,
};

struct acceldev_ioctl_create_buffer_result {
  uint32_t buffer_slot; /* the slot a data buffer was bound to */
};

/* Returns the buffer's file descriptor; mmap(MAP_SHARED, offset 0) maps it. */
struct acceldev_ioctl_create_buffer {
  int size; /* bytes, 1 .. ACCELDEV_BUFFER_MAX_SIZE */
  enum acceldev_buffer_type type;
  struct acceldev_ioctl_create_buffer_result *result;
};

struct acceldev_ioctl_run {
  int cfd;       /* the code buffer's file descriptor (a buffer of this context) */
  uint32_t addr; /* byte offset in the buffer, a multiple of 4 */
  uint32_t size; /* bytes, a multiple of 4 */
};

struct acceldev_ioctl_wait {
  uint32_t fence_wait; /* fence number on this context, counted from 1, wrapping */
};

#endif
