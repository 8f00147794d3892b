/* vecadd written against the RefSi driver API only (refsidrv/refsidrv.h),
 * with the device SDK's kernel: load the kernel ELF into device DRAM, copy
 * the inputs, build and run a command buffer, check the results.
 *   cc refsi_vecadd.c $(pkg-config --cflags --libs refsidrv)
 *   accel-vp exec --no-preload -- ./a.out KERNEL_ELF [N] */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refsidrv/refsidrv.h"

#define KERNEL_LINK_BASE 0x10000u /* the SDK links kernels into window 0 from here */
#define KERNEL_AREA (1u << 20)

static const uint32_t kExternal = REFSI_UNIT_ID(REFSI_UNIT_KIND_EXTERNAL, 0);

/* Copies the ELF's loadable segments to `dram` + (vaddr - link base). */
static int load_kernel(refsi_device_t dev, const char *path, refsi_addr_t dram, uint64_t *entry, uint64_t *size) {
  FILE *f = fopen(path, "rb");
  Elf64_Ehdr eh;
  int ok = f && fread(&eh, sizeof eh, 1, f) == 1 && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
           eh.e_ident[EI_CLASS] == ELFCLASS64;
  *entry = ok ? eh.e_entry : 0;
  *size = 0;
  for (unsigned i = 0; ok && i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    ok = fseek(f, (long)(eh.e_phoff + i * sizeof ph), SEEK_SET) == 0 && fread(&ph, sizeof ph, 1, f) == 1;
    if (!ok || ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    ok = ph.p_vaddr >= KERNEL_LINK_BASE && ph.p_vaddr - KERNEL_LINK_BASE + ph.p_memsz <= KERNEL_AREA && ph.p_filesz <= ph.p_memsz;
    uint8_t *seg = ok ? calloc(1, ph.p_memsz) : NULL;
    ok = seg && fseek(f, (long)ph.p_offset, SEEK_SET) == 0 && (ph.p_filesz == 0 || fread(seg, ph.p_filesz, 1, f) == 1) &&
         refsiWriteDeviceMemory(dev, dram + ph.p_vaddr - KERNEL_LINK_BASE, seg, ph.p_memsz, kExternal) == refsi_success;
    free(seg);
    if (ok && ph.p_vaddr - KERNEL_LINK_BASE + ph.p_memsz > *size) *size = ph.p_vaddr - KERNEL_LINK_BASE + ph.p_memsz;
  }
  if (f) fclose(f);
  return ok ? 0 : -1;
}

static uint64_t cb[64];
static uint32_t ncb;

static void packet(enum refsi_cmp_command_id op, uint32_t inl, uint32_t n, const uint64_t *payload) {
  cb[ncb++] = refsiEncodeCMPCommand(op, n, inl);
  for (uint32_t i = 0; i < n; ++i) cb[ncb++] = payload[i];
}

static void write_reg(uint32_t reg, uint64_t v) { packet(CMP_WRITE_REG64, reg, 1, &v); }

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s KERNEL_ELF [N]\n", argv[0]);
    return 2;
  }
  const uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1024;
  refsi_device_t dev = refsiInitialize() == refsi_success ? refsiOpenDevice(REFSI_M) : NULL;
  refsi_device_info_t info;
  if (!dev || refsiQueryDeviceInfo(dev, &info) != refsi_success) {
    fprintf(stderr, "refsi_vecadd: no RefSi M device\n");
    return 2;
  }
  const refsi_addr_t kernel = refsiAllocDeviceMemory(dev, KERNEL_AREA, 4096, DRAM);
  uint64_t entry, size;
  if (!kernel || load_kernel(dev, argv[1], kernel, &entry, &size)) {
    fprintf(stderr, "refsi_vecadd: cannot load %s\n", argv[1]);
    return 2;
  }
  int32_t *a = malloc(4 * n), *b = malloc(4 * n), *out = malloc(4 * n);
  for (uint32_t i = 0; i < n; ++i) a[i] = (int32_t)(7 * i - 5), b[i] = (int32_t)(2 * i + 11), out[i] = 0;
  const refsi_addr_t a_at = refsiAllocDeviceMemory(dev, 4 * n, 64, DRAM), b_at = refsiAllocDeviceMemory(dev, 4 * n, 64, DRAM),
                     out_at = refsiAllocDeviceMemory(dev, 4 * n, 64, DRAM), cb_at = refsiAllocDeviceMemory(dev, sizeof cb, 8, DRAM);
  if (!a_at || !b_at || !out_at || !cb_at ||
      refsiWriteDeviceMemory(dev, a_at, (const uint8_t *)a, 4 * n, kExternal) != refsi_success ||
      refsiWriteDeviceMemory(dev, b_at, (const uint8_t *)b, 4 * n, kExternal) != refsi_success) {
    fprintf(stderr, "refsi_vecadd: cannot place the inputs\n");
    return 2;
  }
  /* Window 0 onto the kernel (size - 1 in bits 63:32 of MODE, rwx in 6:4). */
  write_reg(CMP_REG_WINDOW_BASE0, KERNEL_LINK_BASE);
  write_reg(CMP_REG_WINDOW_TARGET0, kernel);
  write_reg(CMP_REG_WINDOW_SCALE0, 0);
  write_reg(CMP_REG_WINDOW_MODE0, CMP_WINDOW_ACTIVE | CMP_WINDOW_MODE_SHARED << 1 | 0x70ull |
                                      (((size + 0xFFF) & ~0xFFFull) - 1) << 32);
  packet(CMP_SYNC_CACHE, CMP_CACHE_SYNC_ACC_ICACHE, 0, NULL);
  write_reg(CMP_REG_ENTRY_PT_FN, entry);
  write_reg(CMP_REG_RETURN_ADDR, 0x1000);
  write_reg(CMP_REG_STACK_TOP, 0);
  const uint64_t run[4] = {n, a_at, b_at, out_at};
  packet(CMP_RUN_INSTANCES, 3u << 8, 4, run); /* max harts 0 (all), 3 arguments */
  packet(CMP_SYNC_CACHE, CMP_CACHE_SYNC_ACC_DCACHE, 0, NULL);
  packet(CMP_FINISH, 0, 0, NULL);
  if (refsiWriteDeviceMemory(dev, cb_at, (const uint8_t *)cb, ncb * 8, kExternal) != refsi_success ||
      refsiExecuteCommandBuffer(dev, cb_at, ncb * 8) != refsi_success) {
    fprintf(stderr, "refsi_vecadd: cannot execute the command buffer\n");
    return 2;
  }
  refsiWaitForDeviceIdle(dev);
  accelvp_refsi_error_t err;
  if (accelvpRefsiLastError(dev, &err) == refsi_success && err.code) {
    fprintf(stderr, "refsi_vecadd: command buffer failed: code %u at offset %u\n", err.code, err.offset);
    return 1;
  }
  if (refsiReadDeviceMemory(dev, (uint8_t *)out, out_at, 4 * n, kExternal) != refsi_success) return 2;
  uint32_t bad = 0;
  for (uint32_t i = 0; i < n; ++i) bad += out[i] != a[i] + b[i];
  printf("refsi_vecadd: %u elements on %u x %u harts: %s\n", n, info.num_cores, info.num_harts_per_core,
         bad ? "MISMATCH" : "results OK");
  free(a);
  free(b);
  free(out);
  refsiShutdownDevice(dev);
  refsiTerminate();
  return bad ? 1 : 0;
}
