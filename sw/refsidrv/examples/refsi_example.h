/* Shared by the RefSi-API examples: load a device SDK kernel into DRAM and
 * run it as RUN_INSTANCES through a command buffer, using only
 * refsidrv/refsidrv.h (and libelf to read the kernel). */
#ifndef REFSI_EXAMPLE_H
#define REFSI_EXAMPLE_H

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "refsidrv/refsidrv.h"

#define KERNEL_AREA (1u << 20) /* the DRAM block a kernel image is copied to */

static const uint32_t kExternal = REFSI_UNIT_ID(REFSI_UNIT_KIND_EXTERNAL, 0);

/* A kernel image in device DRAM: linked at window addresses from link_base
 * (its first page), `size` bytes from there. */
struct kernel_image {
  uint64_t link_base, size, entry;
};

/* Copies the ELF's loadable segments (read with libelf) to `dram` + (vaddr -
 * first page); the image must fit KERNEL_AREA. */
static int load_kernel(refsi_device_t dev, const char *path, refsi_addr_t dram, struct kernel_image *k) {
  if (elf_version(EV_CURRENT) == EV_NONE) return -1;
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
  size_t nph = 0, file_size = 0;
  const char *file = e ? elf_rawfile(e, &file_size) : NULL;
  GElf_Ehdr eh;
  int ok = file && gelf_getclass(e) == ELFCLASS64 && gelf_getehdr(e, &eh) && elf_getphdrnum(e, &nph) == 0;
  uint64_t lowest = UINT64_MAX, highest = 0;
  for (size_t i = 0; ok && i < nph; ++i) {
    GElf_Phdr ph;
    ok = gelf_getphdr(e, (int)i, &ph) != NULL;
    if (!ok || ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    ok = ph.p_filesz <= ph.p_memsz && ph.p_vaddr + ph.p_memsz > ph.p_vaddr && ph.p_offset <= file_size &&
         ph.p_filesz <= file_size - ph.p_offset;
    if (ph.p_vaddr < lowest) lowest = ph.p_vaddr;
    if (ph.p_vaddr + ph.p_memsz > highest) highest = ph.p_vaddr + ph.p_memsz;
  }
  k->link_base = lowest & ~0xFFFull;
  ok = ok && highest > 0 && highest - k->link_base <= KERNEL_AREA;
  k->size = ok ? highest - k->link_base : 0;
  k->entry = ok ? eh.e_entry : 0;
  for (size_t i = 0; ok && i < nph; ++i) {
    GElf_Phdr ph;
    ok = gelf_getphdr(e, (int)i, &ph) != NULL;
    if (!ok || ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    uint8_t *seg = calloc(1, ph.p_memsz); /* the file's bytes, then zeros */
    ok = seg != NULL;
    if (ok && ph.p_filesz) memcpy(seg, file + ph.p_offset, ph.p_filesz);
    ok = ok && refsiWriteDeviceMemory(dev, dram + ph.p_vaddr - k->link_base, seg, ph.p_memsz, kExternal) == refsi_success;
    free(seg);
  }
  if (e) elf_end(e);
  if (fd >= 0) close(fd);
  return ok ? 0 : -1;
}

/* The start of the device's TCIM, where the harts return to; 0 when the
 * device's memory map lists none. */
static uint64_t tcim_base(refsi_device_t dev) {
  struct refsi_memory_map_entry e;
  for (size_t i = 0; refsiQueryDeviceMemoryMap(dev, i, &e) == refsi_success; ++i)
    if (e.kind == TCIM) return e.start_addr;
  return 0;
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
  const uint64_t return_addr = tcim_base(dev);
  struct kernel_image k;
  if (!kernel || !cb_at || !return_addr || load_kernel(dev, elf, kernel, &k)) {
    fprintf(stderr, "%s: cannot load %s\n", who, elf);
    return 2;
  }
  ncb = 0;
  /* Window 0 onto the kernel (size - 1 in bits 63:32 of MODE, rwx in 6:4). */
  write_reg(CMP_REG_WINDOW_BASE0, k.link_base);
  write_reg(CMP_REG_WINDOW_TARGET0, kernel);
  write_reg(CMP_REG_WINDOW_SCALE0, 0);
  write_reg(CMP_REG_WINDOW_MODE0, CMP_WINDOW_ACTIVE | CMP_WINDOW_MODE_SHARED << 1 | 0x70ull |
                                      (((k.size + 0xFFF) & ~0xFFFull) - 1) << 32);
  packet(CMP_SYNC_CACHE, CMP_CACHE_SYNC_ACC_ICACHE, 0, NULL);
  write_reg(CMP_REG_ENTRY_PT_FN, k.entry);
  write_reg(CMP_REG_RETURN_ADDR, return_addr);
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
