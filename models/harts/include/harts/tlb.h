// A hart's translation lookaside buffer: fully associative, `entries` entries
// (harts.tlb_entries), FIFO replacement so runs are deterministic. One entry
// maps a page of any level (4 KiB, 2 MiB, 1 GiB, 512 GiB) for one ASID, or
// for every ASID when the PTE is global. It caches the leaf PTE's flags, so
// permission checks on a hit need no memory access.
#pragma once
#include <cstdint>
#include <vector>

namespace avp::rv {

struct TlbEntry {
  uint64_t tag = 0;    // va >> (12 + 9 * level)
  uint64_t ppn = 0;    // physical page number of the (super)page's base
  uint16_t asid = 0;
  uint8_t level = 0;   // 0: 4 KiB page; n: superpage of 2^(12 + 9n) bytes
  uint8_t flags = 0;   // PTE bits 7:0 (V R W X U G A D)
  uint8_t pbmt = 0;    // Svpbmt: 0 the PMA, 1 NC, 2 IO (both uncached)
  bool valid = false;
  uint64_t serial = 0;  // Tlb::inserts() once it was placed

  uint64_t page_bytes() const { return 1ull << (12 + 9 * level); }
  uint64_t va_base() const { return tag << (12 + 9 * level); }
  uint64_t pa(uint64_t va) const { return (ppn << 12) + (va & (page_bytes() - 1)); }
};

class Tlb {
 public:
  // `inserts`: where the count of inserts is kept (translated code reads it; it outlives the TLB).
  explicit Tlb(uint64_t& inserts) : inserts_(inserts) {}
  Tlb(const Tlb&) = delete;
  Tlb& operator=(const Tlb&) = delete;
  void configure(unsigned entries) {
    inserts_ += entries_.size();  // every entry held so far counts as replaced
    entries_.assign(entries, TlbEntry{});
    next_ = 0;
    forget_found();
  }
  // Inserts so far; an entry stays (FIFO) until `entries` more have been made.
  uint64_t inserts() const { return inserts_; }
  uint64_t replaced_at(const TlbEntry& e) const { return e.serial + entries_.size(); }
  // The first valid entry in array order that maps va for asid. That entry
  // depends only on va's page, asid and the entries, so the pages found are
  // remembered (one slot per page number modulo kFoundSlots) while the entry
  // found is the one placed then and still valid, and no entry that maps the
  // page was placed since.
  TlbEntry* lookup(uint64_t va, uint16_t asid) {
    const uint64_t page = va >> 12;
    Found& f = found_[page % kFoundSlots];
    if (f.page == page && f.asid == asid && f.entry->serial == f.serial && f.entry->valid)
      return f.entry;
    for (auto& e : entries_)
      if (e.valid && (va >> (12 + 9 * e.level)) == e.tag && (e.asid == asid || (e.flags & kGlobal))) {
        f = {page, &e, e.serial, asid};
        return &e;
      }
    return nullptr;
  }
  // The entry the next insert replaces.
  const TlbEntry& victim() const {
    static const TlbEntry kNone;
    return entries_.empty() ? kNone : entries_[next_];
  }
  // Returns the inserts() at which the entry is replaced (now, without entries).
  uint64_t insert(const TlbEntry& e) {
    if (entries_.empty()) return inserts_;
    // The new entry may come first for the pages it maps: a 4 KiB page's one slot, a superpage's every page found.
    if (e.level == 0) found_[e.tag % kFoundSlots] = Found{};
    else
      for (auto& f : found_)
        if ((f.page >> (9 * e.level)) == e.tag) f = Found{};
    entries_[next_] = e;
    entries_[next_].serial = ++inserts_;
    const uint64_t until = replaced_at(entries_[next_]);
    next_ = (next_ + 1) % entries_.size();
    return until;
  }
  void flush_all() {
    for (auto& e : entries_) e.valid = false;
  }
  // SFENCE.VMA: rs1 != x0 limits the flush to entries mapping `va`; rs2 != x0
  // to entries of `asid` that are not global.
  void flush(bool by_va, uint64_t va, bool by_asid, uint16_t asid) {
    for (auto& e : entries_) {
      if (by_va && (va >> (12 + 9 * e.level)) != e.tag) continue;
      if (by_asid && (e.asid != asid || (e.flags & kGlobal))) continue;
      e.valid = false;
    }
  }

 private:
  static constexpr uint8_t kGlobal = 1 << 5;
  // A page found and its entry, as placed at `serial`.
  struct Found {
    uint64_t page = ~0ull;  // va >> 12 (~0, above every page number: a free slot)
    TlbEntry* entry = nullptr;
    uint64_t serial = 0;
    uint16_t asid = 0;
  };
  static constexpr unsigned kFoundSlots = 64;
  void forget_found() {
    for (auto& f : found_) f = Found{};
  }
  std::vector<TlbEntry> entries_;
  size_t next_ = 0;
  Found found_[kFoundSlots];
  uint64_t& inserts_;
};

}  // namespace avp::rv
