// Hart id for kernels: they have no start-up code (no TLS) and run in M-mode.
#include "avp/device.h"

unsigned avp_hart_id(void) {
  unsigned long id;
  __asm__ volatile("csrr %0, mhartid" : "=r"(id));
  return (unsigned)id;
}
