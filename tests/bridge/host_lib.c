/* libaccelvp-host against the platform: configuration space, BAR sizing and
 * MMIO of every width, host memory, interrupts with a timeout, bad arguments. */
#include <stdint.h>

#include "accelvp_host.h"
#include "bar0_regs.h"
#include "check.h"

int main(void) {
  avp_host *h = avp_host_connect(NULL);
  CHECK(h);
  uint32_t v = 0;
  CHECK(avp_cfg_read(h, 0, 4, &v) == 0 && v == (AVP_PCI_VENDOR_ID | AVP_PCI_DEVICE_ID << 16));
  CHECK(avp_cfg_read(h, 2, 2, &v) == 0 && v == AVP_PCI_DEVICE_ID);
  CHECK(avp_cfg_read(h, 0, 1, &v) == 0 && v == (AVP_PCI_VENDOR_ID & 0xFF));
  CHECK(avp_cfg_read(h, 0x09, 1, &v) == 0 && v == (AVP_PCI_CLASS >> 0 & 0xFF));
  CHECK_ERRNO(avp_cfg_read(h, 1, 2, &v), EINVAL);
  CHECK_ERRNO(avp_cfg_read(h, 0, 3, &v), EINVAL);
  CHECK_ERRNO(avp_cfg_read(h, 4096, 4, &v), EINVAL);
  CHECK(avp_bar_map(h, 1) == NULL && errno == EINVAL);

  avp_bar *bar0 = avp_bar_map(h, 0), *bar2 = avp_bar_map(h, 2);
  CHECK(bar0 && bar2);
  CHECK(avp_bar_size(bar0) == AVP_BAR0_SIZE);
  CHECK(avp_cfg_read(h, 4, 2, &v) == 0 && (v & 6) == 6);  /* memory space and bus master on */
  CHECK(avp_mmio_read32(bar0, AVP_INFO_MAGIC) == AVP_INFO_MAGIC_VALUE);
  /* BAR0 registers are 32-bit: other widths read all-ones (acceldev.md decision 1). */
  CHECK(avp_mmio_read16(bar0, AVP_INFO_MAGIC) == 0xFFFF);
  CHECK(avp_mmio_read8(bar0, AVP_INFO_MAGIC) == 0xFF);

  /* BAR2 is device memory: every width reads back what was written. */
  const uint64_t at = 0x1000;
  CHECK(avp_mmio_write64(bar2, at, 0x1122334455667788ull) == 0);
  CHECK(avp_mmio_read64(bar2, at) == 0x1122334455667788ull);
  CHECK(avp_mmio_read32(bar2, at + 4) == 0x11223344u);
  CHECK(avp_mmio_write16(bar2, at + 2, 0xBEEF) == 0 && avp_mmio_read16(bar2, at + 2) == 0xBEEF);
  CHECK(avp_mmio_write8(bar2, at + 7, 0x5A) == 0 && avp_mmio_read8(bar2, at + 7) == 0x5A);
  CHECK(avp_mmio_write32(bar2, at, 0xCAFEF00Du) == 0 && avp_mmio_read64(bar2, at) == 0x5A223344CAFEF00Dull);
  static uint8_t block[200000], back[200000];
  for (unsigned i = 0; i < sizeof block; ++i) block[i] = (uint8_t)(i * 13 + 1);
  CHECK(avp_bar_write(bar2, 0x10000, block, sizeof block) == 0);
  CHECK(avp_bar_read(bar2, 0x10000, back, sizeof back) == 0 && memcmp(block, back, sizeof block) == 0);
  errno = 0;
  CHECK(avp_mmio_read32(bar2, avp_bar_size(bar2)) == 0xFFFFFFFFu && errno == EIO);  /* past the BAR */

  /* Host memory: zero-filled, shared with the device's view. */
  uint64_t bus = 0;
  uint8_t *mem = avp_host_alloc(h, 8192, 4096, &bus);
  CHECK(mem && bus && (bus & 4095) == 0 && avp_host_ptr(h, bus, 8192) == mem);
  for (int i = 0; i < 8192; ++i) CHECK(mem[i] == 0);
  CHECK(avp_host_alloc(h, 0, 0, &bus) == NULL && errno == EINVAL);
  CHECK(avp_host_alloc(h, 4096, 3, &bus) == NULL && errno == EINVAL);
  CHECK(avp_host_alloc(h, (size_t)1 << 40, 0, &bus) == NULL && errno == EINVAL);
  CHECK(avp_host_ptr(h, ~0ull - 10, 100) == NULL && errno == EFAULT);

  /* Interrupts: none pending times out in simulated time; a device FENCE
   * whose value matches FENCE_WAIT raises one. */
  const uint64_t t0 = avp_sim_time_ps(h);
  CHECK_ERRNO(avp_irq_wait(h, 2000), ETIMEDOUT);
  CHECK(avp_sim_time_ps(h) >= t0 + 2000 * 1000);
  CHECK(avp_mmio_write32(bar0, ACCELDEV_INTR, 0xFFFFFFFFu) == 0);
  CHECK(avp_mmio_write32(bar0, ACCELDEV_INTR_ENABLE, ACCELDEV_INTR_FENCE_WAIT) == 0);
  CHECK(avp_mmio_write32(bar0, ACCELDEV_ENABLE, 1) == 0);
  CHECK(avp_mmio_write32(bar0, ACCELDEV_CMD_FENCE_WAIT, 7) == 0);
  const uint32_t fence[5] = {ACCELDEV_DEVICE_CMD_TYPE_FENCE, 7, 0, 0, 0};
  for (int i = 0; i < 5; ++i) CHECK(avp_mmio_write32(bar0, ACCELDEV_CMD_MANUAL_FEED(i), fence[i]) == 0);
  CHECK(avp_irq_wait(h, AVP_WAIT_FOREVER) >= 1);
  CHECK((avp_mmio_read32(bar0, ACCELDEV_INTR) & ACCELDEV_INTR_FENCE_WAIT) && avp_mmio_read32(bar0, ACCELDEV_CMD_FENCE_LAST) == 7);
  CHECK(avp_mmio_write32(bar0, ACCELDEV_INTR, ACCELDEV_INTR_FENCE_WAIT) == 0);
  CHECK(avp_mmio_write32(bar0, ACCELDEV_INTR_ENABLE, 0) == 0);
  /* Nothing more can come: a wait without a limit fails instead of hanging. */
  CHECK_ERRNO(avp_irq_wait(h, AVP_WAIT_FOREVER), EDEADLK);
  /* A long timed wait with nothing else to do crosses the idle time at once
   * (the run steps over it, not a quantum at a time): 1000 s simulated. */
  const uint64_t t1 = avp_sim_time_ps(h);
  CHECK_ERRNO(avp_irq_wait(h, 1000000000000ull), ETIMEDOUT);
  CHECK(avp_sim_time_ps(h) >= t1 + 1000000000000000ull);

  avp_bar_unmap(bar0);
  avp_bar_unmap(bar2);
  avp_host_disconnect(h);
  printf("host_lib: OK\n");
  return 0;
}
