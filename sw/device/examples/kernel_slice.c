// RUN_KERNEL_SLICE kernel for the RefSi launch sequence: packed arguments come
// from the KUB, the KTB is this hart's private copy of the thread-specific
// data, and per-hart state (replicated by one 2D DMA) sits 0x800 bytes above
// the KTB in the hart's TCDM slice.
#include <stdint.h>

#include "avp/device.h"

struct slice_args {
  int64_t* out;
  int64_t scale;
  uint64_t instances_per_slice;
};

struct slice_ktb {
  int64_t magic;
  int64_t calls;  // private: counts the instances this hart ran
};

AVP_KERNEL void kernel_main(uint64_t instance, uint64_t slice, const struct slice_args* args, struct slice_ktb* ktb) {
  const int64_t state = *(const int64_t*)((const char*)ktb + 0x800);
  ktb->calls += 1;
  args->out[slice * args->instances_per_slice + instance] = state + args->scale * (int64_t)instance + ktb->magic +
                                                            1000 * (int64_t)slice + 100000 * ktb->calls;
}
