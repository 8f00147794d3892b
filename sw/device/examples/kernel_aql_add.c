// AQL kernel: one work-group per hart. Initial state (kernel descriptor
// properties): a0 = kernarg segment pointer, a1 = work-group id x.
#include <stdint.h>

#include "avp/device.h"

struct aql_add_args {
  const int32_t* a;
  const int32_t* b;
  int32_t* out;
  uint32_t n;
  uint32_t workgroup_size;
};

AVP_KERNEL void kernel_main(const struct aql_add_args* args, uint64_t group) {
  const uint64_t first = group * args->workgroup_size;
  for (uint64_t i = first; i < first + args->workgroup_size && i < args->n; ++i) args->out[i] = args->a[i] + args->b[i];
}
