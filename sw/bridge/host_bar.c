/* libaccelvp-host: BAR mapping and MMIO of 8/16/32/64 bits over the bridge. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host_client.h"

struct avp_bar {
  avp_host *h;
  int bar;
  uint64_t size;
};

avp_bar *avp_bar_map(avp_host *h, int bar) {
  if (bar != 0 && bar != 2) {
    errno = EINVAL;
    return NULL;
  }
  /* The size from the server, which enumerated the device (sizing it here by
   * writing all-ones would race with the other programs on the server). */
  struct avpb_reply r;
  int st = avp_host_call(h, AVPB_BAR_INFO, (uint64_t)bar, 0, 0, 0, NULL, 0, &r, NULL, 0);
  if (st) {
    errno = -st;
    return NULL;
  }
  const uint64_t size = r.r[0];
  uint32_t cmd = 0;
  if (avp_cfg_read(h, 0x04, 2, &cmd) || avp_cfg_write(h, 0x04, 2, cmd | 0x6)) /* memory space, bus master */
    return NULL;
  avp_bar *b = malloc(sizeof *b);
  if (!b) return NULL;
  b->h = h;
  b->bar = bar;
  b->size = size;
  return b;
}

void avp_bar_unmap(avp_bar *b) { free(b); }
uint64_t avp_bar_size(const avp_bar *b) { return b->size; }

static uint64_t mmio_read(avp_bar *b, uint64_t off, unsigned size) {
  struct avpb_reply r;
  int st = avp_host_call(b->h, AVPB_MMIO_READ, (uint64_t)b->bar, off, size, 0, NULL, 0, &r, NULL, 0);
  if (st) {
    errno = -st;
    return st == -EIO ? r.r[0] : ~0ull;
  }
  return r.r[0];
}

static int mmio_write(avp_bar *b, uint64_t off, unsigned size, uint64_t v) {
  int st = avp_host_call(b->h, AVPB_MMIO_WRITE, (uint64_t)b->bar, off, size, v, NULL, 0, NULL, NULL, 0);
  if (st == 0) return 0;
  errno = -st;
  return -1;
}

uint8_t avp_mmio_read8(avp_bar *b, uint64_t o) { return (uint8_t)mmio_read(b, o, 1); }
uint16_t avp_mmio_read16(avp_bar *b, uint64_t o) { return (uint16_t)mmio_read(b, o, 2); }
uint32_t avp_mmio_read32(avp_bar *b, uint64_t o) { return (uint32_t)mmio_read(b, o, 4); }
uint64_t avp_mmio_read64(avp_bar *b, uint64_t o) { return mmio_read(b, o, 8); }
int avp_mmio_write8(avp_bar *b, uint64_t o, uint8_t v) { return mmio_write(b, o, 1, v); }
int avp_mmio_write16(avp_bar *b, uint64_t o, uint16_t v) { return mmio_write(b, o, 2, v); }
int avp_mmio_write32(avp_bar *b, uint64_t o, uint32_t v) { return mmio_write(b, o, 4, v); }
int avp_mmio_write64(avp_bar *b, uint64_t o, uint64_t v) { return mmio_write(b, o, 8, v); }

int avp_bar_read(avp_bar *b, uint64_t off, void *dst, size_t len) {
  for (size_t done = 0; done < len;) {
    uint32_t n = len - done > AVPB_MAX_PAYLOAD ? AVPB_MAX_PAYLOAD : (uint32_t)(len - done);
    struct avpb_reply r;
    int st = avp_host_call(b->h, AVPB_BAR_READ, (uint64_t)b->bar, off + done, n, 0, NULL, 0, &r, (uint8_t *)dst + done, n);
    if (st == 0 && r.length != n) st = -EPROTO;
    if (st) {
      errno = -st;
      return -1;
    }
    done += n;
  }
  return 0;
}

int avp_bar_write(avp_bar *b, uint64_t off, const void *src, size_t len) {
  for (size_t done = 0; done < len;) {
    uint32_t n = len - done > AVPB_MAX_PAYLOAD ? AVPB_MAX_PAYLOAD : (uint32_t)(len - done);
    int st = avp_host_call(b->h, AVPB_BAR_WRITE, (uint64_t)b->bar, off + done, 0, 0, (const uint8_t *)src + done, n, NULL,
                           NULL, 0);
    if (st) {
      errno = -st;
      return -1;
    }
    done += n;
  }
  return 0;
}
