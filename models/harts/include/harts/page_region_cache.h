// The fast regions a checked hart has made (data_path.h: one virtual 4 KiB
// page whose translation and PMP check passed for the whole page), and in
// the parallel schedule the claimed runs of lines of a page (page_claims.h),
// kept beyond the two in use, as QEMU's softmmu TLB keeps its pages: an
// access outside the regions in use finds its page here before it is
// translated and checked again. Direct-mapped by virtual page; translated
// code looks pages up in the same slots (HartHotState::region_again). The
// hart drops a page when the regions in use would be dropped (data_path.h,
// forget_regions and tlb_replacing), its TLB entry is walked again
// (tlb_rewalking) or its claims are withdrawn (DataPath::withdraw), so every
// page here is one the slow path would make again with the same result.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "harts/dmi_region.h"

namespace avp {

class PageRegionCache {
 public:
  static constexpr unsigned kSlots = 64;
  static constexpr uint64_t kPage = 4096;
  static constexpr unsigned kPageBits = 12;
  static_assert(kPage == uint64_t{1} << kPageBits);

  // The page holding [va, va + len), or nullptr.
  const DmiRegion* find(uint64_t va, unsigned len) const {
    const DmiRegion& r = slots_[slot_of(va)];
    return r.holds(va, len) ? &r : nullptr;
  }
  // `page` (a page, or lines of one or more pages) replaces the pages in the slots of the pages it covers.
  void insert(const DmiRegion& page) {
    for (uint64_t p = page.base >> kPageBits; p <= (page.base + page.size - 1) >> kPageBits; ++p)
      slots_[p % kSlots] = page;
    empty_ = false;
  }
  void forget_all() {
    if (empty_) return;
    slots_.fill(DmiRegion{});
    empty_ = true;
  }
  // Drops the pages in [base, base + bytes) (base page-aligned).
  void forget_range(uint64_t base, uint64_t bytes) {
    if (empty_) return;
    if (bytes <= kPage) {
      DmiRegion& r = slots_[slot_of(base)];
      if (r.size && r.base - base < bytes) r = DmiRegion{};
      return;
    }
    for (DmiRegion& r : slots_)
      if (r.size && r.base - base < bytes) r = DmiRegion{};
  }

  // Drops the pages over the host bytes [from, from + bytes).
  void forget_host(const uint8_t* from, uint64_t bytes) {
    if (empty_) return;
    for (DmiRegion& r : slots_)
      if (r.size && r.ptr < from + bytes && from < r.ptr + r.size) r = DmiRegion{};
  }

  // The physical bytes [pa, pa + bytes) hold a granule the code map marks: the pages over them are not code-free.
  void code_marked(uint64_t pa, uint64_t bytes) {
    if (empty_) return;
    for (DmiRegion& r : slots_)
      if (r.overlaps_physical(pa, bytes)) r.code_free = false;
  }
  static unsigned slot_of(uint64_t va) { return (va >> kPageBits) % kSlots; }
  // Where translated code finds the slots (an array of DmiRegion, by slot_of).
  static constexpr size_t slots_offset() { return offsetof(PageRegionCache, slots_); }

 private:
  std::array<DmiRegion, kSlots> slots_{};
  bool empty_ = true;
};

}  // namespace avp
