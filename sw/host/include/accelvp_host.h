/* libaccelvp-host: the C host library of accel-vp. A host program in its own
 * process connects to the platform (`accel-vp serve` or `accel-vp exec`)
 * over the host bridge and drives the PCIe device as a driver would:
 * configuration space, MMIO of 8/16/32/64 bits on its BARs, host memory that
 * the device reaches by DMA, and interrupts. Every function is thread-safe;
 * a thread blocked in one call does not block the others.
 * Errors: functions returning int give 0 or -1 with errno set; functions
 * returning pointers give NULL with errno set. */
#ifndef ACCELVP_HOST_H
#define ACCELVP_HOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct avp_host avp_host;

/* Connects to the platform at `socket_path` (NULL: the path in the
 * ACCELVP_SOCKET environment variable, as `accel-vp exec` sets it) and maps
 * its host memory. */
avp_host *avp_host_connect(const char *socket_path);
/* Ends the session: the server frees its contexts. NULL is ignored. */
void avp_host_disconnect(avp_host *h);
/* Asks `accel-vp serve` to stop once every client has gone. */
int avp_host_shutdown_server(avp_host *h);

/* Configuration space (offset < 4096, size 1, 2 or 4, naturally aligned). */
int avp_cfg_read(avp_host *h, uint32_t offset, unsigned size, uint32_t *value);
int avp_cfg_write(avp_host *h, uint32_t offset, unsigned size, uint32_t value);

/* A BAR of the device, mapped for MMIO: enables memory decoding and bus
 * mastering in the command register and sizes the BAR. */
typedef struct avp_bar avp_bar;
avp_bar *avp_bar_map(avp_host *h, int bar);
void avp_bar_unmap(avp_bar *b);
uint64_t avp_bar_size(const avp_bar *b);
/* MMIO: reads answer all-ones (and set errno) when the access fails, as an
 * unsupported PCIe request does; writes are posted. */
uint8_t avp_mmio_read8(avp_bar *b, uint64_t offset);
uint16_t avp_mmio_read16(avp_bar *b, uint64_t offset);
uint32_t avp_mmio_read32(avp_bar *b, uint64_t offset);
uint64_t avp_mmio_read64(avp_bar *b, uint64_t offset);
int avp_mmio_write8(avp_bar *b, uint64_t offset, uint8_t value);
int avp_mmio_write16(avp_bar *b, uint64_t offset, uint16_t value);
int avp_mmio_write32(avp_bar *b, uint64_t offset, uint32_t value);
int avp_mmio_write64(avp_bar *b, uint64_t offset, uint64_t value);
/* Block copies through a memory BAR (BAR2: device memory). */
int avp_bar_read(avp_bar *b, uint64_t offset, void *dst, size_t len);
int avp_bar_write(avp_bar *b, uint64_t offset, const void *src, size_t len);

/* Host memory the device reaches by DMA: a zero-filled block of the host
 * memory, whole pages (the alignment is at least a page), mapped into this
 * program only; *bus_addr gets the address the device uses for it. It lives
 * until the server stops. */
void *avp_host_alloc(avp_host *h, size_t size, size_t align, uint64_t *bus_addr);
/* The CPU pointer of a host bus address: NULL (EFAULT) unless
 * [bus_addr, bus_addr + len) lies in one block this program allocated. */
void *avp_host_ptr(avp_host *h, uint64_t bus_addr, size_t len);

/* Waits for an interrupt for up to `timeout_ns` of simulated time
 * (AVP_WAIT_FOREVER: no limit). Returns the number of interrupts since the
 * previous wait (> 0), or -1 with errno ETIMEDOUT, or EDEADLK when the
 * simulation has nothing left to do. */
#define AVP_WAIT_FOREVER (~(uint64_t)0)
long avp_irq_wait(avp_host *h, uint64_t timeout_ns);

/* Simulated time of the platform, in picoseconds. */
uint64_t avp_sim_time_ps(avp_host *h);

#ifdef __cplusplus
}
#endif

#endif
