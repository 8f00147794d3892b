/* libaccelvp-host: the RefSi-style device API over the bridge (accelvp_device.h),
 * the C counterpart of the in-simulator AccelDevice. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accelvp_device.h"
#include "bar0_regs.h"
#include "host_client.h"

struct avp_device {
  avp_host *h;
  avp_bar *bar0, *bar2;
  avp_device_info info;
  pthread_mutex_t lock;             /* guards pending */
  uint64_t pending[256];            /* command buffers in flight, freed by wait_idle */
  unsigned npending;
};

static uint64_t rd64(avp_bar *b, uint32_t lo, uint32_t hi) {
  return avp_mmio_read32(b, lo) | (uint64_t)avp_mmio_read32(b, hi) << 32;
}

avp_device *avp_device_open(avp_host *h) {
  uint32_t id = 0;
  if (avp_cfg_read(h, 0, 4, &id)) return NULL;
  if (id != (AVP_PCI_VENDOR_ID | AVP_PCI_DEVICE_ID << 16)) {
    errno = ENODEV;
    return NULL;
  }
  avp_device *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  pthread_mutex_init(&d->lock, NULL);
  d->h = h;
  d->bar0 = avp_bar_map(h, 0);
  d->bar2 = avp_bar_map(h, 2);
  if (!d->bar0 || !d->bar2 || avp_mmio_read32(d->bar0, AVP_INFO_MAGIC) != AVP_INFO_MAGIC_VALUE) {
    avp_device_close(d);
    errno = ENODEV;
    return NULL;
  }
  avp_device_info *i = &d->info;
  i->cores = avp_mmio_read32(d->bar0, AVP_INFO_CORES);
  i->harts_per_core = avp_mmio_read32(d->bar0, AVP_INFO_HARTS_PER_CORE);
  i->dram_base = rd64(d->bar0, AVP_INFO_DRAM_BASE_LO, AVP_INFO_DRAM_BASE_HI);
  i->dram_size = rd64(d->bar0, AVP_INFO_DRAM_SIZE_LO, AVP_INFO_DRAM_SIZE_HI);
  i->tcdm_base = avp_mmio_read32(d->bar0, AVP_INFO_TCDM_BASE);
  i->tcdm_per_core = avp_mmio_read32(d->bar0, AVP_INFO_TCDM_PER_CORE);
  i->tcim_base = avp_mmio_read32(d->bar0, AVP_INFO_TCIM_BASE);
  i->tcim_size = avp_mmio_read32(d->bar0, AVP_INFO_TCIM_SIZE);
  if (avp_mmio_read32(d->bar0, AVP_INFO_VERSION) >= 2) {
    const uint32_t n = avp_mmio_read32(d->bar0, AVP_INFO_NUM_RANGES);
    for (uint32_t r = 0; r < n && r < AVP_NUM_RANGES; ++r) {
      i->ranges[r].base = rd64(d->bar0, AVP_INFO_RANGE_BASE_LO(r), AVP_INFO_RANGE_BASE_HI(r));
      i->ranges[r].size = rd64(d->bar0, AVP_INFO_RANGE_SIZE_LO(r), AVP_INFO_RANGE_SIZE_HI(r));
    }
  }
  i->refsi_map_count = avp_mmio_read32(d->bar0, AVP_INFO_REFSI_MAP_COUNT);
  if (i->refsi_map_count > AVP_INFO_REFSI_MAP_MAX) i->refsi_map_count = 0;  /* not a map this library can read */
  for (uint32_t e = 0; e < i->refsi_map_count; ++e) i->refsi_map[e] = avp_mmio_read32(d->bar0, AVP_INFO_REFSI_MAP(e));
  const uint32_t mine = AVP_INTR_CMDBUF_DONE | AVP_INTR_CMP_ERROR;
  avp_mmio_write32(d->bar0, ACCELDEV_INTR, mine | AVP_INTR_CMP_QUEUE_FULL);
  avp_mmio_write32(d->bar0, ACCELDEV_INTR_ENABLE, avp_mmio_read32(d->bar0, ACCELDEV_INTR_ENABLE) | mine);
  return d;
}

void avp_device_close(avp_device *d) {
  if (!d) return;
  avp_bar_unmap(d->bar0);
  avp_bar_unmap(d->bar2);
  pthread_mutex_destroy(&d->lock);
  free(d);
}

const avp_device_info *avp_device_get_info(const avp_device *d) { return &d->info; }

/* The server's allocator: one for the device, shared by every handle and
 * program; each block is mapped in the program's view of DRAM. */
uint64_t avp_device_alloc(avp_device *d, uint64_t size, uint64_t align) { return avp_host_dram_alloc(d->h, size, align); }

int avp_device_free(avp_device *d, uint64_t addr) { return avp_host_dram_free(d->h, addr); }

void *avp_device_ptr(avp_device *d, uint64_t dev_addr, size_t len) { return avp_host_dram_ptr(d->h, dev_addr, len); }

static int in_dram(const avp_device *d, uint64_t addr, size_t len) {
  const avp_device_info *i = &d->info;
  return addr >= i->dram_base && len <= i->dram_size && addr - i->dram_base <= i->dram_size - len;
}

int avp_device_write(avp_device *d, uint64_t dev_addr, const void *src, size_t len) {
  if (!in_dram(d, dev_addr, len)) return errno = EFAULT, -1;
  return avp_bar_write(d->bar2, dev_addr - d->info.dram_base, src, len);
}

int avp_device_read(avp_device *d, uint64_t dev_addr, void *dst, size_t len) {
  if (!in_dram(d, dev_addr, len)) return errno = EFAULT, -1;
  return avp_bar_read(d->bar2, dev_addr - d->info.dram_base, dst, len);
}

int avp_device_write_as(avp_device *d, uint32_t unit, uint64_t dev_addr, const void *src, size_t len) {
  for (size_t done = 0; done < len;) {
    const uint32_t n = len - done > AVPB_MAX_PAYLOAD ? AVPB_MAX_PAYLOAD : (uint32_t)(len - done);
    const int st = avp_host_call(d->h, AVPB_UNIT_WRITE, unit, dev_addr + done, 0, 0, (const uint8_t *)src + done, n, NULL,
                                 NULL, 0);
    if (st) return errno = -st, -1;
    done += n;
  }
  return 0;
}

int avp_device_read_as(avp_device *d, uint32_t unit, uint64_t dev_addr, void *dst, size_t len) {
  for (size_t done = 0; done < len;) {
    const uint32_t n = len - done > AVPB_MAX_PAYLOAD ? AVPB_MAX_PAYLOAD : (uint32_t)(len - done);
    struct avpb_reply r;
    int st = avp_host_call(d->h, AVPB_UNIT_READ, unit, dev_addr + done, n, 0, NULL, 0, &r, (uint8_t *)dst + done, n);
    if (st == 0 && r.length != n) st = -EPROTO;
    if (st) return errno = -st, -1;
    done += n;
  }
  return 0;
}

int avp_device_submit(avp_device *d, uint64_t at, size_t bytes) {
  if (bytes == 0 || (bytes & 7) || bytes > UINT32_MAX) return errno = EINVAL, -1;
  if (!in_dram(d, at, bytes)) return errno = EFAULT, -1;
  if (avp_mmio_read32(d->bar0, AVP_CB_FREE) == 0) return errno = EAGAIN, -1;
  avp_mmio_write32(d->bar0, AVP_CB_ADDR_LO, (uint32_t)at);
  avp_mmio_write32(d->bar0, AVP_CB_ADDR_HI, (uint32_t)(at >> 32));
  avp_mmio_write32(d->bar0, AVP_CB_SIZE, (uint32_t)bytes);
  avp_mmio_write32(d->bar0, AVP_CB_SUBMIT, 1);
  return 0;
}

int avp_device_execute(avp_device *d, const uint64_t *chunks, size_t count) {
  const size_t bytes = count * 8;
  if (count == 0 || count > SIZE_MAX / 8) return errno = EINVAL, -1;
  pthread_mutex_lock(&d->lock);  /* one submission at a time: the pending list and the feed */
  int st = -1;
  uint64_t at = 0;
  if (d->npending == sizeof d->pending / sizeof d->pending[0]) errno = EAGAIN;
  else if ((at = avp_device_alloc(d, bytes, 256)) != 0) {
    if (avp_device_write(d, at, chunks, bytes) || avp_device_submit(d, at, bytes)) {
      const int e = errno;
      avp_device_free(d, at);
      errno = e;
    } else {
      d->pending[d->npending++] = at;
      st = 0;
    }
  }
  pthread_mutex_unlock(&d->lock);
  return st;
}

int avp_device_wait_idle(avp_device *d, avp_cmp_failure *err) {
  avp_cmp_failure e = {0, 0, 0, 0, 0};
  int lost = 0;
  for (;;) {
    const uint32_t intr = avp_mmio_read32(d->bar0, ACCELDEV_INTR);
    const uint32_t mine = intr & (AVP_INTR_CMDBUF_DONE | AVP_INTR_CMP_ERROR);
    if (mine) avp_mmio_write32(d->bar0, ACCELDEV_INTR, mine);
    if ((intr & AVP_INTR_CMP_ERROR) && !e.code) {
      e.code = avp_mmio_read32(d->bar0, AVP_CMP_ERR_CODE);
      e.offset = avp_mmio_read32(d->bar0, AVP_CMP_ERR_OFFSET);
      e.info = avp_mmio_read32(d->bar0, AVP_CMP_ERR_INFO);
      e.pc = rd64(d->bar0, AVP_CMP_ERR_PC_LO, AVP_CMP_ERR_PC_HI);
      e.cause = avp_mmio_read32(d->bar0, AVP_CMP_ERR_CAUSE);
    }
    if (!(avp_mmio_read32(d->bar0, AVP_CMP_STATUS) & 1)) break;
    if (avp_irq_wait(d->h, AVP_WAIT_FOREVER) < 0 && errno != ETIMEDOUT) {
      lost = errno;  /* the platform has gone or stalled */
      break;
    }
  }
  uint64_t done[sizeof d->pending / sizeof d->pending[0]];
  pthread_mutex_lock(&d->lock);
  const unsigned n = d->npending;
  memcpy(done, d->pending, n * sizeof done[0]);
  d->npending = 0;
  pthread_mutex_unlock(&d->lock);
  for (unsigned i = 0; i < n; ++i) avp_device_free(d, done[i]);
  if (err) *err = e;
  if (lost) return errno = lost, -1;
  return e.code ? (errno = EIO, -1) : 0;
}

/* The extent of the image's loadable segments: [*lowest, *highest) of their
 * addresses. 0 for an image with none, or with a segment that wraps or holds
 * more file bytes than memory or than the file has. */
static int load_extent(Elf *e, size_t nph, size_t file_size, uint64_t *lowest, uint64_t *highest) {
  *lowest = UINT64_MAX;
  *highest = 0;
  for (size_t i = 0; i < nph; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(e, (int)i, &ph)) return 0;
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (ph.p_filesz > ph.p_memsz || ph.p_vaddr + ph.p_memsz <= ph.p_vaddr || ph.p_offset > file_size ||
        ph.p_filesz > file_size - ph.p_offset)
      return 0;
    if (ph.p_vaddr < *lowest) *lowest = ph.p_vaddr;
    if (ph.p_vaddr + ph.p_memsz > *highest) *highest = ph.p_vaddr + ph.p_memsz;
  }
  return *highest > 0;
}

int avp_device_load_kernel(avp_device *d, const char *elf_path, avp_kernel *k) {
  const uint64_t capacity = 1 << 20; /* the DRAM block the image is copied to */
  k->dram = 0;
  if (elf_version(EV_CURRENT) == EV_NONE) return errno = ENOEXEC, -1;
  const int fd = open(elf_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  GElf_Ehdr eh;
  size_t nph = 0, file_size = 0;
  const char *file = e ? elf_rawfile(e, &file_size) : NULL;
  uint64_t lowest = 0, highest = 0;
  /* The image is linked at a window address: place it relative to its first
   * page, which only the program headers tell. */
  int ok = file && elf_kind(e) == ELF_K_ELF && gelf_getclass(e) == ELFCLASS64 && gelf_getehdr(e, &eh) &&
           elf_getphdrnum(e, &nph) == 0 && load_extent(e, nph, file_size, &lowest, &highest) &&
           highest - (lowest & ~0xFFFull) <= capacity;
  k->link_base = lowest & ~0xFFFull;
  k->size = ok ? highest - k->link_base : 0;
  k->entry = ok ? eh.e_entry : 0;
  k->return_addr = avp_device_get_info(d)->tcim_base;
  k->dram = ok ? avp_device_alloc(d, capacity, 4096) : 0;
  ok = ok && k->dram;
  for (size_t i = 0; ok && i < nph; ++i) {
    GElf_Phdr ph;
    ok = gelf_getphdr(e, (int)i, &ph) != NULL;
    if (!ok || ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    uint8_t *seg = calloc(1, ph.p_memsz);  /* the file's bytes, then zeros */
    ok = seg != NULL;
    if (ok && ph.p_filesz) memcpy(seg, file + ph.p_offset, ph.p_filesz);
    ok = ok && avp_device_write(d, k->dram + (ph.p_vaddr - k->link_base), seg, ph.p_memsz) == 0;
    free(seg);
  }
  if (e) elf_end(e);
  close(fd);
  if (!ok) {
    if (k->dram) avp_device_free(d, k->dram);
    k->dram = 0;
    errno = ENOEXEC;
    return -1;
  }
  return 0;
}
