// Loops that store and load arrays of 4096 doubles and floats (fsd, fsw, fld,
// flw: translated code's own fast paths, InlineFp) and store 8192 integers,
// each loop one block that branches to its own start with its pointer
// incremented after the access; run translated and interpreted by
// translate_equivalence.py, which compares the results.
#include <stdint.h>

#include "avp/device.h"

#define N 4096

double d[N];
float f[N];
uint64_t u[2 * N];

__attribute__((noinline)) void store_doubles(double v) {
  for (unsigned long i = 0; i < N; ++i) d[i] = v;
}
__attribute__((noinline)) void store_floats(float v) {
  for (unsigned long i = 0; i < N; ++i) f[i] = v;
}
__attribute__((noinline)) void store_integers(uint64_t v) {
  for (unsigned long i = 0; i < 2 * N; ++i) u[i] = v;
}
__attribute__((noinline)) double sum_doubles(void) {
  double s = 0;
  for (unsigned long i = 0; i < N; ++i) s += d[i];
  return s;
}
__attribute__((noinline)) float sum_floats(void) {
  float s = 0;
  for (unsigned long i = 0; i < N; ++i) s += f[i];
  return s;
}
__attribute__((noinline)) uint64_t sum_integers(void) {
  uint64_t s = 0;
  for (unsigned long i = 0; i < 2 * N; ++i) s += u[i];
  return s;
}

int main(int hart) {
  if (hart) return 0;
  store_doubles(1.0);
  store_floats(2.0f);
  store_integers(3);
  const long sd = (long)sum_doubles(), sf = (long)sum_floats(), su = (long)sum_integers();
  avp_printf("fp_loops: doubles %ld floats %ld integers %ld\n", sd, sf, su);
  return sd == N && sf == 2 * N && su == 3 * 2 * N ? 0 : 1;
}
