/* librefsidrv: the RefSi driver API on accel-vp's PCIe device, in the host
 * program's process, over the host bridge (libaccelvp-host's device API).
 * docs/refsidrv.md lists what is supported. */
#include "refsidrv/refsidrv.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "accelvp_device.h"
#include "cmp_packets.h"

#define MAX_DEVICES 16

struct RefSiDevice {
  avp_host *host;
  avp_device *dev;
  struct refsi_memory_map_entry map[AVP_INFO_REFSI_MAP_MAX];
  unsigned map_entries;
  avp_cmp_failure last_error;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int initialized;
static refsi_device_t devices[MAX_DEVICES];

/* The device when it is one this library opened and has not shut down. */
static enum refsi_result check(refsi_device_t d) {
  if (!d) return refsi_invalid_device;
  enum refsi_result r = initialized ? refsi_invalid_device : refsi_device_closed;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < MAX_DEVICES && initialized; ++i)
    if (devices[i] == d) r = refsi_success;
  pthread_mutex_unlock(&lock);
  return r;
}

enum refsi_result refsiInitialize(void) {
  pthread_mutex_lock(&lock);
  const int was = initialized;
  initialized = 1;
  pthread_mutex_unlock(&lock);
  return was ? refsi_failure : refsi_success;
}

enum refsi_result refsiTerminate(void) {
  if (!initialized) return refsi_failure;
  for (int i = 0; i < MAX_DEVICES; ++i)
    if (devices[i]) refsiShutdownDevice(devices[i]);
  pthread_mutex_lock(&lock);
  initialized = 0;
  pthread_mutex_unlock(&lock);
  return refsi_success;
}

/* The entries, their order and every address come from the device's info
 * block (its RefSi memory map over its resolved address map); a device whose
 * map has no DRAM entry for its DRAM, or an entry this library cannot read,
 * is refused. */
static int fill_map(struct RefSiDevice *d) {
  const avp_device_info *i = avp_device_get_info(d->dev);
  int dram = 0;
  for (unsigned e = 0; e < i->refsi_map_count; ++e) {
    const uint32_t kind = AVP_INFO_REFSI_MAP_KIND(i->refsi_map[e]), range = AVP_INFO_REFSI_MAP_RANGE(i->refsi_map[e]);
    if (kind < DRAM || kind > PERF_COUNTERS || range >= AVP_NUM_RANGES || !i->ranges[range].size) return 0;
    d->map[e] = (struct refsi_memory_map_entry){(enum refsi_memory_map_kind)kind, i->ranges[range].base,
                                                i->ranges[range].size};
    dram |= kind == DRAM && range == AVP_RANGE_DRAM;
  }
  d->map_entries = i->refsi_map_count;
  return dram;
}

refsi_device_t refsiOpenDevice(enum refsi_device_family family) {
  if (!initialized || (family != REFSI_DEFAULT && family != REFSI_M)) return NULL;
  struct RefSiDevice *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->host = avp_host_connect(NULL);
  d->dev = d->host ? avp_device_open(d->host) : NULL;
  if (!d->dev || !fill_map(d)) {
    avp_device_close(d->dev);
    avp_host_disconnect(d->host);
    free(d);
    return NULL;
  }
  pthread_mutex_lock(&lock);
  int slot = -1;
  for (int i = 0; i < MAX_DEVICES && slot < 0; ++i)
    if (!devices[i]) slot = i;
  if (slot >= 0) devices[slot] = d;
  pthread_mutex_unlock(&lock);
  if (slot < 0) {
    avp_device_close(d->dev);
    avp_host_disconnect(d->host);
    free(d);
    return NULL;
  }
  return d;
}

enum refsi_result refsiShutdownDevice(refsi_device_t d) {
  enum refsi_result r = check(d);
  if (r != refsi_success) return r;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < MAX_DEVICES; ++i)
    if (devices[i] == d) devices[i] = NULL;
  pthread_mutex_unlock(&lock);
  avp_device_close(d->dev);
  avp_host_disconnect(d->host);
  free(d);
  return refsi_success;
}

enum refsi_result refsiQueryDeviceInfo(refsi_device_t d, refsi_device_info_t *info) {
  enum refsi_result r = check(d);
  if (r != refsi_success) return r;
  if (!info) return refsi_failure;
  const avp_device_info *i = avp_device_get_info(d->dev);
  info->family = REFSI_M;
  info->num_cores = i->cores;
  info->num_harts_per_core = i->harts_per_core;
  info->num_memory_map_entries = d->map_entries;
  info->core_isa = "RV64IMAFDC";
  info->core_vlen = 0;
  info->core_elen = 0;
  return refsi_success;
}

enum refsi_result refsiQueryDeviceMemoryMap(refsi_device_t d, size_t index, struct refsi_memory_map_entry *entry) {
  enum refsi_result r = check(d);
  if (r != refsi_success) return r;
  if (!entry || index >= d->map_entries) return refsi_failure;
  *entry = d->map[index];
  return refsi_success;
}

refsi_addr_t refsiAllocDeviceMemory(refsi_device_t d, size_t size, size_t alignment, enum refsi_memory_map_kind kind) {
  if (check(d) != refsi_success || kind != DRAM || size == 0) return 0;  /* device memory is DRAM */
  return avp_device_alloc(d->dev, size, alignment);  /* whole pages, at least page-aligned */
}

enum refsi_result refsiFreeDeviceMemory(refsi_device_t d, refsi_addr_t address) {
  enum refsi_result r = check(d);
  if (r != refsi_success) return r;
  return avp_device_free(d->dev, address) == 0 ? refsi_success : refsi_failure;
}

static int in_dram(refsi_device_t d, refsi_addr_t a, size_t size) {
  const avp_device_info *i = avp_device_get_info(d->dev);
  return a >= i->dram_base && size <= i->dram_size && a - i->dram_base <= i->dram_size - size;
}

/* The program's own DRAM blocks are mapped into it: the pointer stays valid
 * until the block is freed, and accesses through it take no simulated time. */
void *refsiGetMappedAddress(refsi_device_t d, refsi_addr_t address, size_t size) {
  if (check(d) != refsi_success || size == 0) return NULL;
  return avp_device_ptr(d->dev, address, size);
}

enum refsi_result refsiFlushDeviceMemory(refsi_device_t d, refsi_addr_t address, size_t size) {
  enum refsi_result r = check(d);
  if (r != refsi_success) return r;
  return in_dram(d, address, size) ? refsi_success : refsi_failure;  /* reads and writes go straight through BAR2 */
}

enum refsi_result refsiInvalidateDeviceMemory(refsi_device_t d, refsi_addr_t address, size_t size) {
  return refsiFlushDeviceMemory(d, address, size);
}

/* The memory-map entry holding all of [a, a + size), or NULL. */
static const struct refsi_memory_map_entry *entry_of(refsi_device_t d, refsi_addr_t a, size_t size) {
  for (unsigned i = 0; i < d->map_entries; ++i) {
    const struct refsi_memory_map_entry *e = &d->map[i];
    if (a >= e->start_addr && size <= e->size && a - e->start_addr <= e->size - size) return e;
  }
  return NULL;
}

/* The unit id the platform knows for `unit_id` (ANY is the external unit),
 * or 0 when the device has no such unit. */
static uint32_t device_unit(refsi_device_t d, uint32_t unit_id) {
  const avp_device_info *i = avp_device_get_info(d->dev);
  const uint32_t kind = unit_id >> 24, index = unit_id & 0xFFFFFFu;
  switch (kind) {
    case REFSI_UNIT_KIND_ANY:
    case REFSI_UNIT_KIND_EXTERNAL: return REFSI_UNIT_ID(REFSI_UNIT_KIND_EXTERNAL, 0);
    case REFSI_UNIT_KIND_CMP: return index == 0 ? unit_id : 0;
    case REFSI_UNIT_KIND_ACC_HART: return index < i->cores * i->harts_per_core ? unit_id : 0;
    case REFSI_UNIT_KIND_ACC_CORE: return index < i->cores ? unit_id : 0;
    default: return 0;
  }
}

/* One access of `size` bytes at `a` as the unit: the external unit reaches
 * DRAM through BAR2, everything else goes over the device interconnect tagged
 * with the unit (register windows one aligned 64-bit register at a time). An
 * address outside every memory-map entry goes there too: the command
 * processor's active windows map it for the units they serve, the host
 * included (a SHARED window), as on RefSi; the platform refuses the rest. */
static enum refsi_result unit_access(refsi_device_t d, int write, refsi_addr_t a, void *buf, size_t size, uint32_t unit_id) {
  enum refsi_result r = check(d);
  if (r != refsi_success) return r;
  const uint32_t unit = device_unit(d, unit_id);
  const struct refsi_memory_map_entry *e = entry_of(d, a, size);
  if (!buf || !unit || a + size < a) return refsi_failure;
  if (size == 0) return e ? refsi_success : refsi_failure;
  if (e && unit >> 24 == REFSI_UNIT_KIND_EXTERNAL && e->kind == DRAM) {
    const int st = write ? avp_device_write(d->dev, a, buf, size) : avp_device_read(d->dev, a, buf, size);
    return st == 0 ? refsi_success : refsi_failure;
  }
  const int registers = e && (e->kind == KERNEL_DMA || e->kind == KERNEL_DMA_PRIVATE || e->kind == PERF_COUNTERS);
  if (registers && ((a | size) & 7)) return refsi_failure;
  const size_t step = registers ? 8 : size;
  for (size_t done = 0; done < size; done += step) {
    uint8_t *p = (uint8_t *)buf + done;
    const int st = write ? avp_device_write_as(d->dev, unit, a + done, p, step) : avp_device_read_as(d->dev, unit, a + done, p, step);
    if (st) return refsi_failure;
  }
  return refsi_success;
}

enum refsi_result refsiReadDeviceMemory(refsi_device_t d, uint8_t *dest, refsi_addr_t address, size_t size,
                                        uint32_t unit_id) {
  return unit_access(d, 0, address, dest, size, unit_id);
}

enum refsi_result refsiWriteDeviceMemory(refsi_device_t d, refsi_addr_t address, const uint8_t *source, size_t size,
                                         uint32_t unit_id) {
  return unit_access(d, 1, address, (void *)source, size, unit_id);
}

enum refsi_result refsiExecuteCommandBuffer(refsi_device_t d, refsi_addr_t cb_addr, size_t size) {
  enum refsi_result r = check(d);
  if (r != refsi_success) return r;
  return avp_device_submit(d->dev, cb_addr, size) == 0 ? refsi_success : refsi_failure;
}

void refsiWaitForDeviceIdle(refsi_device_t d) {
  if (check(d) != refsi_success) return;
  avp_cmp_failure e;
  avp_device_wait_idle(d->dev, &e);
  if (!d->last_error.code) d->last_error = e;
}

enum refsi_result refsiExecuteKernel(refsi_device_t d, refsi_addr_t address, uint32_t num_harts) {
  (void)address;
  (void)num_harts;
  enum refsi_result r = check(d);
  return r != refsi_success ? r : refsi_not_supported;  /* G family only */
}

enum refsi_result refsiDecodeCMPCommand(uint64_t header, enum refsi_cmp_command_id *opcode, uint32_t *chunk_count,
                                        uint32_t *inline_chunk) {
  if ((header & AVP_CMP_HEADER_MASK) != AVP_CMP_HEADER_VALUE) return refsi_failure;
  if (opcode) *opcode = (enum refsi_cmp_command_id)AVP_CMP_HEADER_OPCODE(header);
  if (chunk_count) *chunk_count = AVP_CMP_HEADER_COUNT(header) / 2;
  if (inline_chunk) *inline_chunk = AVP_CMP_HEADER_INLINE(header);
  return refsi_success;
}

uint64_t refsiEncodeCMPCommand(enum refsi_cmp_command_id opcode, uint32_t chunk_count, uint32_t inline_chunk) {
  return AVP_CMP_HEADER(opcode, chunk_count, inline_chunk);
}

enum refsi_result accelvpRefsiLastError(refsi_device_t d, accelvp_refsi_error_t *error) {
  enum refsi_result r = check(d);
  if (r != refsi_success) return r;
  if (!error) return refsi_failure;
  const avp_cmp_failure *e = &d->last_error;
  error->code = e->code;
  error->offset = e->offset;
  error->hart = (e->info >> 31) ? (int32_t)((e->info >> 8) & 0xFFFF) : -1;
  error->pc = e->pc;
  d->last_error.code = 0;
  return refsi_success;
}
