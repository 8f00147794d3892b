// Kernel example for kernel.ld: out[i] = a[i] + b[i] for the instance's
// element. Entered with a0 = instance id and a1..a3 = buffer addresses
// (RUN_INSTANCES extra arguments); returning ends the instance.
#include <stdint.h>

#include "avp/device.h"

AVP_KERNEL void kernel_main(uint64_t instance, const int32_t* a, const int32_t* b, int32_t* out) {
  out[instance] = a[instance] + b[instance];
  if (instance == 0) avp_printf("kernel_add: hart %u ran instance 0\n", avp_hart_id());
}
