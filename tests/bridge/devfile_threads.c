/* 40 threads, each with its own context, at once: each fills its own buffer
 * and waits on its fences; one thread's context errs and only that thread
 * sees EIO. */
#include <pthread.h>

#include "devfile.h"

#define THREADS 40
#define ROUNDS 3
#define SIZE 0x2000
#define BAD_THREAD 17

static int worker_result[THREADS];

static void *worker(void *p) {
  const int id = (int)(intptr_t)p;
  int fd = open("/dev/acceldev0", O_RDWR);
  uint32_t slot;
  int dfd = create_buf(fd, SIZE, BUFFER_TYPE_DATA, &slot);
  int cfd = create_buf(fd, 0x1000, BUFFER_TYPE_CODE, NULL);
  if (fd < 0 || dfd < 0 || cfd < 0) return (void *)1;
  uint8_t *data = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
  uint32_t *code = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
  if (data == MAP_FAILED || code == MAP_FAILED) return (void *)2;
  for (uint32_t round = 1; round <= ROUNDS; ++round) {
    const uint32_t value = 0x01010101u * (uint32_t)(id + round);
    put_fence(put_fill(code, slot, value, 0, SIZE));
    if (id == BAD_THREAD && round == 2) code[0] = 0xE;  /* an unknown user command instead of the FILL */
    if (run_code(fd, cfd, 0, 2 * CMD_BYTES) != 0) return (void *)3;
    const int rc = wait_fence(fd, round);
    if (id == BAD_THREAD && round == 2) {
      worker_result[id] = rc == -1 && errno == EIO ? 0 : 4;
      break;
    }
    if (rc != 0) {
      fprintf(stderr, "thread %d round %u: WAIT: %s\n", id, round, strerror(errno));
      return (void *)5;
    }
    for (int i = 0; i < SIZE; ++i)
      if (data[i] != (uint8_t)value) return (void *)6;
  }
  munmap(data, SIZE);
  munmap(code, 0x1000);
  close(dfd);
  close(cfd);
  close(fd);
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  for (intptr_t i = 0; i < THREADS; ++i) CHECK(pthread_create(&t[i], NULL, worker, (void *)i) == 0);
  int failed = 0;
  for (int i = 0; i < THREADS; ++i) {
    void *r;
    pthread_join(t[i], &r);
    if (r || worker_result[i]) {
      fprintf(stderr, "thread %d failed (%ld/%d)\n", i, (long)(intptr_t)r, worker_result[i]);
      failed = 1;
    }
  }
  if (!failed) printf("devfile_threads: %d threads OK, thread %d saw EIO\n", THREADS, BAD_THREAD);
  return failed;
}
