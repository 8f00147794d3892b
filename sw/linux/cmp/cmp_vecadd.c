// vecadd on the accelerator's command processor from Linux user space
// (docs/full-system.md; static, riscv64-linux-gnu, in the host initramfs as
// /bin/cmp_vecadd): finds the device in /sys/bus/pci/devices, enables it,
// maps BAR0 and BAR2 through sysfs's resource0 and resource2, loads the
// device kernel (device_image.h) and the inputs into device DRAM through
// BAR2, writes a command buffer there, submits it through the CMP's BAR0
// registers, polls INTR for its completion or error (with the bits enabled, so
// that INTx rises on the timeline; no driver handles it), checks the results and
// prints one "cmp_vecadd: PASS|FAIL ..." line; exit status 0 on PASS.
//   cmp_vecadd [--fault] [N]
// --fault runs the kernel from entry point 0 (the CMP reports a kernel trap):
// the error path, which must print FAIL with the CMP's error registers.
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cmp/cmp_packets.h"
#include "device_image.h"
#include "pcie/bar0_regs.h"

#define PCI_DEVICES "/sys/bus/pci/devices"
#define MAX_ELEMENTS (1u << 18)
// Device DRAM use, as offsets into BAR2: the kernel's window, the command
// buffer, then the three vectors.
#define KERNEL_AT 0x0ull
#define KERNEL_MAX 0x100000ull
#define CMDBUF_AT 0x100000ull
#define CMDBUF_CHUNKS 64
#define VECTORS_AT 0x200000ull
#define MAPPED (VECTORS_AT + 3ull * 4 * MAX_ELEMENTS)
#define POLL_LIMIT 1000000  // INTR reads before giving up (each a PCIe round trip)

static volatile uint32_t* bar0;
static volatile uint8_t* bar2;

static uint32_t rd32(uint32_t off) { return bar0[off / 4]; }
static void wr32(uint32_t off, uint32_t v) { bar0[off / 4] = v; }
static uint64_t rd64(uint32_t lo, uint32_t hi) { return rd32(lo) | (uint64_t)rd32(hi) << 32; }

static int fail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("cmp_vecadd: FAIL ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  return 1;
}

static int read_attr(const char* dev, const char* name, char* buf, size_t size) {
  char path[512];
  snprintf(path, sizeof path, PCI_DEVICES "/%s/%s", dev, name);
  const int fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  const ssize_t n = read(fd, buf, size - 1);
  close(fd);
  buf[n > 0 ? n : 0] = 0;
  return n > 0 ? 0 : -1;
}

// The accelerator's sysfs name ("0000:00:00.0") by its vendor and device ids.
static int find_device(char* out, size_t size) {
  DIR* d = opendir(PCI_DEVICES);
  int found = 0;
  for (struct dirent* e; d && !found && (e = readdir(d));) {
    char vendor[32], device[32];
    if (e->d_name[0] == '.' || read_attr(e->d_name, "vendor", vendor, sizeof vendor) ||
        read_attr(e->d_name, "device", device, sizeof device))
      continue;
    if (strtoul(vendor, NULL, 0) == AVP_PCI_VENDOR_ID && strtoul(device, NULL, 0) == AVP_PCI_DEVICE_ID) {
      snprintf(out, size, "%s", e->d_name);
      found = 1;
    }
  }
  if (d) closedir(d);
  return found;
}

static void* map_resource(const char* dev, int bar, size_t size) {
  char path[512];
  snprintf(path, sizeof path, PCI_DEVICES "/%s/resource%d", dev, bar);
  const int fd = open(path, O_RDWR | O_SYNC);
  if (fd < 0) return MAP_FAILED;
  void* p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  return p;
}

// Device DRAM through BAR2, in aligned 64-bit stores (one TLP each); `len`
// rounded up with zeros; `src` NULL writes zeros.
static void dram_write(uint64_t at, const void* src, uint64_t len) {
  volatile uint64_t* dst = (volatile uint64_t*)(bar2 + at);
  for (uint64_t i = 0; i < (len + 7) / 8; ++i) {
    uint64_t v = 0;
    if (src) memcpy(&v, (const uint8_t*)src + 8 * i, len - 8 * i < 8 ? len - 8 * i : 8);
    dst[i] = v;
  }
}

static uint64_t cb[CMDBUF_CHUNKS];
static unsigned ncb;

static void emit(unsigned op, uint32_t inl, unsigned n, const uint64_t* payload) {
  cb[ncb++] = AVP_CMP_HEADER(op, n, inl);
  for (unsigned i = 0; i < n; ++i) cb[ncb++] = payload[i];
}

static void write_reg(unsigned reg, uint64_t v) { emit(AVP_CMP_WRITE_REG64, reg, 1, &v); }

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char** argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int fault = 0;
  unsigned n = 1024;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--fault")) fault = 1;
    else if ((n = (unsigned)strtoul(argv[i], NULL, 10)) == 0 || n > MAX_ELEMENTS) {
      fprintf(stderr, "usage: %s [--fault] [N: 1..%u elements]\n", argv[0], MAX_ELEMENTS);
      return 2;
    }
  }
  const struct device_image* k = &device_kernel_add_image;
  if (k->mem_size > KERNEL_MAX) return fail("kernel %s larger than its 1 MiB window", k->name);
  char dev[256], path[512];
  if (!find_device(dev, sizeof dev)) return fail("no accelerator in %s", PCI_DEVICES);
  snprintf(path, sizeof path, PCI_DEVICES "/%s/enable", dev);
  const int efd = open(path, O_WRONLY);
  const int enabled = efd >= 0 && write(efd, "1", 1) == 1;
  if (efd >= 0) close(efd);
  if (!enabled) return fail("cannot enable the device through %s", path);
  bar0 = map_resource(dev, 0, AVP_BAR0_SIZE);
  bar2 = map_resource(dev, 2, MAPPED);
  if (bar0 == MAP_FAILED || bar2 == MAP_FAILED) return fail("cannot map resource0 and resource2 of %s", dev);
  if (rd32(AVP_INFO_MAGIC) != AVP_INFO_MAGIC_VALUE) return fail("%s: no information block in BAR0", dev);
  const uint64_t dram = rd64(AVP_INFO_DRAM_BASE_LO, AVP_INFO_DRAM_BASE_HI);
  if (rd64(AVP_INFO_DRAM_SIZE_LO, AVP_INFO_DRAM_SIZE_HI) < MAPPED) return fail("%s: device DRAM too small", dev);
  const uint64_t return_addr = rd32(AVP_INFO_TCIM_BASE);
  printf("cmp_vecadd: %s, BAR0 and BAR2 mapped; device DRAM at 0x%" PRIx64 ", %u cores x %u harts\n", dev, dram,
         rd32(AVP_INFO_CORES), rd32(AVP_INFO_HARTS_PER_CORE));

  // The kernel (its .bss zeroed), the inputs and a poisoned output.
  dram_write(KERNEL_AT, k->bytes, k->size);
  dram_write(KERNEL_AT + ((k->size + 7) & ~7ull), NULL, k->mem_size - ((k->size + 7) & ~7ull));
  int32_t* a = malloc(4ul * n);
  int32_t* b = malloc(4ul * n);
  int32_t* out = malloc(4ul * n);
  for (unsigned i = 0; i < n; ++i) a[i] = (int32_t)(3 * i + 1), b[i] = (int32_t)(1000 - i), out[i] = -1;
  const uint64_t a_at = VECTORS_AT, b_at = a_at + 4ull * n, out_at = b_at + 4ull * n;
  dram_write(a_at, a, 4ull * n);
  dram_write(b_at, b, 4ull * n);
  dram_write(out_at, out, 4ull * n);

  // Window 0 maps the kernel's link range onto its copy in DRAM (as libaccelvp-host's vecadd).
  write_reg(AVP_CMP_WINDOW_BASE0, k->link_base);
  write_reg(AVP_CMP_WINDOW_TARGET0, dram + KERNEL_AT);
  write_reg(AVP_CMP_WINDOW_SCALE0, 0);
  write_reg(AVP_CMP_WINDOW_MODE0, AVP_CMP_WIN_ACTIVE | AVP_CMP_WIN_MODE(AVP_CMP_WIN_SHARED) | AVP_CMP_WIN_PERM_R |
                                      AVP_CMP_WIN_PERM_W | AVP_CMP_WIN_PERM_X |
                                      AVP_CMP_WIN_SIZE((k->mem_size + 0xFFF) & ~0xFFFull));
  emit(AVP_CMP_SYNC_CACHE, AVP_CMP_SYNC_ICACHE, 0, NULL);
  write_reg(AVP_CMP_ENTRY_PT_FN, fault ? 0 : k->entry);
  write_reg(AVP_CMP_RETURN_ADDR, return_addr);
  write_reg(AVP_CMP_STACK_TOP, 0);
  const uint64_t run[4] = {n, dram + a_at, dram + b_at, dram + out_at};
  emit(AVP_CMP_RUN_INSTANCES, AVP_CMP_RUN_INLINE(0, 3), 4, run);
  emit(AVP_CMP_SYNC_CACHE, AVP_CMP_SYNC_DCACHE, 0, NULL);
  emit(AVP_CMP_FINISH, 0, 0, NULL);
  dram_write(CMDBUF_AT, cb, 8ull * ncb);

  const uint32_t mine = AVP_INTR_CMDBUF_DONE | AVP_INTR_CMP_ERROR;
  wr32(ACCELDEV_INTR, mine);  // write 1 to clear: nothing of an earlier run
  // Enabled, the bits drive INTx (to the host PLIC, where no driver unmasks
  // it): the interrupt is on the run's timeline while the program polls.
  const uint32_t enable = rd32(ACCELDEV_INTR_ENABLE);
  wr32(ACCELDEV_INTR_ENABLE, enable | mine);
  const uint32_t done_before = rd32(AVP_CB_DONE_COUNT);
  if (rd32(AVP_CB_FREE) == 0) return fail("%s: the command processor's queue is full", dev);
  const double t0 = now_us();
  wr32(AVP_CB_ADDR_LO, (uint32_t)(dram + CMDBUF_AT));
  wr32(AVP_CB_ADDR_HI, (uint32_t)((dram + CMDBUF_AT) >> 32));
  wr32(AVP_CB_SIZE, 8 * ncb);
  wr32(AVP_CB_SUBMIT, 1);
  uint32_t intr = 0;
  unsigned polls = 0;
  while (!((intr = rd32(ACCELDEV_INTR)) & mine) && ++polls < POLL_LIMIT) continue;
  const double t1 = now_us();
  wr32(ACCELDEV_INTR, intr & mine);
  wr32(ACCELDEV_INTR_ENABLE, enable);
  if (!(intr & mine)) return fail("no completion after %d INTR reads", POLL_LIMIT);
  if (intr & AVP_INTR_CMP_ERROR) {
    return fail("command buffer error: code %u at offset %u, info 0x%x, pc 0x%" PRIx64 ", cause %u",
                rd32(AVP_CMP_ERR_CODE), rd32(AVP_CMP_ERR_OFFSET), rd32(AVP_CMP_ERR_INFO),
                rd64(AVP_CMP_ERR_PC_LO, AVP_CMP_ERR_PC_HI), rd32(AVP_CMP_ERR_CAUSE));
  }
  const uint32_t done = rd32(AVP_CB_DONE_COUNT) - done_before;
  unsigned bad = 0;
  volatile const int32_t* result = (volatile const int32_t*)(bar2 + out_at);
  for (unsigned i = 0; i < n; ++i) bad += result[i] != a[i] + b[i];
  printf("cmp_vecadd: %s %u elements, %u wrong, %u buffer(s) done, %.1f us from submission to completion (%u polls)\n",
         bad || done != 1 ? "FAIL" : "PASS", n, bad, done, t1 - t0, polls);
  free(a);
  free(b);
  free(out);
  return bad || done != 1;
}
