// Freestanding C++ on the device: classes, templates, constexpr and static
// constructors work; exceptions, RTTI and the C++ library do not.
#include <stdio.h>

#include "avp/device.h"

template <typename T, int N>
struct Ring {
  T items[N] = {};
  int head = 0;
  void push(T v) { items[head++ % N] = v; }
  T sum() const {
    T s = 0;
    for (const T& v : items) s += v;
    return s;
  }
};

struct Greeter {
  int calls = 0;
  Greeter() { calls = 1; }  // runs from .init_array before main
};
static Greeter greeter;

constexpr int square(int x) { return x * x; }

int main(int hart) {
  Ring<long, 4> ring;
  for (int i = 1; i <= 6; i++) ring.push(square(i));
  printf("c++ hart %d: ring %ld ctor %d\n", hart, ring.sum(), greeter.calls);
  return 0;
}
