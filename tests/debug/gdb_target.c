// A bare-metal program for the GDB test: a function to break in, a local to print.
#include "avp/device.h"

volatile long result;

__attribute__((noinline)) long compute(long n) {
  long sum = 0;
  for (long i = 1; i <= n; ++i) sum += i * i;
  return sum;
}

int main(int hart) {
  if (hart != 0) return 0;
  long value = compute(10);
  result = value;
  avp_printf("result %ld\n", value);
  return 0;
}
