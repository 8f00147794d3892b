/* librefsidrv against the platform (run under accel-vp exec): every function
 * with its error returns, header encode/decode for every opcode, the memory
 * map, DRAM allocation, two command buffers in flight then one wait, a
 * failing command buffer followed by a good one. */
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

/* A command buffer of STORE_IMM64 value -> dst, then FINISH (chunk count 1 and 0). */
static void store_and_finish(uint64_t cb[4], uint32_t dst, uint64_t value) {
  cb[0] = refsiEncodeCMPCommand(CMP_STORE_IMM64, 1, dst);
  cb[1] = value;
  cb[2] = refsiEncodeCMPCommand(CMP_FINISH, 0, 0);
  cb[3] = 0;
}

int main(void) {
  CHECK(refsiOpenDevice(REFSI_M) == NULL);  /* before refsiInitialize */
  CHECK(refsiInitialize() == refsi_success);
  CHECK(refsiInitialize() == refsi_failure);
  CHECK(refsiOpenDevice(REFSI_G) == NULL);
  refsi_device_t dev = refsiOpenDevice(REFSI_M);
  CHECK(dev);

  refsi_device_info_t info;
  CHECK(refsiQueryDeviceInfo(dev, &info) == refsi_success);
  CHECK(info.family == REFSI_M && info.num_cores >= 1 && info.num_harts_per_core >= 1 && info.num_memory_map_entries == 7);
  CHECK(strncmp(info.core_isa, "RV64IMAFDC", 10) == 0 && info.core_vlen == 0 && info.core_elen == 0);
  CHECK(refsiQueryDeviceInfo(NULL, &info) == refsi_invalid_device);
  CHECK(refsiQueryDeviceInfo((refsi_device_t)&info, &info) == refsi_invalid_device);

  /* The memory map: every kind once, with the platform's addresses. */
  unsigned seen = 0;
  struct refsi_memory_map_entry dram = {UNKNOWN, 0, 0};
  for (size_t i = 0; i < info.num_memory_map_entries; ++i) {
    struct refsi_memory_map_entry e;
    CHECK(refsiQueryDeviceMemoryMap(dev, i, &e) == refsi_success && e.size > 0);
    seen |= 1u << e.kind;
    if (e.kind == DRAM) dram = e;
    if (e.kind == TCDM_PRIVATE) CHECK(e.start_addr == 0x10000000u);
    if (e.kind == KERNEL_DMA) CHECK(e.start_addr == 0x20002000u);
  }
  CHECK(seen == 0xFE && dram.start_addr == 0x40000000u);
  struct refsi_memory_map_entry e;
  CHECK(refsiQueryDeviceMemoryMap(dev, 7, &e) == refsi_failure);

  /* Allocation: DRAM; other kinds, zero and huge sizes fail with 0. */
  const refsi_addr_t a = refsiAllocDeviceMemory(dev, 4096, 64, DRAM), b = refsiAllocDeviceMemory(dev, 64, 8, DRAM);
  CHECK(a >= dram.start_addr && b >= dram.start_addr && a != b && (a & 63) == 0);
  CHECK(refsiAllocDeviceMemory(dev, 0, 8, DRAM) == 0);
  CHECK(refsiAllocDeviceMemory(dev, (size_t)1 << 50, 8, DRAM) == 0);
  CHECK(refsiAllocDeviceMemory(dev, 64, 8, (enum refsi_memory_map_kind)42) == 0);
  CHECK(refsiAllocDeviceMemory(NULL, 64, 8, DRAM) == 0);

  /* Reads and writes as the external unit; out-of-range ones fail. */
  uint8_t out[256], back[256];
  for (int i = 0; i < 256; ++i) out[i] = (uint8_t)(i * 5 + 3);
  const uint32_t ext = REFSI_UNIT_ID(REFSI_UNIT_KIND_EXTERNAL, 0);
  CHECK(refsiWriteDeviceMemory(dev, a, out, sizeof out, ext) == refsi_success);
  CHECK(refsiReadDeviceMemory(dev, back, a, sizeof back, ext) == refsi_success && memcmp(out, back, sizeof out) == 0);
  CHECK(refsiReadDeviceMemory(dev, back, dram.start_addr + dram.size - 8, 16, ext) == refsi_failure);
  CHECK(refsiReadDeviceMemory(dev, back, 0x100, 16, ext) == refsi_failure);
  CHECK(refsiWriteDeviceMemory(dev, a, NULL, 16, ext) == refsi_failure);
  CHECK(refsiFlushDeviceMemory(dev, a, 256) == refsi_success && refsiInvalidateDeviceMemory(dev, a, 256) == refsi_success);
  CHECK(refsiExecuteKernel(dev, a, 1) == refsi_not_supported);

  /* Header encode/decode for every opcode against the seed's layout. */
  for (unsigned op = CMP_NOP; op <= CMP_SYNC_CACHE; ++op) {
    const uint64_t h = refsiEncodeCMPCommand((enum refsi_cmp_command_id)op, 3, 0xABCD0000u + op);
    CHECK(h == (0xC0000000ull | (uint64_t)op << 8 | 6ull << 16 | (uint64_t)(0xABCD0000u + op) << 32));
    enum refsi_cmp_command_id got;
    uint32_t count, inl;
    CHECK(refsiDecodeCMPCommand(h, &got, &count, &inl) == refsi_success && got == op && count == 3 && inl == 0xABCD0000u + op);
    CHECK(refsiDecodeCMPCommand(h, NULL, NULL, NULL) == refsi_success);
    CHECK(refsiDecodeCMPCommand(h & ~0xC0000000ull, &got, &count, &inl) == refsi_failure);  /* packet id not 3 */
    CHECK(refsiDecodeCMPCommand(h | 0x1, &got, &count, &inl) == refsi_failure);              /* reserved bits */
  }

  /* Two command buffers in flight, one wait. */
  const refsi_addr_t cb1 = refsiAllocDeviceMemory(dev, 32, 8, DRAM), cb2 = refsiAllocDeviceMemory(dev, 32, 8, DRAM);
  uint64_t cb[4];
  store_and_finish(cb, (uint32_t)b, 0x1111222233334444ull);
  CHECK(refsiWriteDeviceMemory(dev, cb1, (const uint8_t *)cb, sizeof cb, ext) == refsi_success);
  store_and_finish(cb, (uint32_t)b + 8, 0x5555666677778888ull);
  CHECK(refsiWriteDeviceMemory(dev, cb2, (const uint8_t *)cb, sizeof cb, ext) == refsi_success);
  CHECK(refsiExecuteCommandBuffer(dev, cb1, 24) == refsi_success);
  CHECK(refsiExecuteCommandBuffer(dev, cb2, 24) == refsi_success);
  refsiWaitForDeviceIdle(dev);
  uint64_t v[2];
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)v, b, 16, ext) == refsi_success);
  CHECK(v[0] == 0x1111222233334444ull && v[1] == 0x5555666677778888ull);
  accelvp_refsi_error_t err;
  CHECK(accelvpRefsiLastError(dev, &err) == refsi_success && err.code == 0);

  /* A failing buffer (an unknown opcode), then a good one. */
  cb[0] = refsiEncodeCMPCommand((enum refsi_cmp_command_id)0x7F, 0, 0);
  CHECK(refsiWriteDeviceMemory(dev, cb1, (const uint8_t *)cb, 8, ext) == refsi_success);
  CHECK(refsiExecuteCommandBuffer(dev, cb1, 8) == refsi_success);
  refsiWaitForDeviceIdle(dev);
  CHECK(accelvpRefsiLastError(dev, &err) == refsi_success && err.code != 0 && err.offset == 0);
  CHECK(refsiExecuteCommandBuffer(dev, cb2, 24) == refsi_success);
  refsiWaitForDeviceIdle(dev);
  CHECK(accelvpRefsiLastError(dev, &err) == refsi_success && err.code == 0);

  /* A command buffer outside device memory, or of a bad size. */
  CHECK(refsiExecuteCommandBuffer(dev, 0x100, 24) == refsi_failure);
  CHECK(refsiExecuteCommandBuffer(dev, cb2, 0) == refsi_failure);
  CHECK(refsiExecuteCommandBuffer(dev, cb2, 12) == refsi_failure);

  CHECK(refsiFreeDeviceMemory(dev, a) == refsi_success);
  CHECK(refsiFreeDeviceMemory(dev, a) == refsi_failure);
  CHECK(refsiShutdownDevice(dev) == refsi_success);
  CHECK(refsiShutdownDevice(dev) == refsi_invalid_device);
  CHECK(refsiTerminate() == refsi_success);
  CHECK(refsiTerminate() == refsi_failure);
  CHECK(refsiOpenDevice(REFSI_M) == NULL);  /* after refsiTerminate */
  printf("refsidrv_api: OK\n");
  return 0;
}
