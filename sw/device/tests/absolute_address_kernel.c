// A kernel whose image holds an absolute address (a pointer in .data): it is
// not position independent, so make_code_object.py must refuse it (test
// device_sdk.code_object.absolute_address).
#include <stdint.h>

#include "avp/hsa_kernel.h"

static int32_t counter;
int32_t* volatile counter_ptr = &counter;

struct bump_args {
  int32_t* out;
};

AVP_HSA_KERNEL(bump, struct bump_args, 1, 0, 0, AVP_HSA_ARG(struct bump_args, out, "GlobalBuffer", "I32")) {
  *args->out = ++*counter_ptr;
}
