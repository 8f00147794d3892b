/* Closing one buffer descriptor of /dev/acceldev0, as a program written for
 * the original driver does it (run under accel-vp exec): close waits for the
 * context's scheduled RUNs, a data buffer's slot is unbound and goes to the
 * context's next buffer, and a mapping that outlives the descriptor keeps its
 * own bytes. */
#include "devfile.h"

#define BIG 0x100000 /* a fill that takes the device a while */
#define SMALL 0x1000

static int all(const uint8_t *p, size_t n, uint8_t v) {
  for (size_t i = 0; i < n; ++i)
    if (p[i] != v) return 0;
  return 1;
}

int main(void) {
  int fd = open("/dev/acceldev0", O_RDWR);
  CHECK(fd >= 0);
  uint32_t sa = 99, sb = 99, sc = 99;
  int cfd = create_buf(fd, SMALL, BUFFER_TYPE_CODE, NULL);
  int afd = create_buf(fd, BIG, BUFFER_TYPE_DATA, &sa);
  int bfd = create_buf(fd, SMALL, BUFFER_TYPE_DATA, &sb);
  CHECK(cfd >= 0 && afd >= 0 && bfd >= 0 && sa != sb);
  uint32_t *code = mmap(NULL, SMALL, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
  uint8_t *a = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_SHARED, afd, 0);
  uint8_t *b = mmap(NULL, SMALL, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
  CHECK(code != MAP_FAILED && a != MAP_FAILED && b != MAP_FAILED);

  /* A RUN that fills A, then B; A's descriptor is closed without a WAIT.
   * The close returns once the RUN has run: B is filled already. */
  uint32_t *w = put_fill(code, sa, 0x11111111u, 0, BIG);
  w = put_fill(w, sb, 0x22222222u, 0, SMALL);
  w = put_fence(w);
  CHECK(run_code(fd, cfd, 0, (uint32_t)((uint8_t *)w - (uint8_t *)code)) == 0);
  CHECK(close(afd) == 0);
  CHECK(all(b, SMALL, 0x22));
  CHECK(all(a, BIG, 0x11));  /* the mapping outlives the descriptor */
  CHECK_ERRNO(close(afd), EBADF);

  /* A's slot is free again: the next data buffer is bound to it (the lowest
   * free slot), with its own zero-filled pages. */
  int cfd2 = create_buf(fd, SMALL, BUFFER_TYPE_DATA, &sc);
  CHECK(cfd2 >= 0 && sc == sa);
  uint8_t *c = mmap(NULL, SMALL, PROT_READ | PROT_WRITE, MAP_SHARED, cfd2, 0);
  CHECK(c != MAP_FAILED && all(c, SMALL, 0));
  w = put_fill(code, sc, 0x33333333u, 0, SMALL);
  w = put_fence(w);
  CHECK(run_code(fd, cfd, 0, (uint32_t)((uint8_t *)w - (uint8_t *)code)) == 0);
  CHECK(wait_fence(fd, 2) == 0);
  CHECK(all(c, SMALL, 0x33) && all(a, BIG, 0x11));  /* the slot reaches the new buffer, not A's old pages */

  /* Closing the code buffer of a scheduled RUN waits for it as well. */
  w = put_fill(code, sb, 0x44444444u, 0, SMALL);
  w = put_fence(w);
  CHECK(run_code(fd, cfd, 0, (uint32_t)((uint8_t *)w - (uint8_t *)code)) == 0);
  CHECK(close(cfd) == 0);
  CHECK(all(b, SMALL, 0x44));
  CHECK(wait_fence(fd, 3) == 0);

  CHECK(munmap(a, BIG) == 0 && munmap(b, SMALL) == 0 && munmap(c, SMALL) == 0 && munmap(code, SMALL) == 0);
  CHECK(close(bfd) == 0 && close(cfd2) == 0 && close(fd) == 0);
  printf("devfile_close_buffer: OK\n");
  return 0;
}
