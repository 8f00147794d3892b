// The host system's /init (`accel-vp boot --system host`, docs/full-system.md;
// static, riscv64-linux-gnu): lists the PCI devices Linux enumerated from
// /sys/bus/pci/devices, as lspci would, checks that the accelerator is there
// with its ids and class and that Linux assigned its BAR0 and BAR2, reads the
// platform information block in BAR0 from user space (mmap of sysfs's
// resource0) and powers off with the failure count as the exit status.
// `fullsystem.fail=1` on the kernel command line makes the id check expect
// another device id: the negative control. `fullsystem.acceldev=1` then
// loads the Acceldev driver and runs its test programs (acceldev_checks.h),
// `fullsystem.acceldev=NAME` only program NAME. `fullsystem.run=PATH[,ARG...]`
// runs a program of the initramfs as one more check (run_programs.h).
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acceldev_checks.h"
#include "checks.h"
#include "pcie/bar0_regs.h"
#include "run_programs.h"

#define PCI_DEVICES "/sys/bus/pci/devices"
#define RESOURCE_MEM 0x00000200ul     // IORESOURCE_MEM
#define RESOURCE_PREFETCH 0x00002000ul  // IORESOURCE_PREFETCH
#define RESOURCE_MEM_64 0x00100000ul  // IORESOURCE_MEM_64

struct bar {
  uint64_t start, end, flags;
};

// A sysfs attribute of a device as a number ("0x0666").
static uint64_t attribute(const char* dev, const char* name) {
  char path[512], text[64];
  snprintf(path, sizeof path, PCI_DEVICES "/%s/%s", dev, name);
  return read_text(path, text, sizeof text) > 0 ? strtoull(text, NULL, 0) : ~0ull;
}

// The `resource` file: one "start end flags" line per BAR (then ROM and bridge windows).
static int resources(const char* dev, struct bar* bars, int max) {
  char path[512], text[2048];
  snprintf(path, sizeof path, PCI_DEVICES "/%s/resource", dev);
  if (read_text(path, text, sizeof text) <= 0) return 0;
  int n = 0;
  for (char* line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n"), ++n)
    if (sscanf(line, "%" SCNx64 " %" SCNx64 " %" SCNx64, &bars[n].start, &bars[n].end, &bars[n].flags) != 3) break;
  return n;
}

static uint64_t size_of(const struct bar* b) { return b->start ? b->end - b->start + 1 : 0; }

// BAR0 from user space: enable the device (memory space), map resource0 and
// read the information block's magic, version and DRAM size.
static void check_bar0_read(const char* dev, uint64_t bar2_size) {
  char path[512];
  snprintf(path, sizeof path, PCI_DEVICES "/%s/enable", dev);
  int fd = open(path, O_WRONLY);
  const int enabled = fd >= 0 && write(fd, "1", 1) == 1;
  if (fd >= 0) close(fd);
  snprintf(path, sizeof path, PCI_DEVICES "/%s/resource0", dev);
  fd = open(path, O_RDWR | O_SYNC);
  volatile uint32_t* bar0 = fd < 0 ? MAP_FAILED : mmap(NULL, AVP_BAR0_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (bar0 == MAP_FAILED) {
    check(0, "bar0-read", "enable %s, mmap of %s failed", enabled ? "done" : "failed", path);
    return;
  }
  const uint32_t magic = bar0[AVP_INFO_MAGIC / 4], version = bar0[AVP_INFO_VERSION / 4];
  const uint64_t dram = bar0[AVP_INFO_DRAM_SIZE_LO / 4] | (uint64_t)bar0[AVP_INFO_DRAM_SIZE_HI / 4] << 32;
  printf("%s BAR0 info block: magic 0x%08x version %u, device DRAM %" PRIu64 " MiB\n", dev, magic, version, dram >> 20);
  check(enabled && magic == AVP_INFO_MAGIC_VALUE && version == AVP_INFO_VERSION_VALUE && dram == bar2_size, "bar0-read",
        "magic 0x%08x (expected 0x%08x), version %u (expected %u), DRAM size 0x%" PRIx64 " = BAR2's 0x%" PRIx64, magic,
        AVP_INFO_MAGIC_VALUE, version, AVP_INFO_VERSION_VALUE, dram, bar2_size);
  munmap((void*)bar0, AVP_BAR0_SIZE);
  close(fd);
}

int main(void) {
  checks_begin("fullsystem");
  const int mounted = mount_filesystems();
  char cmdline[1024] = "";
  read_text("/proc/cmdline", cmdline, sizeof cmdline);
  const uint64_t expected_device = AVP_PCI_DEVICE_ID + (strstr(cmdline, "fullsystem.fail=1") != NULL);
  printf("accel-vp full system: PCI devices (%s)\n", PCI_DEVICES);
  check(mounted, "mounts", "proc on /proc, sysfs on /sys, devtmpfs on /dev");

  char found[256] = "";
  int devices = 0;
  struct bar bars[6] = {{0}};
  DIR* d = opendir(PCI_DEVICES);
  for (struct dirent* e; d && (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    ++devices;
    const uint64_t vendor = attribute(e->d_name, "vendor"), device = attribute(e->d_name, "device"),
                   class = attribute(e->d_name, "class");
    printf("%s class %06" PRIx64 " vendor %04" PRIx64 " device %04" PRIx64 "\n", e->d_name, class, vendor, device);
    struct bar b[6] = {{0}};
    const int n = resources(e->d_name, b, 6);
    for (int i = 0; i < n; ++i)
      if (b[i].flags)
        printf("  BAR%d 0x%" PRIx64 "-0x%" PRIx64 " size 0x%" PRIx64 " flags 0x%" PRIx64 "\n", i, b[i].start, b[i].end,
               size_of(&b[i]), b[i].flags);
    if (vendor == AVP_PCI_VENDOR_ID && device == expected_device && class == AVP_PCI_CLASS && !found[0]) {
      snprintf(found, sizeof found, "%s", e->d_name);
      memcpy(bars, b, sizeof bars);
    }
  }
  if (d) closedir(d);
  fflush(stdout);
  check(found[0] != 0, "device", "%d device(s); vendor 0x%04x device 0x%04" PRIx64 " class 0x%06x %s%s", devices,
        AVP_PCI_VENDOR_ID, expected_device, AVP_PCI_CLASS, found[0] ? "at " : "not found", found);
  if (found[0]) {
    const struct bar* b0 = &bars[0];
    const struct bar* b2 = &bars[2];
    check(size_of(b0) == AVP_BAR0_SIZE && (b0->flags & RESOURCE_MEM) && !(b0->flags & RESOURCE_MEM_64) &&
              b0->end < (1ull << 32),
          "bar0", "0x%" PRIx64 " size 0x%" PRIx64 " flags 0x%" PRIx64 ": assigned, 32-bit memory, 64 KiB", b0->start,
          size_of(b0), b0->flags);
    const uint64_t s2 = size_of(b2);
    check(s2 && !(s2 & (s2 - 1)) && (b2->flags & RESOURCE_MEM) && (b2->flags & RESOURCE_MEM_64) &&
              (b2->flags & RESOURCE_PREFETCH) && b2->start % s2 == 0,
          "bar2", "0x%" PRIx64 " size 0x%" PRIx64 " flags 0x%" PRIx64 ": assigned, 64-bit prefetchable memory, aligned",
          b2->start, s2, b2->flags);
    check_bar0_read(found, s2);
    const char* acceldev = strstr(cmdline, "fullsystem.acceldev=");
    if (acceldev) {  // =1: every driver test program, =NAME: that one
      char only[64] = "";
      sscanf(acceldev + strlen("fullsystem.acceldev="), "%63s", only);
      acceldev_checks(found, strcmp(only, "1") ? only : NULL);
    }
  }
  run_programs(cmdline);
  finish_and_power_off();
  return 0;
}
