// Matrix multiply, one output row per instance (RUN_INSTANCES): C = A x B
// for n x n matrices of doubles.
#include <stdint.h>

#include "avp/device.h"

AVP_KERNEL void kernel_main(uint64_t row, const double* a, const double* b, double* c, uint64_t n) {
  for (uint64_t j = 0; j < n; ++j) {
    double sum = 0;
    for (uint64_t k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + j];
    c[row * n + j] = sum;
  }
}
