// WFI with wake-up: hart 1 sleeps in WFI until hart 0 raises its machine
// software interrupt through the hartinfo extension device (xcmd4).
#include <stdint.h>

#include "avp/device.h"
#include "xintf.h"

static volatile int ready;

int main(int hart) {
  const uint64_t lun = avp_xext(AVP_XINTF_UUID_HARTINFO);
  uint64_t r;
  if (hart == 1) {
    __asm__ volatile("csrs mie, %0" ::"r"(1u << 3));  // MSIE; mstatus.MIE stays 0: WFI wakes, no trap is taken
    ready = 1;
    __asm__ volatile("wfi");
    uint64_t mip;
    __asm__ volatile("csrr %0, mip" : "=r"(mip));
    const uint64_t zero = 0;
    AVP_XCMD(5, r, lun, zero);
    avp_printf("hart 1 woken, msip was %lu\n", (unsigned long)((mip >> 3) & 1));
    return 0;
  }
  if (hart == 0) {
    while (!ready) {
    }
    for (volatile int i = 0; i < 1000; ++i) {
    }
    const uint64_t target = 1;
    AVP_XCMD(4, r, lun, target);
  }
  return 0;
}
