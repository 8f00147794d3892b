/* The RefSi M1 profile (configs/refsi-m1.yaml) as Codeplay's M1 HAL uses it,
 * run under `accel-vp --config refsi-m1 exec`: the memory map it reads (no
 * TCIM, TCDM at 0x1000_0000, one core), window 0 mapping 0x10000 onto a DRAM
 * block, a PER_HART window at TCDM + 64 MiB onto the top 2 MiB of the TCDM,
 * MODE written without PERMS, kernel code written by the host at 0x10000
 * through window 0 and run from there with its stack in the per-hart window,
 * and no command buffer ending with FINISH. With the argument `fail` it runs
 * one buffer that fails and exits 0 itself (the profile's exit status 4 and
 * the manifest say what happened). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refsidrv/refsidrv.h"

#define CHECK(c)                                                            \
  do {                                                                      \
    if (!(c)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
      return 1;                                                             \
    }                                                                       \
  } while (0)

#define EXT REFSI_UNIT_ID(REFSI_UNIT_KIND_EXTERNAL, 0)
#define KERNEL_BASE 0x10000ull
#define KERNEL_AREA ((1ull << 27) - KERNEL_BASE)
#define MiB (1ull << 20)
#define INSTANCES 8

/* RV64 encodings of the few instructions the kernel needs. */
enum { ZERO = 0, RA = 1, SP = 2, T0 = 5, T1 = 6, T2 = 7, A0 = 10, A1 = 11, A2 = 12 };
#define ITYPE(imm, rs1, f3, rd, op) ((uint32_t)((imm) & 0xFFF) << 20 | (rs1) << 15 | (f3) << 12 | (rd) << 7 | (op))
#define STYPE(imm, rs2, rs1, f3) \
  ((uint32_t)(((imm) >> 5) & 0x7F) << 25 | (rs2) << 20 | (rs1) << 15 | (f3) << 12 | (uint32_t)((imm) & 0x1F) << 7 | 0x23)
#define ADD(rd, rs1, rs2) ((rs2) << 20 | (rs1) << 15 | (rd) << 7 | 0x33)
#define ADDI(rd, rs, imm) ITYPE(imm, rs, 0, rd, 0x13)
#define SLLI(rd, rs, sh) ITYPE(sh, rs, 1, rd, 0x13)
#define LD(rd, rs, imm) ITYPE(imm, rs, 3, rd, 0x03)
#define SD(rs2, rs1, imm) STYPE(imm, rs2, rs1, 3)
#define CSRR(rd, csr) ITYPE(csr, 0, 2, rd, 0x73)
#define RET ITYPE(0, RA, 0, ZERO, 0x67)

/* out[a0] = 2 x mhartid + 1, the hart id having gone through this hart's
 * slot of the per-hart window (a2) and through its stack. */
static const uint32_t kernel[] = {
    CSRR(T2, 0xF14), SD(T2, A2, 0),  ADDI(SP, SP, -16), SD(T2, SP, 8), LD(T1, SP, 8),
    ADDI(SP, SP, 16), LD(T0, A2, 0), ADD(T1, T1, T0),   ADDI(T1, T1, 1), SLLI(T0, A0, 3),
    ADD(T0, T0, A1),  SD(T1, T0, 0), RET,
};

struct cb {
  uint64_t chunk[64];
  size_t n;
};
static void put(struct cb *b, enum refsi_cmp_command_id op, uint32_t inline_chunk, int count, const uint64_t *payload) {
  b->chunk[b->n++] = refsiEncodeCMPCommand(op, (uint32_t)count, inline_chunk);
  for (int i = 0; i < count; ++i) b->chunk[b->n++] = payload[i];
}
static void write_reg(struct cb *b, enum refsi_cmp_register_id reg, uint64_t v) { put(b, CMP_WRITE_REG64, reg, 1, &v); }
/* As the HAL sets a window up: BASE, TARGET, SCALE, then MODE with ACTIVE, the
 * mode and the size, no PERMS. */
static void window(struct cb *b, unsigned n, uint64_t mode, uint64_t base, uint64_t target, uint64_t scale, uint64_t size) {
  write_reg(b, (enum refsi_cmp_register_id)(CMP_REG_WINDOW_BASE0 + n), base);
  write_reg(b, (enum refsi_cmp_register_id)(CMP_REG_WINDOW_TARGET0 + n), target);
  write_reg(b, (enum refsi_cmp_register_id)(CMP_REG_WINDOW_SCALE0 + n), scale ? 1 | (scale - 1) << 32 : 0);
  write_reg(b, (enum refsi_cmp_register_id)(CMP_REG_WINDOW_MODE0 + n), CMP_WINDOW_ACTIVE | mode | (size - 1) << 32);
}

/* Places the buffer in DRAM, runs it, waits; the command processor's error code. */
static uint32_t run(refsi_device_t dev, const struct cb *b) {
  const size_t bytes = b->n * 8;
  const refsi_addr_t at = refsiAllocDeviceMemory(dev, bytes, 8, DRAM);
  accelvp_refsi_error_t e = {0, 0, 0, 0};
  if (!at || refsiWriteDeviceMemory(dev, at, (const uint8_t *)b->chunk, bytes, EXT) != refsi_success ||
      refsiExecuteCommandBuffer(dev, at, bytes) != refsi_success)
    return 0xFFFF;
  refsiWaitForDeviceIdle(dev);
  refsiFreeDeviceMemory(dev, at);
  if (accelvpRefsiLastError(dev, &e) != refsi_success) return 0xFFFF;
  if (e.code) fprintf(stderr, "refsidrv_m1: buffer error %u at offset %u (hart %d pc 0x%llx)\n", e.code, e.offset, e.hart,
                      (unsigned long long)e.pc);
  return e.code;
}

int main(int argc, char **argv) {
  CHECK(refsiInitialize() == refsi_success);
  refsi_device_t dev = refsiOpenDevice(REFSI_M);
  CHECK(dev);

  if (argc > 1 && strcmp(argv[1], "fail") == 0) {
    struct cb b = {{0}, 0};
    put(&b, CMP_NOP, 0, 0, NULL);
    b.chunk[b.n++] = refsiEncodeCMPCommand((enum refsi_cmp_command_id)0x7F, 0, 0); /* no such opcode */
    CHECK(run(dev, &b) != 0);
    refsiShutdownDevice(dev);
    refsiTerminate();
    printf("refsidrv_m1: one failed buffer, program exits 0\n");
    return 0;
  }

  /* The device as the HAL reads it: one core of 4 harts, and the memory map. */
  refsi_device_info_t info;
  CHECK(refsiQueryDeviceInfo(dev, &info) == refsi_success);
  CHECK(info.num_cores == 1 && info.num_harts_per_core == 4 && info.num_memory_map_entries == 4);
  const struct {
    enum refsi_memory_map_kind kind;
    refsi_addr_t base;
    size_t size;
  } want[4] = {{TCDM, 0x10000000, 4 * MiB}, {DRAM, 0x40000000, 2048 * MiB}, {KERNEL_DMA_PRIVATE, 0x20002000, 256},
               {PERF_COUNTERS, 0x20100000, REFSI_NUM_PERF_COUNTERS * 8}};
  for (size_t i = 0; i < 4; ++i) {
    struct refsi_memory_map_entry e;
    CHECK(refsiQueryDeviceMemoryMap(dev, i, &e) == refsi_success);
    CHECK(e.kind == want[i].kind && e.start_addr == want[i].base && e.size == want[i].size);
    CHECK(e.kind != TCIM);
  }
  struct refsi_memory_map_entry none;
  CHECK(refsiQueryDeviceMemoryMap(dev, 4, &none) == refsi_failure);

  /* Window 0: 0x10000 onto a DRAM block for kernel code; window 1: a
   * PER_HART window at TCDM + 64 MiB onto the top 2 MiB of the TCDM, one
   * quarter per hart. A buffer of window writes alone, without FINISH. */
  const refsi_addr_t tcdm = want[0].base, hart_base = tcdm + 64 * MiB, hart_target = tcdm + 4 * MiB - 2 * MiB;
  const uint64_t per_hart = 2 * MiB / info.num_harts_per_core;
  const refsi_addr_t code = refsiAllocDeviceMemory(dev, KERNEL_AREA, 4096, DRAM);
  CHECK(code);
  struct cb b = {{0}, 0};
  window(&b, 0, CMP_WINDOW_MODE_SHARED, KERNEL_BASE, code, 0, KERNEL_AREA);
  window(&b, 1, CMP_WINDOW_MODE_PERT_HART, hart_base, hart_target, per_hart, per_hart);
  CHECK(run(dev, &b) == 0);

  /* The host writes the kernel at 0x10000 through window 0 and reads it back;
   * it lands in the DRAM block. */
  CHECK(refsiWriteDeviceMemory(dev, KERNEL_BASE, (const uint8_t *)kernel, sizeof kernel, EXT) == refsi_success);
  uint32_t back[sizeof kernel / 4];
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)back, KERNEL_BASE, sizeof back, EXT) == refsi_success);
  CHECK(memcmp(back, kernel, sizeof kernel) == 0);
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)back, code, sizeof back, EXT) == refsi_success);
  CHECK(memcmp(back, kernel, sizeof kernel) == 0);
  /* A per-hart window has no view for the host. */
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)back, hart_base, 8, EXT) == refsi_failure);

  /* Where the kernel returns (the HAL's exit stub: li a0, 0; li a7, 0; ecall). */
  const uint32_t exit_stub[] = {ADDI(A0, ZERO, 0), ADDI(17, ZERO, 0), 0x00000073};
  const refsi_addr_t ret = refsiAllocDeviceMemory(dev, sizeof exit_stub, 8, DRAM);
  const refsi_addr_t out = refsiAllocDeviceMemory(dev, INSTANCES * 8, 8, DRAM);
  CHECK(ret && out);
  CHECK(refsiWriteDeviceMemory(dev, ret, (const uint8_t *)exit_stub, sizeof exit_stub, EXT) == refsi_success);
  uint64_t result[INSTANCES];
  memset(result, 0xFF, sizeof result);
  CHECK(refsiWriteDeviceMemory(dev, out, (const uint8_t *)result, sizeof result, EXT) == refsi_success);

  /* The launch, without FINISH: entry 0x10000, stack at the top of the hart's
   * slot of the per-hart window, a1 = out, a2 = the per-hart window. */
  b.n = 0;
  put(&b, CMP_SYNC_CACHE, CMP_CACHE_SYNC_ACC_DCACHE | CMP_CACHE_SYNC_ACC_ICACHE, 0, NULL);
  write_reg(&b, CMP_REG_ENTRY_PT_FN, KERNEL_BASE);
  write_reg(&b, CMP_REG_STACK_TOP, hart_base + per_hart);
  write_reg(&b, CMP_REG_RETURN_ADDR, ret);
  const uint64_t launch[3] = {INSTANCES, out, hart_base};
  put(&b, CMP_RUN_INSTANCES, info.num_harts_per_core | 2u << 8, 3, launch);
  put(&b, CMP_SYNC_CACHE, CMP_CACHE_SYNC_ACC_DCACHE | CMP_CACHE_SYNC_ACC_ICACHE, 0, NULL);
  CHECK(run(dev, &b) == 0);

  /* Every instance ran on a hart of the one core; each hart's slot of the
   * TCDM holds its own id. */
  CHECK(refsiReadDeviceMemory(dev, (uint8_t *)result, out, sizeof result, EXT) == refsi_success);
  unsigned used = 0;
  for (unsigned i = 0; i < INSTANCES; ++i) {
    CHECK(result[i] % 2 == 1 && result[i] / 2 < info.num_harts_per_core);
    const uint64_t hart = result[i] / 2;
    uint64_t slot = ~0ull;
    CHECK(refsiReadDeviceMemory(dev, (uint8_t *)&slot, hart_target + hart * per_hart, 8, EXT) == refsi_success);
    CHECK(slot == hart);
    used |= 1u << hart;
  }
  CHECK(used != 0);

  refsiShutdownDevice(dev);
  CHECK(refsiTerminate() == refsi_success);
  printf("refsidrv_m1: M1 memory map, windows, host writes through window 0 and kernels OK (harts used 0x%x)\n", used);
  return 0;
}
