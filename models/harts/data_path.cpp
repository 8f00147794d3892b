#include "harts/data_path.h"

#include <utility>

namespace avp {

using namespace rv;

namespace {

constexpr uint64_t kPage = 4096;

// The page of `pair` ([0] the most recent) that holds the access, moved to [0]; nullptr: none.
DmiRegion* page_of(DmiRegion* pair, uint64_t va, unsigned len) {
  for (int i = 0; i < 2; ++i) {
    if (pair[i].holds(va, len)) {
      if (i) std::swap(pair[0], pair[1]);
      return &pair[0];
    }
  }
  return nullptr;
}

// The fast region over the host bytes [from, to) of DMI region r, whose byte at pa is at virtual address va.
DmiRegion region_over(const DmiRegion& r, uint64_t va, uint64_t pa, const uint8_t* from, const uint8_t* to) {
  DmiRegion region = r;
  region.base = va - static_cast<uint64_t>(r.ptr + (pa - r.base) - from);
  region.size = static_cast<uint64_t>(to - from);
  region.ptr = const_cast<uint8_t*>(from);
  region.pa_delta = pa - va;
  return region;
}

}  // namespace

// Two regions in turn (code/data and stack) and the kept pages stay on the
// fast path (HartHotState::region_again; unchecked, no page is kept but in
// the parallel schedule).
template <typename T>
T DataPath::load_slow(uint64_t va) {
  T v{};
  if (!try_load_slow(va, v)) throw NeedsKernel{};
  return v;
}

template <typename T>
void DataPath::store_slow(uint64_t va, T v) {
  if (!try_store_slow(va, v)) throw NeedsKernel{};
}

template <typename T>
bool DataPath::try_load_slow(uint64_t va, T& v) {
  if (hot_.region_again(false, va, sizeof(T))) {
    v = load<T>(va);
    return true;
  }
  if (checked_) return checked_access(false, va, &v, sizeof(T));
  if (unchecked_region(false, va, sizeof(T))) {
    v = load<T>(va);
    return true;
  }
  if (slice_.in_slice()) return false;
  phys_access(false, va, &v, sizeof(T), kLoadAccessFault, va);
  return true;
}

template <typename T>
bool DataPath::try_store_slow(uint64_t va, T v) {
  if (hot_.region_again(true, va, sizeof(T))) {
    store<T>(va, v);
    return true;
  }
  if (checked_) return checked_access(true, va, &v, sizeof(T));
  if (unchecked_region(true, va, sizeof(T))) {
    store<T>(va, v);
    return true;
  }
  if (slice_.in_slice()) return false;
  phys_access(true, va, &v, sizeof(T), kStoreAccessFault, va);  // tells the host
  return true;
}

template uint8_t DataPath::load_slow<uint8_t>(uint64_t);
template uint16_t DataPath::load_slow<uint16_t>(uint64_t);
template uint32_t DataPath::load_slow<uint32_t>(uint64_t);
template uint64_t DataPath::load_slow<uint64_t>(uint64_t);
template void DataPath::store_slow<uint8_t>(uint64_t, uint8_t);
template void DataPath::store_slow<uint16_t>(uint64_t, uint16_t);
template void DataPath::store_slow<uint32_t>(uint64_t, uint32_t);
template void DataPath::store_slow<uint64_t>(uint64_t, uint64_t);
template bool DataPath::try_load_slow<uint8_t>(uint64_t, uint8_t&);
template bool DataPath::try_load_slow<uint16_t>(uint64_t, uint16_t&);
template bool DataPath::try_load_slow<uint32_t>(uint64_t, uint32_t&);
template bool DataPath::try_load_slow<uint64_t>(uint64_t, uint64_t&);
template bool DataPath::try_store_slow<uint8_t>(uint64_t, uint8_t);
template bool DataPath::try_store_slow<uint16_t>(uint64_t, uint16_t);
template bool DataPath::try_store_slow<uint32_t>(uint64_t, uint32_t);
template bool DataPath::try_store_slow<uint64_t>(uint64_t, uint64_t);

void DataPath::update_checked() {
  const Priv dp = mmu_.data_priv();
  uint32_t key = 0;
  const bool translates = mmu_.translates(dp);
  if (translates || mmu_.pmp().active_for(dp))
    key = 1 | dp << 1 | ((hot_.s.mstatus & mstatus::SUM) ? 8 : 0) | ((hot_.s.mstatus & mstatus::MXR) ? 16 : 0);
  checked_ = key != 0;
  hot_.page_hits = translates ? mmu_.tlb_hits_count() : &hot_.not_counted;  // what a kept page's use counts
  if (key != key_) {
    key_ = key;
    forget_regions();
  }
}

void DataPath::forget_regions() {
  hot_.rd = hot_.wr = hot_.rd_before = hot_.wr_before = DmiRegion{};
  pages_rd_[0] = pages_rd_[1] = pages_wr_[0] = pages_wr_[1] = DmiRegion{};
  hot_.rd_pages.forget_all();
  hot_.wr_pages.forget_all();
}

void DataPath::tlb_flushed() {
  hot_.rd_pages.forget_all();
  hot_.wr_pages.forget_all();
}

// A fast region holds a translation as long as the TLB does: one whose page
// lies in the pages of an entry the TLB replaces goes too.
void DataPath::tlb_replacing(const TlbEntry& e) {
  if (!e.valid) return;
  const uint64_t base = e.va_base(), bytes = e.page_bytes();
  for (DmiRegion* r : {&hot_.rd, &hot_.rd_before, &hot_.wr, &hot_.wr_before, &pages_rd_[0], &pages_rd_[1], &pages_wr_[0], &pages_wr_[1]})
    if (r->size && r->base - base < bytes) *r = DmiRegion{};
  tlb_rewalking(e);  // the kept pages too, as when e is walked again
}

void DataPath::tlb_rewalking(const TlbEntry& e) {
  hot_.rd_pages.forget_range(e.va_base(), e.page_bytes());
  hot_.wr_pages.forget_range(e.va_base(), e.page_bytes());
}

bool DataPath::in_regions(uint64_t va, unsigned len, bool write) const {
  const auto held = [&](bool w) {
    return (w ? hot_.wr : hot_.rd).holds(va, len) || (w ? hot_.wr_before : hot_.rd_before).holds(va, len) ||
           (w ? hot_.wr_pages : hot_.rd_pages).find(va, len);
  };
  return held(false) && (!write || held(true));
}

void DataPath::withdraw(const uint8_t* from, uint64_t bytes, bool writes_only) {
  const auto drop = [from, bytes](DmiRegion& r) {
    if (r.size && r.ptr < from + bytes && from < r.ptr + r.size) r = DmiRegion{};
  };
  drop(hot_.wr);
  drop(hot_.wr_before);
  hot_.wr_pages.forget_host(from, bytes);
  if (writes_only) return;
  drop(hot_.rd);
  drop(hot_.rd_before);
  hot_.rd_pages.forget_host(from, bytes);
}

void DataPath::code_marked(uint64_t pa, uint64_t bytes) {
  const bool remade = !checked_ && !slice_.parallel;  // unchecked_region makes it again, around the mark
  for (DmiRegion* r : {&hot_.wr, &hot_.wr_before}) {
    if (!r->overlaps_physical(pa, bytes)) continue;
    if (remade) *r = DmiRegion{};
    else r->code_free = false;
  }
  hot_.wr_pages.code_marked(pa, bytes);
}

bool DataPath::claimed_region(bool write, uint64_t va, uint64_t pa, unsigned len, const DmiRegion& r) {
  const uint64_t off = pa & (kPage - 1), ppage = pa - off;
  if (off + len > kPage || !r.holds(ppage, kPage)) return false;
  const uint8_t* at = r.ptr + (pa - r.base);
  const uint8_t* last = at + len - 1;
  // Unchecked, the region may reach beyond the page, within the DMI region; checked, only the page was checked.
  const uint8_t* lo = checked_ ? at - off : r.ptr;
  const uint8_t* hi = checked_ ? at - off + kPage : r.ptr + r.size;
  PageClaims::Span span = claims_.held(hart_, at, write, lo, hi);
  if (span.to <= last) {  // none, or not up to the access's last byte
    if (slice_.in_slice()) return false;
    claims_.claim(hart_, at, write);
    if ((reinterpret_cast<uintptr_t>(at) ^ reinterpret_cast<uintptr_t>(last)) >> PageClaims::kLineBits)
      claims_.claim(hart_, last, write);  // an access across two lines
    span = claims_.held(hart_, at, write, lo, hi);
  }
  use_region(write, region_over(r, va, pa, span.from, span.to));
  return true;
}

bool DataPath::unchecked_region(bool write, uint64_t pa, unsigned len) {
  DmiRegion* r = slice_.in_slice() ? dmi_.known(pa, write) : dmi_.find(pa, write);  // asking the bus is the kernel's
  if (!r || !r->holds(pa, len)) return false;
  if (slice_.parallel) {
    if (!slice_.alone_in_batch()) return claimed_region(write, pa, pa, len, *r);
    unclaimed_regions_ = true;  // the whole region, without claims (keep_to_claims)
  }
  DmiRegion& in_use = write ? hot_.wr : hot_.rd;
  (write ? hot_.wr_before : hot_.rd_before) = in_use;
  in_use = *r;
  if (write) {  // the granules around pa's without code, if pa's has none; else all of it, looking in the code map
    uint64_t from = r->base, to = r->base + r->size;
    host_.code_free_span(pa, from, to);
    if (from < to) {
      in_use.ptr += from - r->base;
      in_use.base = from;
      in_use.size = to - from;
      in_use.code_free = true;
    }
  }
  return true;
}

void DataPath::use_region(bool write, DmiRegion region) {
  if (write) {
    const uint64_t pa = region.base + region.pa_delta;
    uint64_t from = pa, to = pa + region.size;
    host_.code_free_span(pa, from, to);
    region.code_free = from == pa && to == pa + region.size;
  }
  (write ? hot_.wr_pages : hot_.rd_pages).insert(region);
  DmiRegion& in_use = write ? hot_.wr : hot_.rd;
  (write ? hot_.wr_before : hot_.rd_before) = in_use;
  in_use = region;
}

bool DataPath::held_access(bool write, uint64_t va, void* buf, unsigned len) {
  const unsigned access = write ? kAccessWrite : kAccessRead;
  const Priv p = mmu_.data_priv();
  if ((va & (kPage - 1)) + len > kPage) return false;
  const std::optional<PageTranslation> t = mmu_.held(va, access, p);
  if (!t || t->uncached) return false;
  const uint64_t ppage = t->pa & ~(kPage - 1);
  const DmiRegion* r = dmi_.known(ppage, write);
  if (!r || r->size - (ppage - r->base) < kPage) return false;
  const uint8_t* page = r->ptr + (ppage - r->base);
  const uint8_t* at = page + (t->pa - ppage);
  const PageClaims::Span span = claims_.held(hart_, at, write, page, page + kPage);
  if (span.to <= at + len - 1) return false;
  bool page_ok = false;
  mmu_.take_held(va, t->pa, len, access, p, &page_ok);  // a PMP fault: a trap the slice takes
  if (page_ok) use_region(write, region_over(*r, va, t->pa, span.from, span.to));  // as claimed_region would
  phys_access(write, t->pa, buf, len, access_fault_cause(access), va);
  return true;
}

bool DataPath::checked_access(bool write, uint64_t va, void* buf, unsigned len) {
  if (slice_.in_slice()) return held_access(write, va, buf, len);  // else a walk, a device, a claim: the hart's thread's
  const unsigned access = write ? kAccessWrite : kAccessRead;
  const uint64_t fault = access_fault_cause(access);
  if (const DmiRegion* page = page_of(write ? pages_wr_ : pages_rd_, va, len)) {  // as a fast region would
    phys_access(write, va + page->pa_delta, buf, len, fault, va);
    return true;
  }
  const Priv p = mmu_.data_priv();
  const uint64_t off = va & (kPage - 1);
  if (off + len > kPage) {  // crosses a page: both halves are checked before any byte moves
    const unsigned first = static_cast<unsigned>(kPage - off);
    const PageTranslation t0 = mmu_.translate_data(va, first, access, p);
    const PageTranslation t1 = mmu_.translate_data(va + first, len - first, access, p);
    phys_access(write, t0.pa, buf, first, fault, va, t0.uncached);
    phys_access(write, t1.pa, static_cast<uint8_t*>(buf) + first, len - first, fault, va + first, t1.uncached);
    return true;
  }
  bool page_ok = false;
  const PageTranslation t = mmu_.translate_data(va, len, access, p, &page_ok);
  const uint64_t pa = t.pa;
  const bool uncached = t.uncached;  // an NC or IO page: not a fast region, its accesses bypass the D-cache
  const uint64_t ppage = pa & ~(kPage - 1);
  if (page_ok && !uncached) {
    if (DmiRegion* r = dmi_.find(ppage, write); r && r->size - (ppage - r->base) >= kPage) {
      if (slice_.parallel) {
        claimed_region(write, va, pa, len, *r);  // the hart's thread: slices stop before translating
      } else {
        const uint8_t* page = r->ptr + (ppage - r->base);
        use_region(write, region_over(*r, va, pa, page, page + kPage));
      }
    } else if (bus_.cacheable(ppage, 8, false)) {  // memory without DMI: the page, for the translation only
      DmiRegion* pair = write ? pages_wr_ : pages_rd_;
      pair[1] = pair[0];
      DmiRegion& page = pair[0] = DmiRegion{};
      page.base = va & ~(kPage - 1);
      page.size = kPage;
      page.rd = !write;
      page.wr = write;
      page.pa_delta = ppage - page.base;
    }
  }
  phys_access(write, pa, buf, len, fault, va, uncached);
  return true;
}

void DataPath::phys_access(bool write, uint64_t pa, void* buf, unsigned len, uint64_t fault_cause, uint64_t tval,
                           bool uncached) {
  // An uncached access to memory is a transfer of its own bytes, as without a D-cache.
  const auto memory_time = [&] { return uncached ? uncached_time(pa, write, len) : data_time(pa, write, len); };
  const tlm::tlm_command cmd = write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND;
  if (write && spin_waits_) host_.storing(pa, len);
  if (DmiRegion* r = dmi_.find(pa, write); r && r->size - (pa - r->base) >= len) {
    if (write) std::memcpy(r->ptr + (pa - r->base), buf, len);
    else std::memcpy(buf, r->ptr + (pa - r->base), len);
    hot_.add_memory_time(memory_time());
  } else {
    if (write && dmi_.read_only(pa, len)) throw TrapException{fault_cause, tval};
    if (bus_.cacheable(pa, len, false)) {
      // The data moves functionally; the cache model times the access as it would a DMI one.
      host_.bus_access(cmd, pa, buf, len, fault_cause, tval, true);
      hot_.add_memory_time(memory_time());
    } else {
      host_.bus_access(cmd, pa, buf, len, fault_cause, tval, false);
    }
  }
  if (write) host_.stored(pa, len);
}

uint64_t DataPath::pte_access(uint64_t pa, const uint64_t* write, uint64_t fault_cause, uint64_t tval) {
  // Uncached, bypassing the D-cache model: the bus and the memory time it.
  uint64_t v = write ? *write : 0;
  if (write && spin_waits_) host_.storing(pa, 8);
  if (DmiRegion* r = dmi_.find(pa, write != nullptr); r && r->size - (pa - r->base) >= 8) {
    if (write) std::memcpy(r->ptr + (pa - r->base), &v, 8);
    else std::memcpy(&v, r->ptr + (pa - r->base), 8);
    hot_.add_memory_time(uncached_time(pa, write != nullptr, 8));
  } else if (hot_.functional) {  // untimed, as with DMI (phys_access tells the host of a write)
    phys_access(write != nullptr, pa, &v, 8, fault_cause, tval);
    return v;
  } else {
    host_.bus_access(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, pa, &v, 8, fault_cause, tval, false);
  }
  if (write) host_.stored(pa, 8);
  return v;
}

uint64_t DataPath::dcache_miss(uint64_t pa) {
  if (hot_.functional) return 0;  // warming the cache (harts.warm_caches): no traffic, no stream buffers
  const unsigned bits = dcache_.line_bits();
  const unsigned line = 1u << bits;
  // The dirty victim goes to a write buffer: its write-back occupies the bus
  // but the hart does not wait for it (the cache model charges its transfer).
  const uint64_t victim = dcache_.written_back();
  const HartTraffic t[] = {{victim << bits, line, true, false, false}, {pa >> bits << bits, line, false, false, true}};
  const unsigned sent = victim != ~0ull ? 2 : 1;  // the write-back, if any, and the fill
  if (!prefetcher_.enabled()) return bus_.traffic(t + 2 - sent, sent);
  return dcache_miss_prefetching(pa, t, sent);
}

// With stream buffers: a buffered line costs what is left of its prefetch;
// the fill (or write-back) goes to the bus before the prefetches the miss
// starts, as the hart issues them in that order. Apart from dcache_miss,
// whose frame it would widen (a miss without them: 2.09 M in `mixed`'s table phase).
uint64_t DataPath::dcache_miss_prefetching(uint64_t pa, const HartTraffic (&t)[2], unsigned sent) {
  const unsigned bits = dcache_.line_bits();
  const unsigned line = 1u << bits;
  const uint64_t now = to_ps(sc_core::sc_time_stamp()) + time_.settled_time_ps();
  uint64_t ready = 0, fill = 0;
  if (prefetcher_.take(pa >> bits, ready)) {
    if (sent == 2) bus_.traffic(t, 1);  // the write-back
    fill = ready > now ? ready - now : 0;
  } else {
    fill = bus_.traffic(t + 2 - sent, sent);
  }
  prefetcher_.follow(pa >> bits, [&](uint64_t next) -> uint64_t {
    if (dcache_.holds(next)) return ~0ull;
    const HartTraffic prefetch{next << bits, line, false, false, false};
    return now + bus_.traffic(&prefetch, 1);
  });
  return fill;
}

uint64_t DataPath::flush_dcache() {
  const unsigned bits = dcache_.line_bits();
  prefetcher_.clear();
  if (hot_.functional) return dcache_.flush();  // warmed lines (harts.warm_caches) go without traffic or time
  return dcache_.flush([this, bits](uint64_t line) { bus_.traffic(line << bits, true, 1u << bits, false); });
}

}  // namespace avp
