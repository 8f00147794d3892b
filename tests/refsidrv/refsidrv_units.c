/* librefsidrv's reads and writes as a device unit (run under accel-vp exec
 * with 2 cores): a hart or core sees its own core's TCDM_PRIVATE slice and its
 * own KERNEL_DMA_PRIVATE register set; unknown units and addresses the unit
 * cannot see fail. With arguments TCDM_PRIVATE KERNEL_DMA PERF_COUNTERS (bases,
 * for a platform whose address map was moved with --set bus.<range>.base),
 * the memory map must report exactly those bases. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refsidrv/refsidrv.h"

#define CHECK(c)                                                     \
  do {                                                               \
    if (!(c)) {                                                      \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
      return 1;                                                      \
    }                                                                \
  } while (0)

#define HART(i) REFSI_UNIT_ID(REFSI_UNIT_KIND_ACC_HART, i)
#define CORE(i) REFSI_UNIT_ID(REFSI_UNIT_KIND_ACC_CORE, i)
#define EXT REFSI_UNIT_ID(REFSI_UNIT_KIND_EXTERNAL, 0)
#define DMA_SRCADDR 0x18 /* a plain read/write register of the DMA's per-unit set */

static struct refsi_memory_map_entry find(refsi_device_t dev, enum refsi_memory_map_kind kind) {
  struct refsi_memory_map_entry e = {UNKNOWN, 0, 0};
  for (size_t i = 0; refsiQueryDeviceMemoryMap(dev, i, &e) == refsi_success; ++i)
    if (e.kind == kind) return e;
  return (struct refsi_memory_map_entry){UNKNOWN, 0, 0};
}

int main(int argc, char **argv) {
  CHECK(refsiInitialize() == refsi_success);
  refsi_device_t dev = refsiOpenDevice(REFSI_M);
  CHECK(dev);
  refsi_device_info_t info;
  CHECK(refsiQueryDeviceInfo(dev, &info) == refsi_success && info.num_cores >= 2);
  const unsigned hpc = info.num_harts_per_core, harts = info.num_cores * hpc;
  const struct refsi_memory_map_entry priv = find(dev, TCDM_PRIVATE), global = find(dev, TCDM),
                                      dmap = find(dev, KERNEL_DMA_PRIVATE), dram = find(dev, DRAM);
  CHECK(priv.size > 0 && global.size == info.num_cores * priv.size && dmap.size > 0 && dram.size > 0);
  const struct refsi_memory_map_entry dma = find(dev, KERNEL_DMA), perf = find(dev, PERF_COUNTERS);
  CHECK(dma.start_addr == dmap.start_addr && dma.size == dmap.size && perf.size > 0);
  if (argc == 4) {
    CHECK(priv.start_addr == strtoull(argv[1], NULL, 0));
    CHECK(dmap.start_addr == strtoull(argv[2], NULL, 0));
    CHECK(perf.start_addr == strtoull(argv[3], NULL, 0));
  }
  /* A hart reads its own cycle counter (per-hart block at +0) at the reported base. */
  uint64_t cycles = 1;
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)&cycles, perf.start_addr, 8, HART(0)) == refsi_success && cycles == 0);

  /* Hart 0 writes its private TCDM; its core's units and the global window
   * (core 0's slice) see the bytes, core 1's harts do not. */
  uint8_t one[96], two[96], back[96];
  for (int i = 0; i < 96; ++i) {
    one[i] = (uint8_t)(i * 7 + 1);
    two[i] = (uint8_t)(0xA5 ^ (i * 3));
  }
  const refsi_addr_t at = priv.start_addr + 0x340;
  CHECK(refsiWriteDeviceMemory(dev, at, one, sizeof one, HART(0)) == refsi_success);
  CHECK(refsiReadDeviceMemory(dev, back, at, sizeof back, HART(0)) == refsi_success && !memcmp(back, one, sizeof one));
  CHECK(refsiReadDeviceMemory(dev, back, at, sizeof back, HART(hpc - 1)) == refsi_success && !memcmp(back, one, sizeof one));
  CHECK(refsiReadDeviceMemory(dev, back, at, sizeof back, CORE(0)) == refsi_success && !memcmp(back, one, sizeof one));
  CHECK(refsiReadDeviceMemory(dev, back, global.start_addr + 0x340, sizeof back, EXT) == refsi_success &&
        !memcmp(back, one, sizeof one));
  CHECK(refsiReadDeviceMemory(dev, back, at, sizeof back, HART(hpc)) == refsi_success && memcmp(back, one, sizeof one));

  /* Core 1 writes the same private address: its slice in the global window
   * changes, hart 0's view does not. */
  CHECK(refsiWriteDeviceMemory(dev, at, two, sizeof two, CORE(1)) == refsi_success);
  CHECK(refsiReadDeviceMemory(dev, back, global.start_addr + priv.size + 0x340, sizeof back, EXT) == refsi_success &&
        !memcmp(back, two, sizeof two));
  CHECK(refsiReadDeviceMemory(dev, back, at, sizeof back, HART(harts - 1)) == refsi_success && !memcmp(back, two, sizeof two));
  CHECK(refsiReadDeviceMemory(dev, back, at, sizeof back, HART(0)) == refsi_success && !memcmp(back, one, sizeof one));

  /* A hart sees DRAM like everyone else. */
  const refsi_addr_t buf = refsiAllocDeviceMemory(dev, 256, 64, DRAM);
  CHECK(buf);
  CHECK(refsiWriteDeviceMemory(dev, buf, two, sizeof two, HART(3)) == refsi_success);
  CHECK(refsiReadDeviceMemory(dev, back, buf, sizeof back, EXT) == refsi_success && !memcmp(back, two, sizeof two));

  /* KERNEL_DMA_PRIVATE: each unit its own register set. */
  uint64_t v = 0x40001230ull, got = 0;
  CHECK(refsiWriteDeviceMemory(dev, dmap.start_addr + DMA_SRCADDR, (const uint8_t *)&v, 8, HART(0)) == refsi_success);
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)&got, dmap.start_addr + DMA_SRCADDR, 8, HART(0)) == refsi_success && got == v);
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)&got, dmap.start_addr + DMA_SRCADDR, 8, HART(1)) == refsi_success && got != v);
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)&got, dmap.start_addr + DMA_SRCADDR, 8, EXT) == refsi_success && got != v);
  uint64_t regs[2];
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)regs, dmap.start_addr + DMA_SRCADDR, 16, HART(0)) == refsi_success &&
        regs[0] == v);

  /* Units the device does not have. */
  CHECK(refsiReadDeviceMemory(dev, back, at, 8, HART(harts)) == refsi_failure);
  CHECK(refsiReadDeviceMemory(dev, back, at, 8, CORE(info.num_cores)) == refsi_failure);
  CHECK(refsiReadDeviceMemory(dev, back, at, 8, REFSI_UNIT_ID(REFSI_UNIT_KIND_CMP, 1)) == refsi_failure);
  CHECK(refsiReadDeviceMemory(dev, back, at, 8, REFSI_UNIT_ID(7, 0)) == refsi_failure);
  CHECK(refsiWriteDeviceMemory(dev, at, two, 8, REFSI_UNIT_ID(200, 0)) == refsi_failure);
  /* Addresses the unit cannot see: the private views belong to no core for
   * the host and the CMP; past the slice; outside every memory-map entry. */
  CHECK(refsiReadDeviceMemory(dev, back, at, 8, EXT) == refsi_failure);
  CHECK(refsiReadDeviceMemory(dev, back, at, 8, REFSI_UNIT_ID(REFSI_UNIT_KIND_CMP, 0)) == refsi_failure);
  CHECK(refsiReadDeviceMemory(dev, back, global.start_addr, 8, REFSI_UNIT_ID(REFSI_UNIT_KIND_CMP, 0)) == refsi_success);
  CHECK(refsiReadDeviceMemory(dev, back, priv.start_addr + priv.size - 8, 16, HART(0)) == refsi_failure);
  CHECK(refsiWriteDeviceMemory(dev, 0x0C000000u, two, 8, HART(0)) == refsi_failure);
  CHECK(refsiReadDeviceMemory(dev, back, dram.start_addr + dram.size - 8, 16, HART(0)) == refsi_failure);
  /* Register windows: whole aligned 64-bit registers only. */
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)&got, dmap.start_addr + DMA_SRCADDR + 4, 8, HART(0)) == refsi_failure);
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)&got, dmap.start_addr + DMA_SRCADDR, 4, HART(0)) == refsi_failure);
  CHECK(refsiReadDeviceMemory(dev, NULL, at, 8, HART(0)) == refsi_failure);
  /* Nothing of the refused writes landed. */
  CHECK(refsiReadDeviceMemory(dev, back, at, sizeof back, HART(0)) == refsi_success && !memcmp(back, one, sizeof one));

  CHECK(refsiShutdownDevice(dev) == refsi_success);
  CHECK(refsiReadDeviceMemory(dev, back, at, 8, HART(0)) == refsi_invalid_device);
  CHECK(refsiTerminate() == refsi_success);
  printf("refsidrv_units: per-unit views OK\n");
  return 0;
}
