// The host's core-to-core round trip, the reference bench-parallel-harts
// prints beside the parallel schedule's figures (parallel_harts.py): two
// threads hand a counter on a host line of its own back and forth, as the
// schedule's threads hand over its batch at every quantum. Prints the mean
// round trip of the best of five batches, in nanoseconds.
//   host_round_trip [round trips per batch]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "base/cpu_relax.h"
#include "base/host_lines.h"

namespace {

alignas(avp::kHostLine) std::atomic<uint64_t> baton{0};

// The thread whose turns are the values of `parity` passes the baton on, `trips` times.
void pass(uint64_t parity, uint64_t trips) {
  for (uint64_t v = parity; v < 2 * trips; v += 2) {
    while (baton.load(std::memory_order_acquire) != v) avp::cpu_relax();
    baton.store(v + 1, std::memory_order_release);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t trips = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
  if (trips == 0) {
    std::fprintf(stderr, "host_round_trip: the round trips per batch must be a positive number\n");
    return 2;
  }
  double best = 0;
  for (int batch = 0; batch < 5; ++batch) {
    baton.store(0);
    const auto start = std::chrono::steady_clock::now();
    std::thread other(pass, 1, trips);
    pass(0, trips);
    other.join();
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / trips;
    best = batch == 0 ? ns : std::min(best, ns);
  }
  std::printf("%.0f\n", best);
  return 0;
}
