// A hart's memory timing (base/cache_traffic.h): the caches decide when the
// bus is used, the bus and the memories how long it takes. Whether the data
// moved by DMI or by a functional transaction does not enter: line fills,
// write-backs and uncached accesses are Timing transactions in both cases, so
// simulated times and the bus and memory statistics do not depend on DMI.
#include "base/cache_traffic.h"
#include "base/fetch.h"
#include "base/payload.h"
#include "harts/hart.h"
#include "hart_data_path.h"
#include "harts/hart_cluster.h"

namespace avp {

void Hart::send_traffic(CacheTrafficExtension& traffic, uint64_t pa, unsigned len, bool fetch,
                        sc_core::sc_time& delay) {
  // No data moves: the pointer only satisfies initiators that expect one.
  static unsigned char scratch[256];
  FetchExtension fetch_ext;
  fetch_ext.fetch = true;
  prepare_payload(traffic_gp_, tlm::TLM_IGNORE_COMMAND, pa, scratch, len);
  traffic_gp_.set_extension(&traffic);
  if (fetch) traffic_gp_.set_extension(&fetch_ext);
  bus->b_transport(traffic_gp_, delay);
  traffic_gp_.clear_extension(&traffic);
  if (fetch) traffic_gp_.clear_extension(&fetch_ext);
}

// Before bus_traffic, which it is inlined into: the probe for a range not
// known yet is out of line (its extension needs a stack frame).
[[gnu::always_inline]] inline TimingPath* Hart::timing_path(uint64_t pa, unsigned len) {
  bool known = false;
  TimingPath* path = timing_routes_.find(pa, len, known);
  if (known) return path;
  return [&]() __attribute__((noinline)) {
    CacheTrafficExtension probe = probe_at(pa, len, false);
    timing_routes_.learn(pa, probe.path, probe.path_base, probe.path_size);
    return timing_routes_.find(pa, len, known);
  }();
}

uint64_t Hart::bus_traffic(uint64_t pa, bool write, unsigned len, bool fetch, bool waits) {
  const HartTraffic t{pa, len, write, fetch, waits};
  return bus_traffic(&t, 1);
}

uint64_t Hart::bus_traffic(const HartTraffic* t, unsigned n) {
  TimingPath* path[2];
  bool direct = true;
  for (unsigned i = 0; i < n; ++i) direct &= (path[i] = timing_path(t[i].pa, t[i].len)) != nullptr;
  // The transactions' time counts the instructions before them. A TLM
  // transaction's target may wait, and others then look: those are retired.
  if (!direct) settle();
  const uint64_t now = settled_time_ps();
  const sc_core::sc_time start = from_ps(now);  // each transaction's time; the caller adds its latency
  sc_core::sc_time delay;
  bool replay[2];
  {
    const auto lk = shared_lock();  // the bus's and the memory's statistics are shared
    for (unsigned i = 0; i < n; ++i) {
      CacheTrafficExtension traffic;
      traffic.kind = CacheTrafficExtension::Timing;
      traffic.write = t[i].write;
      // In a slice the order of the harts' transactions depends on the host
      // threads: what depends on it is replayed after the batch (replay_traffic).
      traffic.deferred = slice_.in_slice();
      delay = start;
      if (path[i]) path[i]->time(t[i].pa, t[i].len, traffic, delay);
      else send_traffic(traffic, t[i].pa, t[i].len, t[i].fetch, delay);
      replay[i] = traffic.replay;
    }
  }
  for (unsigned i = 0; i < n; ++i)
    if (replay[i]) slice_.defer(t[i], now);
  const uint64_t end = to_ps(delay);
  return end > now ? end - now : 0;
}

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
    send_traffic(traffic, d.pa, d.len, d.fetch, delay);
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
  if (!data_prefetcher_.enabled()) return bus_traffic(t + 2 - sent, sent);
  // With stream buffers: a buffered line costs what is left of its
  // prefetch; the fill (or write-back) goes to the bus before the prefetches
  // the miss starts, as the hart issues them in that order.
  const uint64_t now = to_ps(sc_core::sc_time_stamp()) + settled_time_ps();
  uint64_t ready = 0, fill = 0;
  if (data_prefetcher_.take(pa >> bits, ready)) {
    if (victim != ~0ull) bus_traffic(t, 1);
    fill = ready > now ? ready - now : 0;
  } else {
    fill = bus_traffic(t + 2 - sent, sent);
  }
  data_prefetcher_.follow(pa >> bits, [&](uint64_t next) -> uint64_t {
    if (dcache_.holds(next)) return ~0ull;
    const HartTraffic prefetch{next << bits, line, false, false, false};
    return now + bus_traffic(&prefetch, 1);
  });
  return fill;
}

uint64_t Hart::flush_dcache() {
  const unsigned bits = dcache_.line_bits();
  data_prefetcher_.clear();
  return dcache_.flush([this, bits](uint64_t line) { bus_traffic(line << bits, true, 1u << bits, false); });
}

bool Hart::cacheable(uint64_t pa, unsigned len, bool fetch) { return probe_at(pa, len, fetch).memory; }

CacheTrafficExtension Hart::probe_at(uint64_t pa, unsigned len, bool fetch) {
  unsigned char scratch[8];
  CacheTrafficExtension probe;
  probe.kind = CacheTrafficExtension::Probe;
  FetchExtension fetch_ext;
  fetch_ext.fetch = fetch;
  prepare_payload(traffic_gp_, tlm::TLM_READ_COMMAND, pa, scratch, len < sizeof scratch ? len : sizeof scratch);
  traffic_gp_.set_extension(&probe);
  traffic_gp_.set_extension(&fetch_ext);
  {
    const auto lk = shared_lock();
    bus->transport_dbg(traffic_gp_);
  }
  traffic_gp_.clear_extension(&probe);
  traffic_gp_.clear_extension(&fetch_ext);
  return probe;
}

void Hart::phys_access(bool write, uint64_t pa, void* buf, unsigned len, uint64_t fault_cause, uint64_t tval,
                       bool uncached) {
  // An uncached access to memory is a transfer of its own bytes, as without a D-cache.
  const auto memory_time = [&] {
    return uncached && !functional_ ? bus_traffic(pa, write, len, false) : data_time(pa, write, len);
  };
  if (DmiRegion* r = find_dmi(pa, write); r && r->size - (pa - r->base) >= len) {
    if (write) std::memcpy(r->ptr + (pa - r->base), buf, len);
    else std::memcpy(buf, r->ptr + (pa - r->base), len);
    add_memory_time(memory_time());
  } else {
    if (write && read_only(pa, len)) throw TrapException{fault_cause, tval};
    if (cacheable(pa, len, false)) {
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
