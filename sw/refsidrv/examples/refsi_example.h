/* Shared by the RefSi-API examples: load a device SDK kernel into DRAM and
 * run it as RUN_INSTANCES through a command buffer, using only
 * refsidrv/refsidrv.h. */
#ifndef REFSI_EXAMPLE_H
#define REFSI_EXAMPLE_H

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

/* Loads the kernel and runs `instances` instances of it with `nargs` (<= 7)
 * arguments; 0 on success, 1 when the command buffer failed, 2 otherwise. */
static int run_kernel(refsi_device_t dev, const char *elf, uint64_t instances, const uint64_t *args, uint32_t nargs,
                      const char *who) {
  const refsi_addr_t kernel = refsiAllocDeviceMemory(dev, KERNEL_AREA, 4096, DRAM);
  const refsi_addr_t cb_at = refsiAllocDeviceMemory(dev, sizeof cb, 8, DRAM);
  uint64_t entry, size;
  if (!kernel || !cb_at || load_kernel(dev, elf, kernel, &entry, &size)) {
    fprintf(stderr, "%s: cannot load %s\n", who, elf);
    return 2;
  }
  ncb = 0;
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
  uint64_t run[8] = {instances};
  memcpy(run + 1, args, nargs * sizeof *args);
  packet(CMP_RUN_INSTANCES, nargs << 8, nargs + 1, run); /* max harts 0 (all), nargs arguments */
  packet(CMP_SYNC_CACHE, CMP_CACHE_SYNC_ACC_DCACHE, 0, NULL);
  packet(CMP_FINISH, 0, 0, NULL);
  if (refsiWriteDeviceMemory(dev, cb_at, (const uint8_t *)cb, ncb * 8, kExternal) != refsi_success ||
      refsiExecuteCommandBuffer(dev, cb_at, ncb * 8) != refsi_success) {
    fprintf(stderr, "%s: cannot execute the command buffer\n", who);
    return 2;
  }
  refsiWaitForDeviceIdle(dev);
  accelvp_refsi_error_t err;
  if (accelvpRefsiLastError(dev, &err) == refsi_success && err.code) {
    fprintf(stderr, "%s: command buffer failed: code %u at offset %u\n", who, err.code, err.offset);
    return 1;
  }
  return 0;
}

#endif
