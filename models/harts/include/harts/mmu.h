// A hart's address translation and protection: the TLB, the PMP and the
// Sv39/Sv48 page-table walk of the privileged specification (superpages,
// Svnapot, Svpbmt, A and D set by the walk), with their statistics.
//
// The Mmu reads satp, the privilege, mstatus (SUM, MXR) and menvcfg (PBMTE)
// from the hart's state; it reaches page-table entries through
// PageTableMemory (the hart's bus, DMI and timing), and tells TlbUsers
// before a TLB entry goes (the hart's fast data regions and cached pages
// stand on its translation). A TLB hit is inline and makes no virtual call;
// only walks reach the interfaces. docs/harts.md, "Address translation and
// protection".
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "harts/hart_state.h"
#include "harts/pmp.h"
#include "harts/tlb.h"

namespace avp {

namespace rv::pte {
constexpr uint64_t V = 1, R = 2, W = 4, X = 8, U = 16, G = 32, A = 64, D = 128;
}  // namespace rv::pte

// The faults of an access with kAccess* bits `access`.
constexpr uint64_t page_fault_cause(unsigned access) {
  return (access & rv::kAccessExec)    ? rv::kInsnPageFault
         : (access & rv::kAccessWrite) ? rv::kStorePageFault
                                       : rv::kLoadPageFault;
}
constexpr uint64_t access_fault_cause(unsigned access) {
  return (access & rv::kAccessExec)    ? rv::kInsnAccessFault
         : (access & rv::kAccessWrite) ? rv::kStoreAccessFault
                                       : rv::kLoadAccessFault;
}

// Where page-table entries lie (physical addresses).
class PageTableMemory {
 public:
  // A PTE read (write == nullptr; returns it) or the write-back of *write,
  // as the walk's access; a refused access throws TrapException{fault_cause, tval}.
  virtual uint64_t pte_access(uint64_t pa, const uint64_t* write, uint64_t fault_cause, uint64_t tval) = 0;
  // The debugger's read: untimed, without side effects; false when pa is not readable memory.
  virtual bool debug_read(uint64_t pa, void* dst, unsigned len) = 0;

 protected:
  ~PageTableMemory() = default;
};

// What relies on TLB entries outside the Mmu: told before an entry goes.
class TlbUsers {
 public:
  // The next insert replaces e (FIFO; an invalid e: a free slot).
  virtual void tlb_replacing(const rv::TlbEntry& e) = 0;
  // A hit on e lacked the permission or the D bit: e goes and its page is walked again.
  virtual void tlb_rewalking(const rv::TlbEntry& e) = 0;

 protected:
  ~TlbUsers() = default;
};

struct MmuStats {
  uint64_t tlb_hits = 0, tlb_misses = 0;
  uint64_t page_walks = 0;  // misses, and hits whose cached PTE lacked the permission or D bit
  uint64_t pte_reads = 0, page_faults = 0;
};

// Where a virtual address leads.
struct PageTranslation {
  uint64_t pa = 0;
  uint64_t until = ~0ull;  // the TLB's inserts() at which the entry it came from goes (~0: none)
  bool uncached = false;   // an NC or IO page (Svpbmt)
};

class Mmu {
 public:
  // tlb_inserts: where the TLB counts its inserts (translated code reads it; it outlives the Mmu).
  Mmu(const rv::HartState& state, uint64_t& tlb_inserts, PageTableMemory& memory, TlbUsers& users)
      : s_(state), tlb_(tlb_inserts), memory_(memory), users_(users) {}
  Mmu(const Mmu&) = delete;
  Mmu& operator=(const Mmu&) = delete;

  void configure(unsigned tlb_entries, unsigned pmp_entries, unsigned pmp_granularity) {
    tlb_.configure(tlb_entries);
    pmp_.configure(pmp_entries, pmp_granularity);
  }
  void reset() {  // at a start: every PMP entry OFF, the TLB empty
    pmp_.reset();
    tlb_.flush_all();
  }
  rv::Pmp& pmp() { return pmp_; }
  const rv::Pmp& pmp() const { return pmp_; }
  const MmuStats& stats() const { return stats_; }
  // Translations used without a lookup, each standing for the TLB hit it would be.
  void count_tlb_hits(uint64_t n) { stats_.tlb_hits += n; }
  // The count itself, for what counts hits where no lookup is made (HartHotState::page_hits).
  uint64_t* tlb_hits_count() { return &stats_.tlb_hits; }
  uint64_t tlb_inserts() const { return tlb_.inserts(); }
  void flush_tlb() { tlb_.flush_all(); }
  // SFENCE.VMA (rs1 != x0: by_va; rs2 != x0: by_asid).
  void sfence(bool by_va, uint64_t va, bool by_asid, uint16_t asid) { tlb_.flush(by_va, va, by_asid, asid); }

  // The privilege of loads and stores: mstatus.MPP's in M-mode with MPRV set.
  rv::Priv data_priv() const {
    return (s_.priv == rv::PRV_M && (s_.mstatus & rv::mstatus::MPRV))
               ? static_cast<rv::Priv>((s_.mstatus & rv::mstatus::MPP) >> 11)
               : s_.priv;
  }
  // Accesses at privilege p go through the page tables.
  bool translates(rv::Priv p) const { return vm_on() && p != rv::PRV_M; }
  // A fetch at the current privilege: through the page tables (the PMP: fetch_allowed).
  PageTranslation translate_fetch(uint64_t va) {
    return translates(s_.priv) ? translate(va, rv::kAccessExec, s_.priv) : PageTranslation{va};
  }
  bool fetch_allowed(uint64_t pa, unsigned len) const {
    return !pmp_.active_for(s_.priv) || pmp_.allows(pa, len, s_.priv, rv::kAccessExec);
  }
  // A data access of len bytes with kAccess* bits `access` at privilege p:
  // translation and PMP checked (throws the fault). page_ok (optional): set
  // when the whole 4 KiB page holding it may be accessed the same way.
  PageTranslation translate_data(uint64_t va, unsigned len, unsigned access, rv::Priv p, bool* page_ok = nullptr) {
    const PageTranslation t = translates(p) ? translate(va, access, p) : PageTranslation{va};
    check_data_pmp(t.pa, va, len, access, p, page_ok);
    return t;
  }
  // A slice's translation (hart_slice.cpp), which may not walk: what
  // translate_data gives when the TLB holds va's entry with the permission
  // (and the D bit for a write), else nothing. Nothing is counted: take_held
  // does, once the access goes ahead.
  std::optional<PageTranslation> held(uint64_t va, unsigned access, rv::Priv p) {
    if (!translates(p)) return PageTranslation{va};
    if (!canonical(va)) return std::nullopt;  // the page fault is the hart thread's
    rv::TlbEntry* e = tlb_.lookup(va, asid());
    if (!e || !hit_grants(*e, access, p)) return std::nullopt;
    return PageTranslation{e->pa(va), tlb_.replaced_at(*e), e->pbmt != 0};
  }
  // What translate_data does beyond the lookup for a translation held gave:
  // counts the TLB hit and checks the PMP (throws the fault).
  void take_held(uint64_t va, uint64_t pa, unsigned len, unsigned access, rv::Priv p, bool* page_ok) {
    if (translates(p)) ++stats_.tlb_hits;
    check_data_pmp(pa, va, len, access, p, page_ok);
  }
  // The debugger's view of va through the current satp: a walk that fills
  // no TLB entry, sets no A/D bit and counts nothing; no permission check.
  // satp Bare: va itself. False (with the reason in `why`) when va does not translate.
  bool debug_translate(uint64_t va, uint64_t& pa, std::string& why);

 private:
  static constexpr unsigned kSatpSv39 = 8;
  bool vm_on() const { return (s_.satp >> 60) != 0; }
  unsigned va_bits() const { return (s_.satp >> 60) == kSatpSv39 ? 39 : 48; }
  // Bits above the virtual address width all equal its top bit.
  bool canonical(uint64_t va) const {
    const unsigned shift = 64 - va_bits();
    return static_cast<uint64_t>(static_cast<int64_t>(va << shift) >> shift) == va;
  }
  uint16_t asid() const { return static_cast<uint16_t>(s_.satp >> 44); }
  bool pte_permits(uint64_t pte, unsigned access, rv::Priv p) const {
    using namespace rv;
    if (p == PRV_U && !(pte & pte::U)) return false;
    if (p == PRV_S && (pte & pte::U) && ((access & kAccessExec) || !(s_.mstatus & mstatus::SUM))) return false;
    if (access & kAccessExec) return pte & pte::X;
    if (access & kAccessWrite) return pte & pte::W;
    return (pte & pte::R) || ((s_.mstatus & mstatus::MXR) && (pte & pte::X));
  }
  // A TLB entry grants the access without a walk: the permission, and the D bit for a write.
  bool hit_grants(const rv::TlbEntry& e, unsigned access, rv::Priv p) const {
    return pte_permits(e.flags, access, p) && (!(access & rv::kAccessWrite) || (e.flags & rv::pte::D));
  }
  // Page tables only: a TLB hit here, the rest out of line.
  PageTranslation translate(uint64_t va, unsigned access, rv::Priv p) {
    if (!canonical(va)) non_canonical(va, access);
    if (rv::TlbEntry* e = tlb_.lookup(va, asid())) {
      if (hit_grants(*e, access, p)) {
        ++stats_.tlb_hits;
        return {e->pa(va), tlb_.replaced_at(*e), e->pbmt != 0};
      }
      return walk_again(*e, va, access, p);
    }
    ++stats_.tlb_misses;
    return walk_into_tlb(va, access, p);
  }
  [[noreturn]] void non_canonical(uint64_t va, unsigned access);
  PageTranslation walk_again(rv::TlbEntry& e, uint64_t va, unsigned access, rv::Priv p);
  PageTranslation walk_into_tlb(uint64_t va, unsigned access, rv::Priv p);
  // The walk itself; kDebug: debug_translate's (debug reads, no check of
  // `access`, no A/D update, no statistics).
  template <bool kDebug>
  rv::TlbEntry walk(uint64_t va, unsigned access, rv::Priv p);
  uint64_t pte_access(uint64_t pa, const uint64_t* write, uint64_t fault_cause, uint64_t tval);
  void check_pmp(uint64_t pa, uint64_t va, unsigned len, unsigned access, rv::Priv p, bool* page_ok) const;
  // A data access's PMP check where the PMP applies at p (page_ok: translate_data's).
  void check_data_pmp(uint64_t pa, uint64_t va, unsigned len, unsigned access, rv::Priv p, bool* page_ok) const {
    if (pmp_.active_for(p)) check_pmp(pa, va, len, access, p, page_ok);
    else if (page_ok) *page_ok = true;
  }

  const rv::HartState& s_;
  rv::Pmp pmp_;
  rv::Tlb tlb_;
  MmuStats stats_;
  PageTableMemory& memory_;
  TlbUsers& users_;
};

}  // namespace avp
