/* Host-bridge figures from a host program in its own process (run by
 * `accel-vp exec`): wall-clock round trip of a BAR0 MMIO read, host-to-device
 * copy rate through BAR2, and RUN + WAIT of an empty Acceldev command through
 * /dev/acceldev0. bench_bridge_insim does the same from the simulator's host thread. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acceldev_uapi.h"
#include "accelvp_bridge_proto.h"
#include "accelvp_host.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The floor under any bridge round trip: a bare Unix-socket ping-pong
 * between two processes with the bridge's message sizes, on this machine now. */
static double socket_ping_pong_us(unsigned n) {
  int sv[2];
  char b[64] = {0};
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return -1;
  pid_t echo = fork();
  if (echo == 0) {
    close(sv[0]);
    while (read(sv[1], b, 40) > 0)
      if (write(sv[1], b, 48) != 48) break;
    _exit(0);
  }
  close(sv[1]);
  double w0 = now();
  for (unsigned i = 0; i < n; ++i)
    if (write(sv[0], b, 40) != 40 || read(sv[0], b, 48) != 48) break;
  double us = (now() - w0) * 1e6 / n;
  close(sv[0]);
  waitpid(echo, NULL, 0);
  return us;
}

int main(void) {
  printf("bridge: bare Unix-socket ping-pong %.2f us wall (the floor of a round trip over the socket)\n",
         socket_ping_pong_us(20000));
  avp_host *h = avp_host_connect(NULL);
  avp_bar *bar0 = h ? avp_bar_map(h, 0) : NULL, *bar2 = h ? avp_bar_map(h, 2) : NULL;
  if (!bar0 || !bar2) return 2;

  const unsigned reads = 20000;
  uint32_t sink = 0;
  uint64_t s0 = avp_sim_time_ps(h);
  double w0 = now();
  for (unsigned i = 0; i < reads; ++i) sink ^= avp_mmio_read32(bar0, AVP_INFO_MAGIC);
  double wall = now() - w0;
  printf("bridge: BAR0 MMIO read round trip %.2f us wall, %.1f ns simulated per read (%u reads, 0x%x)\n",
         wall * 1e6 / reads, (double)(avp_sim_time_ps(h) - s0) / 1e3 / reads, reads, sink);
  /* The same over the socket alone (a session without request rings). */
  setenv(AVPB_NO_RING_ENV, "1", 1);
  avp_host *hs = avp_host_connect(NULL);
  unsetenv(AVPB_NO_RING_ENV);
  avp_bar *bar0s = hs ? avp_bar_map(hs, 0) : NULL;
  if (!bar0s) return 2;
  w0 = now();
  for (unsigned i = 0; i < reads / 4; ++i) sink ^= avp_mmio_read32(bar0s, AVP_INFO_MAGIC);
  printf("bridge: BAR0 MMIO read round trip over the socket alone %.2f us wall\n", (now() - w0) * 1e6 / (reads / 4));
  avp_host_disconnect(hs);

  const size_t bytes = 16u << 20;
  uint8_t *buf = malloc(bytes);
  memset(buf, 0x5A, bytes);
  if (avp_bar_write(bar2, 0, buf, bytes)) return 2; /* warm: the first copy also pays for touching the memory's pages */
  s0 = avp_sim_time_ps(h);
  w0 = now();
  if (avp_bar_write(bar2, 0, buf, bytes)) return 2;
  wall = now() - w0;
  double sim = (double)(avp_sim_time_ps(h) - s0) * 1e-12;
  printf("bridge: BAR2 host-to-device copy %.0f MB/s wall, %.2f GB/s simulated (%zu MiB, warm)\n", bytes / wall / 1e6,
         bytes / sim / 1e9, bytes >> 20);
  w0 = now();
  if (avp_bar_read(bar2, 0, buf, bytes)) return 2;
  printf("bridge: BAR2 device-to-host copy %.0f MB/s wall\n", bytes / (now() - w0) / 1e6);

  int fd = open("/dev/acceldev0", O_RDWR);
  struct acceldev_ioctl_create_buffer cb = {4096, BUFFER_TYPE_CODE, NULL};
  int cfd = fd >= 0 ? ioctl(fd, ACCELDEV_IOCTL_CREATE_BUFFER, &cb) : -1;
  uint32_t *code = cfd >= 0 ? mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0) : MAP_FAILED;
  if (code == MAP_FAILED) return 2;
  code[0] = ACCELDEV_USER_CMD_TYPE_FENCE;  /* the empty command: a fence alone */
  const unsigned runs = 2000;
  s0 = avp_sim_time_ps(h);
  w0 = now();
  for (unsigned i = 1; i <= runs; ++i) {
    struct acceldev_ioctl_run r = {cfd, 0, ACCELDEV_USER_CMD_WORDS * 4};
    struct acceldev_ioctl_wait w = {i};
    if (ioctl(fd, ACCELDEV_IOCTL_RUN, &r) || ioctl(fd, ACCELDEV_IOCTL_WAIT, &w)) return 2;
  }
  wall = now() - w0;
  printf("bridge: Acceldev RUN+WAIT of an empty command %.2f us wall, %.2f us simulated (%u runs)\n", wall * 1e6 / runs,
         (double)(avp_sim_time_ps(h) - s0) / 1e6 / runs, runs);
  free(buf);
  return 0;
}
