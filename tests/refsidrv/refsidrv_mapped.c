/* librefsidrv's refsiGetMappedAddress (run under accel-vp exec): device DRAM
 * mapped into the host program; bytes written through the pointer are what
 * the device and refsiReadDeviceMemory see, and the reverse; ranges outside
 * DRAM get NULL. */
#include <stdio.h>
#include <string.h>

#include "refsidrv/refsidrv.h"

#define CHECK(c)                                                     \
  do {                                                               \
    if (!(c)) {                                                      \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
      return 1;                                                      \
    }                                                                \
  } while (0)

#define EXT REFSI_UNIT_ID(REFSI_UNIT_KIND_EXTERNAL, 0)

int main(void) {
  CHECK(refsiInitialize() == refsi_success);
  refsi_device_t dev = refsiOpenDevice(REFSI_M);
  CHECK(dev);
  struct refsi_memory_map_entry dram;
  CHECK(refsiQueryDeviceMemoryMap(dev, 0, &dram) == refsi_success && dram.kind == DRAM);
  const refsi_addr_t buf = refsiAllocDeviceMemory(dev, 4096, 256, DRAM);
  CHECK(buf);
  uint8_t *p = refsiGetMappedAddress(dev, buf, 4096);
  CHECK(p);
  CHECK(refsiGetMappedAddress(dev, buf + 100, 8) == p + 100);

  /* Host -> device: through the pointer, then read as the external unit and
   * over the device interconnect as a hart. */
  uint8_t back[200];
  for (int i = 0; i < 200; ++i) p[i] = (uint8_t)(i * 13 + 5);
  CHECK(refsiFlushDeviceMemory(dev, buf, 200) == refsi_success);
  CHECK(refsiReadDeviceMemory(dev, back, buf, 200, EXT) == refsi_success && !memcmp(back, p, 200));
  CHECK(refsiReadDeviceMemory(dev, back, buf, 200, REFSI_UNIT_ID(REFSI_UNIT_KIND_ACC_HART, 0)) == refsi_success &&
        !memcmp(back, p, 200));

  /* A command buffer written through the pointer, executed by the command
   * processor, whose store is then seen through the pointer. */
  uint64_t cb[4];
  const refsi_addr_t target = buf + 1024, cb_addr = buf + 2048;
  cb[0] = refsiEncodeCMPCommand(CMP_STORE_IMM64, 1, (uint32_t)target);
  cb[1] = 0x1122334455667788ull;
  cb[2] = refsiEncodeCMPCommand(CMP_FINISH, 0, 0);
  cb[3] = 0;
  memcpy(p + 2048, cb, sizeof cb);
  memset(p + 1024, 0, 8);
  CHECK(refsiFlushDeviceMemory(dev, cb_addr, sizeof cb) == refsi_success);
  CHECK(refsiExecuteCommandBuffer(dev, cb_addr, sizeof cb) == refsi_success);
  refsiWaitForDeviceIdle(dev);
  CHECK(refsiInvalidateDeviceMemory(dev, target, 8) == refsi_success);
  uint64_t stored;
  memcpy(&stored, p + 1024, 8);
  CHECK(stored == 0x1122334455667788ull);

  /* Device -> host: written through BAR2, read through the pointer. */
  uint8_t out[64];
  for (int i = 0; i < 64; ++i) out[i] = (uint8_t)(0xC3 ^ i);
  CHECK(refsiWriteDeviceMemory(dev, buf + 3000, out, sizeof out, EXT) == refsi_success);
  CHECK(refsiInvalidateDeviceMemory(dev, buf + 3000, sizeof out) == refsi_success && !memcmp(p + 3000, out, sizeof out));

  /* Only the program's own blocks are mapped: not the rest of DRAM, not a
   * block once freed. */
  CHECK(refsiGetMappedAddress(dev, dram.start_addr + dram.size - 1, 1) == NULL);
  CHECK(refsiGetMappedAddress(dev, buf + 4096, 1) == NULL);
  const refsi_addr_t other = refsiAllocDeviceMemory(dev, 64, 0, DRAM);
  CHECK(other && refsiGetMappedAddress(dev, other, 64) != NULL);
  CHECK(refsiFreeDeviceMemory(dev, other) == refsi_success && refsiGetMappedAddress(dev, other, 64) == NULL);

  /* Outside DRAM, empty or wrapping ranges, bad handles: NULL. */
  CHECK(refsiGetMappedAddress(dev, buf, 0) == NULL);
  CHECK(refsiGetMappedAddress(dev, dram.start_addr - 8, 16) == NULL);
  CHECK(refsiGetMappedAddress(dev, dram.start_addr + dram.size - 8, 16) == NULL);
  CHECK(refsiGetMappedAddress(dev, dram.start_addr + dram.size, 1) == NULL);
  CHECK(refsiGetMappedAddress(dev, buf, (size_t)-1) == NULL);
  CHECK(refsiGetMappedAddress(dev, 0x18000000u, 64) == NULL); /* TCDM */
  CHECK(refsiGetMappedAddress(NULL, buf, 8) == NULL);
  CHECK(refsiGetMappedAddress((refsi_device_t)&dram, buf, 8) == NULL);

  CHECK(refsiShutdownDevice(dev) == refsi_success);
  CHECK(refsiGetMappedAddress(dev, buf, 8) == NULL);
  CHECK(refsiTerminate() == refsi_success);
  printf("refsidrv_mapped: mapped device memory OK\n");
  return 0;
}
