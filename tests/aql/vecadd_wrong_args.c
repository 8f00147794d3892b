// A code object whose kernel "vecadd" has another argument layout than the
// aql-vecadd workload's: the workload must refuse it with a message.
#include <stdint.h>

#include "avp/hsa_kernel.h"

struct wrong_args {
  int32_t* out;
  uint32_t n;
};

AVP_HSA_KERNEL(vecadd, struct wrong_args, 1, 0, 0,
               AVP_HSA_ARG(struct wrong_args, out, "GlobalBuffer", "I32"),
               AVP_HSA_ARG(struct wrong_args, n, "ByValue", "U32")) {
  if (wg_x < args->n) args->out[wg_x] = 0;
}
