// A bare-metal program for the GDB test: a function to break in, a local to
// print, globals to watch (written, then read back).
#include "avp/device.h"

volatile long result;
volatile long readback;

__attribute__((noinline)) long compute(long n) {
  long sum = 0;
  for (long i = 1; i <= n; ++i) sum += i * i;
  return sum;
}

__attribute__((noinline)) void publish(long v) {
  result = v;
  readback = result;
}

int main(int hart) {
  if (hart != 0) return 0;
  long value = compute(10);
  publish(value);
  avp_printf("result %ld readback %ld\n", value, readback);
  return 0;
}
