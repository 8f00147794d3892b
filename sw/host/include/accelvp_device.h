/* The RefSi-style device API of libaccelvp-host, in C: open the accelerator
 * over the host bridge, query it, allocate device DRAM, move data through
 * BAR2, execute command buffers (cmp_packets.h chunks) through BAR0 and wait
 * for them by interrupt, with the command processor's error details. One
 * thread drives a device at a time. */
#ifndef ACCELVP_DEVICE_H
#define ACCELVP_DEVICE_H

#include "accelvp_host.h"
#include "bar0_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct avp_device avp_device;

typedef struct avp_device_info {
  uint32_t cores, harts_per_core;
  uint64_t dram_base, dram_size, tcdm_base, tcdm_per_core, tcim_base, tcim_size;
  /* The device address map from the info block, indexed by enum avp_info_range
   * (bar0_regs.h); all zero for a device whose info block predates version 2. */
  struct avp_device_range {
    uint64_t base, size;
  } ranges[AVP_NUM_RANGES];
  /* The memory map a RefSi driver reports (AVP_INFO_REFSI_MAP entries, kind |
   * range << 8); count 0 when the device does not say. */
  uint32_t refsi_map_count;
  uint32_t refsi_map[AVP_INFO_REFSI_MAP_MAX];
} avp_device_info;

/* The command processor's report of a failed command buffer (bar0_regs.h). */
typedef struct avp_cmp_failure {
  uint32_t code;   /* cmp_packets.h enum avp_cmp_error; 0: none */
  uint32_t offset; /* byte offset of the failing packet */
  uint32_t info;   /* opcode | hart << 8 | hart valid << 31 */
  uint64_t pc;
  uint32_t cause;
} avp_cmp_failure;

/* Checks the ids, maps the BARs, enables the command-processor interrupts and
 * reads the information block. NULL with errno ENODEV for another device. */
avp_device *avp_device_open(avp_host *h);
void avp_device_close(avp_device *d);
const avp_device_info *avp_device_get_info(const avp_device *d);

/* Device DRAM from the server's allocator (first fit), one per device and
 * shared by every handle and program: blocks of whole pages (alignment at
 * least 4 KiB) that never overlap, each mapped in this program alone
 * (avp_device_ptr); a program frees only its own, and its blocks are freed
 * when it disconnects. Thread-safe. 0 with errno ENOMEM / EINVAL on failure. */
uint64_t avp_device_alloc(avp_device *d, uint64_t size, uint64_t align);
int avp_device_free(avp_device *d, uint64_t addr);
/* Through BAR2; EFAULT outside device DRAM. */
int avp_device_write(avp_device *d, uint64_t dev_addr, const void *src, size_t len);
int avp_device_read(avp_device *d, uint64_t dev_addr, void *dst, size_t len);
/* As the device unit `unit` (kind << 24 | index, base/unit.h) sees the address
 * on the device interconnect: a hart's or core's core-local TCDM and its own
 * DMA register set. ENODEV for a unit the device does not have, EFAULT where
 * that unit sees nothing. Register windows want one naturally aligned access
 * per call. */
int avp_device_write_as(avp_device *d, uint32_t unit, uint64_t dev_addr, const void *src, size_t len);
int avp_device_read_as(avp_device *d, uint32_t unit, uint64_t dev_addr, void *dst, size_t len);
/* Where [dev_addr, dev_addr + len) of one of the program's own DRAM blocks
 * (avp_device_alloc) is mapped in this process, valid until the block is
 * freed; NULL with errno EFAULT for any other range. Accesses through it are
 * untimed and bypass the PCIe link, like a model's DMI. */
void *avp_device_ptr(avp_device *d, uint64_t dev_addr, size_t len);

/* Places `count` chunks in device memory and queues them (asynchronous).
 * EAGAIN when the device's queue is full. */
int avp_device_execute(avp_device *d, const uint64_t *chunks, size_t count);
/* Queues a command buffer already in device DRAM (asynchronous); EFAULT
 * outside DRAM, EINVAL for a size that is 0 or not a multiple of 8, EAGAIN
 * when the queue is full. */
int avp_device_submit(avp_device *d, uint64_t cb_addr, size_t bytes);
/* Waits until every queued buffer has finished or failed. 0, or -1 with errno
 * EIO and *err (when not NULL) filled with the first failure since the
 * previous wait. */
int avp_device_wait_idle(avp_device *d, avp_cmp_failure *err);

/* Loads a device kernel ELF into a new 1 MiB block of device DRAM. The image
 * is linked at window addresses: link_base is its first page (map a window
 * from there onto dram), size its extent from link_base, return_addr the TCIM
 * base the harts return to (from the information block). -1 with errno
 * ENOEXEC for a file that is not an ELF64 image or does not fit the block. */
typedef struct avp_kernel {
  uint64_t dram, link_base, size, entry, return_addr;
} avp_kernel;
int avp_device_load_kernel(avp_device *d, const char *elf_path, avp_kernel *k);

#ifdef __cplusplus
}
#endif

#endif
