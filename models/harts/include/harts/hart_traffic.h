// A hart's Timing transactions (base/cache_traffic.h): what bus_traffic
// issues, and what a slice of the parallel schedule defers, to be replayed
// in hart order after the batch (Hart::replay_traffic).
#pragma once
#include <cstdint>

namespace avp {

struct HartTraffic {
  uint64_t pa;
  unsigned len;
  bool write, fetch, waits;  // waits: the hart waits for its latency (a fill; not a write-back)
};

struct DeferredTraffic : HartTraffic {
  uint64_t offset_ps;  // the hart's local time when it was issued
};

}  // namespace avp
