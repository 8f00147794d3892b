// A hart's loads and stores and their timing: the fast regions (the DMI
// region or checked page each of loads and stores used last and the one
// before, and the checked pages kept beyond them, in HartHotState), the
// translation and protection check of accesses outside them, the physical
// access (DMI, a functional transaction to cacheable memory, a device
// transaction), and the D-cache's timing of every access to memory with its
// stream buffers, whose misses send line fills and write-backs to the bus
// (bus_timing.h).
//
// Accesses are "checked" when the data privilege translates or the PMP
// applies to it: a fast region is then one virtual 4 KiB page whose
// translation and PMP check passed for the whole page, made by the checked
// path and dropped with the TLB entry it stands on (TlbUsers) or any change
// that could alter a translation or a check. Pages of memory without DMI are
// kept the same way, for the translation only, so the TLB's use, and with it
// timing and statistics, does not depend on DMI. Unchecked, the fast regions
// are DMI regions by physical address, except in the parallel quantum
// schedule, where every fast region is a run of lines the hart holds claims
// on (page_claims.h) and is kept like a checked page.
//
// The hit paths (load, store, data_time) are inline: one call per access is
// a measurable part of the interpreter's loop. Translated code does the same
// quick checks on the same fields (inline_accesses.cpp) and comes here on a
// miss. docs/harts.md, "Address translation and protection".
#pragma once
#include <cstdint>
#include <cstring>

#include <tlm>

#include "harts/bus_timing.h"
#include "harts/cache_model.h"
#include "harts/dmi_regions.h"
#include "harts/hart_hot_state.h"
#include "harts/mmu.h"
#include "harts/page_claims.h"
#include "harts/slice_state.h"
#include "harts/stream_prefetcher.h"

namespace avp {

// What the hart does for its data path.
class DataPathHost {
 public:
  // A transaction at the hart's local time (its instructions counted
  // first): to a device, or (functional) to memory the caches hold, whose
  // data moves functionally while the D-cache times the access. A refused
  // one throws TrapException{fault_cause, tval}.
  virtual void bus_access(tlm::tlm_command cmd, uint64_t pa, void* data, unsigned len, uint64_t fault_cause,
                          uint64_t tval, bool functional) = 0;
  // Before a store to memory, while `spin_waits` (the constructor's) holds:
  // harts spinning in wait loops may read what it writes.
  virtual void storing(uint64_t pa, unsigned len) = 0;
  // After every store, at its physical address (LR/SC reservations, decoded code).
  virtual void stored(uint64_t pa, unsigned len) = 0;
  // Narrows [from, to), which holds pa, to the granules around pa's that the
  // code map does not mark (HartCluster::code_free_span); from = to: pa's is marked.
  virtual void code_free_span(uint64_t pa, uint64_t& from, uint64_t& to) const = 0;

 protected:
  ~DataPathHost() = default;
};

class DataPath final : public TlbUsers {
 public:
  // time: the hart's settled time (the stream buffers' clock).
  // hart: the hart's index in `claims`.
  // spin_waits: whether stores go through host.storing first (HartCluster::spin_waits).
  DataPath(HartHotState& hot, Mmu& mmu, DmiRegions& dmi, BusTiming& bus, const SliceState& slice,
           TrafficTime& time, DataPathHost& host, PageClaims& claims, unsigned hart, const bool& spin_waits)
      : hot_(hot), mmu_(mmu), dmi_(dmi), bus_(bus), slice_(slice), time_(time), host_(host), claims_(claims),
        hart_(hart), spin_waits_(spin_waits) {}
  DataPath(const DataPath&) = delete;
  DataPath& operator=(const DataPath&) = delete;

  CacheModel& dcache() { return dcache_; }
  const CacheModel& dcache() const { return dcache_; }
  StreamPrefetcher& prefetcher() { return prefetcher_; }

  // A load or store at va: in place in the fast region, else the slow path.
  template <typename T>
  T load(uint64_t va);
  template <typename T>
  void store(uint64_t va, T v);
  // The same, where a slice must stop for the kernel (NeedsKernel) without
  // the throw: false, with nothing done. Translated code's helpers stop
  // their slice by their exit (an unwind costs microseconds, and libgcc
  // serialises the host threads' unwinds).
  template <typename T>
  bool load_unless_kernel(uint64_t va, T& v);
  template <typename T>
  bool store_unless_kernel(uint64_t va, T v);
  // Whether an access of len bytes at va lies in a fast region or a kept
  // page, a write's for the read and the write: in a slice it then runs
  // there (claimed lines, a translation held; HartHotState::region_again)
  // without the kernel. Nothing is changed or counted.
  bool in_regions(uint64_t va, unsigned len, bool write) const;
  // An access of len bytes at physical address pa outside the fast regions
  // (`uncached`: an NC or IO page, Svpbmt, whose accesses bypass the D-cache).
  void phys_access(bool write, uint64_t pa, void* buf, unsigned len, uint64_t fault_cause, uint64_t tval,
                   bool uncached = false);
  // A page-table walk's PTE access (Mmu's PageTableMemory): uncached, the bus and the memory time it.
  uint64_t pte_access(uint64_t pa, const uint64_t* write, uint64_t fault_cause, uint64_t tval);

  // The time of an access to memory at pa (a functional run times nothing):
  // the D-cache's quick hits, else its set search, whose misses go to the
  // bus; without a D-cache, the access itself.
  uint64_t data_time(uint64_t pa, bool write, unsigned len);
  // Writes back every dirty line and empties the stream buffers; the time the write-backs take.
  uint64_t flush_dcache();

  // After a change of privilege, mstatus, satp or the PMP: whether accesses
  // are checked, and what for; the regions go when that changed.
  void update_checked();
  bool checked() const { return checked_; }
  // Drops every fast region and kept page.
  void forget_regions();
  // Before a slice whose batch has other slices: the fast regions a slice
  // alone in its batch made (whole DMI regions, as the serial schedule's,
  // holding lines without claims) go, so that the slice keeps to its claims.
  void keep_to_claims() {
    if (unclaimed_regions_) forget_regions();
    unclaimed_regions_ = false;
  }
  // The TLB was emptied: the kept pages go (the regions in use, with update_checked).
  void tlb_flushed();
  void tlb_replacing(const rv::TlbEntry& e) override;  // the regions that rely on e
  void tlb_rewalking(const rv::TlbEntry& e) override;  // the kept pages that rely on e
  // Whether the hart holds claims (write claims: `write`) on the host bytes [at, at + n).
  bool holds_claims(const uint8_t* at, unsigned n, bool write) const {
    return claims_.held(hart_, at, write, at, at + n).to >= at + n;
  }
  // The hart's claims on the host bytes [from, from + bytes) were withdrawn (PageClaims::Withdraw).
  void withdraw(const uint8_t* from, uint64_t bytes, bool writes_only);
  // The code map marked the physical bytes [pa, pa + bytes): the store
  // regions over them are code-free no more (an unchecked one of the serial
  // schedule goes, to be made again around the mark; a region that stands
  // for a translation or claims stays, its stores looking in the map).
  void code_marked(uint64_t pa, uint64_t bytes);

 private:
  template <typename T>
  T load_slow(uint64_t va);
  template <typename T>
  void store_slow(uint64_t va, T v);
  // Their steps; false, with nothing done, where a slice stops for the kernel.
  template <typename T>
  bool try_load_slow(uint64_t va, T& v);
  template <typename T>
  bool try_store_slow(uint64_t va, T v);
  // An access the fast region in use holds (DmiRegion::holds).
  template <typename T>
  T load_in_region(uint64_t va);
  template <typename T>
  void store_in_region(uint64_t va, T v);
  // The translated and checked access; makes its page a fast region (or a
  // page without DMI) when the whole page may be accessed the same way.
  // False, with nothing done, in a slice when it needs the kernel.
  bool checked_access(bool write, uint64_t va, void* buf, unsigned len);
  // checked_access in a slice, for an access within a page whose
  // translation the TLB holds (no walk), to DMI memory whose lines the hart
  // holds claims on; false, with nothing done or counted, when the access
  // needs the kernel.
  bool held_access(bool write, uint64_t va, void* buf, unsigned len);
  // In the parallel schedule: makes the run of lines the hart holds claims
  // on around [va, va + len) (at pa, in DMI region r; page_claims.h) a fast
  // region, first taking the claims outside a slice. False: an access
  // across pages, which the slow path serves itself, or in a slice lacking
  // the claims (it stops for the kernel).
  bool claimed_region(bool write, uint64_t va, uint64_t pa, unsigned len, const DmiRegion& r);
  // Unchecked: the DMI region holding [pa, pa + len) becomes the fast region
  // in use (in the parallel schedule, the claimed lines around it,
  // claimed_region, unless in a slice alone in its batch); false: none
  // does, or an access across pages there, or in a slice none is known yet
  // or its claims are not held.
  bool unchecked_region(bool write, uint64_t pa, unsigned len);
  // `region` becomes the fast region in use and is kept (a store region
  // code-free when no granule of it is marked).
  void use_region(bool write, DmiRegion region);
  uint64_t dcache_miss(uint64_t pa);  // the fill's latency
  // An access that bypasses the D-cache: its own bytes' transfer on the bus (none in a functional run).
  uint64_t uncached_time(uint64_t pa, bool write, unsigned len) {
    return hot_.functional ? 0 : bus_.traffic(pa, write, len, false);
  }
  // The same with stream buffers, given the miss's write-back (if any) and fill (`sent` of t, from its end).
  [[gnu::noinline]] uint64_t dcache_miss_prefetching(uint64_t pa, const HartTraffic (&t)[2], unsigned sent);

  HartHotState& hot_;
  Mmu& mmu_;
  DmiRegions& dmi_;
  BusTiming& bus_;
  const SliceState& slice_;
  TrafficTime& time_;
  DataPathHost& host_;
  PageClaims& claims_;
  const unsigned hart_;
  const bool& spin_waits_;
  CacheModel dcache_{hot_.dcache};
  StreamPrefetcher prefetcher_;  // the D-cache's stream buffers (none unless configured)
  // The pages of memory without DMI that would be fast regions with it ([0] the most recent).
  DmiRegion pages_rd_[2], pages_wr_[2];
  bool checked_ = false;
  bool unclaimed_regions_ = false;  // keep_to_claims
  uint32_t key_ = 0;  // what the fast regions were made for (update_checked)
};

template <typename T>
[[gnu::always_inline]] inline T DataPath::load_in_region(uint64_t va) {
  T v;
  std::memcpy(&v, hot_.rd.ptr + (va - hot_.rd.base), sizeof(T));
  hot_.add_memory_time(data_time(va + hot_.rd.pa_delta, false, sizeof(T)));
  return v;
}

template <typename T>
[[gnu::always_inline]] inline void DataPath::store_in_region(uint64_t va, T v) {
  const uint64_t pa = va + hot_.wr.pa_delta;
  uint8_t* const at = hot_.wr.ptr + (va - hot_.wr.base);  // storing may mark the granule, dropping the region
  if (spin_waits_) host_.storing(pa, sizeof(T));
  std::memcpy(at, &v, sizeof(T));
  hot_.add_memory_time(data_time(pa, true, sizeof(T)));
  host_.stored(pa, sizeof(T));
}

template <typename T>
[[gnu::always_inline]] inline T DataPath::load(uint64_t va) {
  return hot_.rd.holds(va, sizeof(T)) ? load_in_region<T>(va) : load_slow<T>(va);
}

template <typename T>
[[gnu::always_inline]] inline bool DataPath::load_unless_kernel(uint64_t va, T& v) {
  if (!hot_.rd.holds(va, sizeof(T))) return try_load_slow<T>(va, v);
  v = load_in_region<T>(va);
  return true;
}

template <typename T>
[[gnu::always_inline]] inline bool DataPath::store_unless_kernel(uint64_t va, T v) {
  if (!hot_.wr.holds(va, sizeof(T))) return try_store_slow<T>(va, v);
  store_in_region<T>(va, v);
  return true;
}

template <typename T>
[[gnu::always_inline]] inline void DataPath::store(uint64_t va, T v) {
  if (hot_.wr.holds(va, sizeof(T))) store_in_region<T>(va, v);
  else store_slow<T>(va, v);  // tells the host itself
}

[[gnu::always_inline]] inline uint64_t DataPath::data_time(uint64_t pa, bool write, unsigned len) {
  if (!hot_.caches_run()) return 0;
  if (hot_.data_quick_hit(pa, write)) return hot_.dcache.hit_ps;
  if (!dcache_.enabled()) return uncached_time(pa, write, len);
  bool miss = false;
  const uint64_t line = pa >> dcache_.line_bits();
  const uint64_t t = dcache_.search(line, write, miss, hot_.data_way_hint(line));
  return miss ? t + dcache_miss(pa) : t;
}

}  // namespace avp
