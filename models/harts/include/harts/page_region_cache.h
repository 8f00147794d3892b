// The fast regions a checked hart has made (data_path.h: one virtual 4 KiB
// page whose translation and PMP check passed for the whole page), and in
// the parallel schedule the claimed pages (page_claims.h), kept beyond the
// two in use, as QEMU's softmmu TLB keeps its pages: an access
// outside the regions in use finds its page here before it is translated
// and checked again. Direct-mapped by virtual page; translated code looks
// pages up in the same slots (HartHotState::region_again). The hart drops a page
// when the regions in use would be dropped (data_path.h, forget_regions
// and tlb_replacing), its TLB entry is walked again (tlb_rewalking) or its
// claim is withdrawn (withdraw_page), so every page here is one the slow
// path would make again with the same result.
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
  // `page` (base page-aligned, size kPage) replaces the page in its slot.
  void insert(const DmiRegion& page) {
    slots_[slot_of(page.base)] = page;
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

  // Drops the pages whose physical page is `pa_page`.
  void forget_physical(uint64_t pa_page) {
    if (empty_) return;
    for (DmiRegion& r : slots_)
      if (r.size && r.base + r.pa_delta == pa_page) r = DmiRegion{};
  }

  static unsigned slot_of(uint64_t va) { return (va >> kPageBits) % kSlots; }
  // Where translated code finds the slots (an array of DmiRegion, by slot_of).
  static constexpr size_t slots_offset() { return offsetof(PageRegionCache, slots_); }

 private:
  std::array<DmiRegion, kSlots> slots_{};
  bool empty_ = true;
};

}  // namespace avp
