/* Buffers mapped with mmap(MAP_SHARED): the CPU's stores reach the device and
 * the device's FILLs reach the CPU, page by page; pages past the buffer fault. */
#include <setjmp.h>
#include <signal.h>

#include "devfile.h"

#define SIZE 0x3000

static sigjmp_buf fault_jump;
static void on_sigbus(int sig) { siglongjmp(fault_jump, sig); }

int main(void) {
  int fd = open("/dev/acceldev0", O_RDWR);
  CHECK(fd >= 0);
  uint32_t slot;
  int dfd = create_buf(fd, SIZE, BUFFER_TYPE_DATA, &slot);
  int cfd = create_buf(fd, 0x1000, BUFFER_TYPE_CODE, NULL);
  CHECK(dfd >= 0 && cfd >= 0);
  uint8_t *data = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
  uint8_t *page1 = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0x1000);
  uint32_t *code = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
  CHECK(data != MAP_FAILED && page1 != MAP_FAILED && code != MAP_FAILED);
  for (int i = 0; i < SIZE; ++i) CHECK(data[i] == 0);
  for (int i = 0; i < SIZE; ++i) data[i] = (uint8_t)(i * 7);
  CHECK(page1[5] == (uint8_t)((0x1000 + 5) * 7));  /* two mappings, one buffer */

  /* The device fills across the page boundaries; what it leaves keeps the CPU's bytes. */
  uint32_t *w = put_fill(code, slot, 0x01020304u, 0xFFE, 0x1004);
  w = put_fence(w);
  CHECK(run_code(fd, cfd, 0, 2 * CMD_BYTES) == 0 && wait_fence(fd, 1) == 0);
  for (int i = 0; i < SIZE; ++i) {
    const uint8_t want = i >= 0xFFE && i < 0xFFE + 0x1004 ? (uint8_t)(0x01020304u >> 8 * (i % 4)) : (uint8_t)(i * 7);
    if (data[i] != want) {
      fprintf(stderr, "byte 0x%x: 0x%02x, expected 0x%02x\n", i, data[i], want);
      return 1;
    }
  }
  CHECK(page1[0] == 0x04);

  /* A mapping longer than the buffer: its extra page faults with SIGBUS. */
  uint8_t *longer = mmap(NULL, SIZE + 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
  CHECK(longer != MAP_FAILED);
  CHECK(longer[SIZE - 1] == data[SIZE - 1]);
  signal(SIGBUS, on_sigbus);
  volatile int faulted = 0;
  if (sigsetjmp(fault_jump, 1) == 0) longer[SIZE] = 0x13;
  else faulted = 1;
  CHECK(faulted);
  CHECK_ERRNO(mmap(NULL, 0x1000, PROT_READ, MAP_SHARED, dfd, 0x800), EINVAL);  /* unaligned offset */

  munmap(longer, SIZE + 0x1000);
  munmap(data, SIZE);
  munmap(page1, 0x1000);
  munmap(code, 0x1000);
  close(dfd);
  close(cfd);
  close(fd);
  printf("devfile_mmap: OK\n");
  return 0;
}
