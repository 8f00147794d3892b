// HSA kernels of the AQL examples and tests, built into the code object
// aql_kernels.co (avp_add_code_object). One work-group runs on one hart:
// a0 = kernarg segment pointer, a1 = work-group id x.
#include <stdint.h>

#include "avp/hsa_kernel.h"

struct vecadd_args {
  const int32_t* a;
  const int32_t* b;
  int32_t* out;
  uint32_t n;
  uint32_t workgroup_size;
};

// out[i] = a[i] + b[i]
AVP_HSA_KERNEL(vecadd, struct vecadd_args, 1, 0, 0,
               AVP_HSA_ARG(struct vecadd_args, a, "GlobalBuffer", "I32"),
               AVP_HSA_ARG(struct vecadd_args, b, "GlobalBuffer", "I32"),
               AVP_HSA_ARG(struct vecadd_args, out, "GlobalBuffer", "I32"),
               AVP_HSA_ARG(struct vecadd_args, n, "ByValue", "U32"),
               AVP_HSA_ARG(struct vecadd_args, workgroup_size, "ByValue", "U32")) {
  const uint64_t first = wg_x * args->workgroup_size;
  for (uint64_t i = first; i < first + args->workgroup_size && i < args->n; ++i) args->out[i] = args->a[i] + args->b[i];
}

struct affine_args {
  const int32_t* in;
  int32_t* out;
  int32_t mul;
  int32_t add;
  uint32_t n;
  uint32_t workgroup_size;
};

// out[i] = in[i] * mul + add: one stage of the dependent chains of aql-chain.
AVP_HSA_KERNEL(affine, struct affine_args, 1, 0, 0,
               AVP_HSA_ARG(struct affine_args, in, "GlobalBuffer", "I32"),
               AVP_HSA_ARG(struct affine_args, out, "GlobalBuffer", "I32"),
               AVP_HSA_ARG(struct affine_args, mul, "ByValue", "I32"),
               AVP_HSA_ARG(struct affine_args, add, "ByValue", "I32"),
               AVP_HSA_ARG(struct affine_args, n, "ByValue", "U32"),
               AVP_HSA_ARG(struct affine_args, workgroup_size, "ByValue", "U32")) {
  const uint64_t first = wg_x * args->workgroup_size;
  for (uint64_t i = first; i < first + args->workgroup_size && i < args->n; ++i) args->out[i] = args->in[i] * args->mul + args->add;
}
