// A hart's caches on the bus: D-cache misses and flushes, the replay of a
// slice's deferred traffic, physical data accesses (their transactions:
// bus_timing.h).
#include "base/cache_traffic.h"
#include "harts/hart.h"
#include "hart_data_path.h"
#include "harts/hart_cluster.h"

namespace avp {

void Hart::replay_traffic(bool parked) {
  uint64_t stall = 0;
  for (const DeferredTraffic& d : slice_.deferred()) {
    CacheTrafficExtension traffic;
    traffic.kind = CacheTrafficExtension::Replay;
    traffic.write = d.write;
    // At its time in the slice, moved on by the stalls replayed before it
    // (the hart would have issued it that much later); SystemC time is
    // still the batch's.
    const uint64_t at = d.offset_ps + stall;
    sc_core::sc_time delay = from_ps(at);
    bus_timing_.send(traffic, d.pa, d.len, d.fetch, delay);
    if (!d.waits) continue;
    stall += to_ps(delay) - at;
    hot_.stall_ps[d.fetch ? StallFetch : StallMemory] += to_ps(delay) - at;
  }
  hot_.time.add_ps(slice_.replayed(stall, parked));
}

uint64_t Hart::dcache_miss(uint64_t pa) {
  const unsigned bits = dcache_.line_bits();
  const unsigned line = 1u << bits;
  // The dirty victim goes to a write buffer: its write-back occupies the bus
  // but the hart does not wait for it (the cache model charges its transfer).
  const uint64_t victim = dcache_.written_back();
  const HartTraffic t[] = {{victim << bits, line, true, false, false}, {pa >> bits << bits, line, false, false, true}};
  const unsigned sent = victim != ~0ull ? 2 : 1;  // the write-back, if any, and the fill
  if (!data_prefetcher_.enabled()) return bus_timing_.traffic(t + 2 - sent, sent);
  // With stream buffers: a buffered line costs what is left of its
  // prefetch; the fill (or write-back) goes to the bus before the prefetches
  // the miss starts, as the hart issues them in that order.
  const uint64_t now = to_ps(sc_core::sc_time_stamp()) + settled_time_ps();
  uint64_t ready = 0, fill = 0;
  if (data_prefetcher_.take(pa >> bits, ready)) {
    if (victim != ~0ull) bus_timing_.traffic(t, 1);
    fill = ready > now ? ready - now : 0;
  } else {
    fill = bus_timing_.traffic(t + 2 - sent, sent);
  }
  data_prefetcher_.follow(pa >> bits, [&](uint64_t next) -> uint64_t {
    if (dcache_.holds(next)) return ~0ull;
    const HartTraffic prefetch{next << bits, line, false, false, false};
    return now + bus_timing_.traffic(&prefetch, 1);
  });
  return fill;
}

uint64_t Hart::flush_dcache() {
  const unsigned bits = dcache_.line_bits();
  data_prefetcher_.clear();
  return dcache_.flush([this, bits](uint64_t line) { bus_timing_.traffic(line << bits, true, 1u << bits, false); });
}

void Hart::phys_access(bool write, uint64_t pa, void* buf, unsigned len, uint64_t fault_cause, uint64_t tval,
                       bool uncached) {
  // An uncached access to memory is a transfer of its own bytes, as without a D-cache.
  const auto memory_time = [&] {
    return uncached && !functional_ ? bus_timing_.traffic(pa, write, len, false) : data_time(pa, write, len);
  };
  if (DmiRegion* r = find_dmi(pa, write); r && r->size - (pa - r->base) >= len) {
    if (write) std::memcpy(r->ptr + (pa - r->base), buf, len);
    else std::memcpy(buf, r->ptr + (pa - r->base), len);
    add_memory_time(memory_time());
  } else {
    if (write && read_only(pa, len)) throw TrapException{fault_cause, tval};
    if (bus_timing_.cacheable(pa, len, false)) {
      // The data moves functionally; the cache model times the access as it would a DMI one.
      CacheTrafficExtension functional;
      functional.kind = CacheTrafficExtension::Functional;
      gp_.set_extension(&functional);
      try {
        transport(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, pa, buf, len, fault_cause, tval);
      } catch (...) {
        gp_.clear_extension(&functional);
        throw;
      }
      gp_.clear_extension(&functional);
      add_memory_time(memory_time());
    } else {
      transport(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, pa, buf, len, fault_cause, tval);
    }
  }
  if (write) after_store(pa, len);
}

}  // namespace avp
