/* The device file with bad user pointers and descriptors closed behind the
 * library: pointers the driver could not copy give EFAULT (they were a
 * SIGSEGV in the program), and a descriptor closed by fclose of an fdopen'd
 * stream, closerange or syscall(SYS_close) stops being a device file: its
 * number, reused by an ordinary file, behaves as that file, and the context
 * behind it is released. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include "devfile.h"

#define BAD ((void *)16)

static void bad_pointers(void) {
  int fd = open("/dev/acceldev0", O_RDWR);
  CHECK(fd >= 0);
  CHECK_ERRNO(ioctl(fd, ACCELDEV_IOCTL_CREATE_BUFFER, BAD), EFAULT);
  struct acceldev_ioctl_create_buffer arg = {4096, BUFFER_TYPE_DATA, BAD};
  CHECK_ERRNO(ioctl(fd, ACCELDEV_IOCTL_CREATE_BUFFER, &arg), EFAULT);
  /* read-only memory for the result: the buffer is not left behind */
  void *ro = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(ro != MAP_FAILED && munmap((char *)ro + 4096, 4096) == 0); /* nothing mapped after it */
  arg.result = ro;
  CHECK_ERRNO(ioctl(fd, ACCELDEV_IOCTL_CREATE_BUFFER, &arg), EFAULT);
  CHECK_ERRNO(ioctl(fd, ACCELDEV_IOCTL_RUN, BAD), EFAULT);
  CHECK_ERRNO(ioctl(fd, ACCELDEV_IOCTL_WAIT, BAD), EFAULT);
  CHECK_ERRNO(ioctl(fd, ACCELDEV_IOCTL_WAIT, (void *)((uintptr_t)ro + 4094)), EFAULT); /* runs off the page */
  /* The context still works: all 16 data buffers can be made. */
  int bfds[ACCELDEV_NUM_BUFFERS];
  for (int i = 0; i < ACCELDEV_NUM_BUFFERS; ++i) {
    uint32_t slot;
    bfds[i] = create_buf(fd, 4096, BUFFER_TYPE_DATA, &slot);
    CHECK(bfds[i] >= 0 && slot == (uint32_t)i);
  }
  for (int i = 0; i < ACCELDEV_NUM_BUFFERS; ++i) CHECK(close(bfds[i]) == 0);
  munmap(ro, 4096);
  CHECK(close(fd) == 0);
}

/* `fd` was closed behind the library; `reopen` gives the next free number,
 * which must now be an ordinary file. */
static void number_reused(int fd) {
  int again = open("/dev/null", O_RDWR);
  CHECK(again == fd); /* the lowest free number */
  CHECK(write(again, "x", 1) == 1);
  char c;
  CHECK(read(again, &c, 1) == 0);
  struct stat st;
  CHECK(fstat(again, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 1); /* /dev/null's, not ours */
  CHECK(close(again) == 0);
}

static void closed_behind_the_library(void) {
  int fd = open("/dev/acceldev0", O_RDWR);
  CHECK(fd >= 0);
  FILE *f = fdopen(fd, "r");
  CHECK(f);
  CHECK(fclose(f) == 0);
  number_reused(fd);

  fd = open("/dev/acceldev0", O_RDWR);
  CHECK(fd >= 0 && syscall(SYS_close, fd) == 0);
  number_reused(fd);

  fd = open("/dev/acceldev0", O_RDWR);
  int bfd = create_buf(fd, 4096, BUFFER_TYPE_CODE, NULL);
  CHECK(fd >= 0 && bfd > fd);
  CHECK(syscall(SYS_close_range, fd, bfd, 0) == 0);
  number_reused(fd);  /* bfd's number, taken by a new file of ours below, releases the buffer */

  /* Contexts closed behind the library were released when their numbers
   * were found reused: all 255 can be opened again. */
  int fds[ACCELDEV_MAX_CONTEXTS];
  for (int i = 0; i < ACCELDEV_MAX_CONTEXTS; ++i) {
    fds[i] = open("/dev/acceldev0", O_RDWR);
    CHECK(fds[i] >= 0);
  }
  for (int i = 0; i < ACCELDEV_MAX_CONTEXTS; ++i) close(fds[i]);
}

int main(void) {
  bad_pointers();
  closed_behind_the_library();
  printf("devfile_hostile: OK\n");
  return 0;
}
