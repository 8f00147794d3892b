#define _GNU_SOURCE
#include "checks.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "sysdev/sysdev_regs.h"

static const char* prefix = "selftest";
static int passed, failed;

void checks_begin(const char* p) { prefix = p; }

void check(int ok, const char* name, const char* fmt, ...) {
  char detail[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  printf("%s: %s %s: %s\n", prefix, ok ? "PASS" : "FAIL", name, detail);
  fflush(stdout);
  if (ok) ++passed;
  else ++failed;
}

int mount_filesystems(void) {
  mkdir("/proc", 0755);
  mkdir("/sys", 0755);
  mkdir("/dev", 0755);
  return mount("proc", "/proc", "proc", 0, NULL) == 0 && mount("sysfs", "/sys", "sysfs", 0, NULL) == 0 &&
         mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) == 0;
}

int read_text(const char* path, char* buf, size_t size) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  size_t n = 0;
  ssize_t r;
  while (n + 1 < size && (r = read(fd, buf + n, size - 1 - n)) > 0) n += (size_t)r;
  close(fd);
  buf[n] = 0;
  return (int)n;
}

int dt_cells(const char* path, uint64_t* out, int count) {
  unsigned char b[16];
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  ssize_t n = read(fd, b, sizeof b);
  close(fd);
  if (n < 4 * count) return -1;
  uint64_t v = 0;
  for (int i = 0; i < 4 * count; ++i) v = v << 8 | b[i];
  *out = v;
  return 0;
}

int dt_soc_base(const char* name_prefix, uint64_t* base) {
  DIR* d = opendir("/proc/device-tree/soc");
  if (!d) return -1;
  struct dirent* e;
  int found = -1;
  while ((e = readdir(d)))
    if (strncmp(e->d_name, name_prefix, strlen(name_prefix)) == 0) {
      char path[300];
      snprintf(path, sizeof path, "/proc/device-tree/soc/%s/reg", e->d_name);
      found = dt_cells(path, base, 2);
      break;
    }
  closedir(d);
  return found;
}

// The failure count to the SiFive test device (FAIL | count << 16): the simulator
// and QEMU exit with it. Linux's own power-off (SBI SRST) carries no status.
static void power_off_failed(int count) {
  uint64_t base = 0;
  int fd = open("/dev/mem", O_RDWR | O_SYNC);
  if (fd >= 0 && dt_soc_base("test@", &base) == 0) {
    volatile uint32_t* r = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)base);
    if (r != MAP_FAILED) *r = AVP_POWEROFF_FAIL | (uint32_t)(count & 0xFFFF) << 16;
  }
  printf("%s: could not reach the SiFive test device through /dev/mem; powering off with status 0\n", prefix);
}

void finish_and_power_off(void) {
  printf("%s: %d passed, %d failed\n", prefix, passed, failed);
  fflush(stdout);
  // Until the UART has sent every line: the FAIL write below stops the
  // machine at once, and on QEMU under load the console's last lines were lost.
  tcdrain(STDOUT_FILENO);
  sync();
  if (failed) power_off_failed(failed);
  reboot(RB_POWER_OFF);
}
