// Address translation (satp Bare, Sv39, Sv48) and physical memory protection
// for the hart's loads, stores, fetches and page-table accesses.
//
// Nothing here runs while the hart is in Bare mode without an active PMP: the
// fast regions of load/store (hart.h) then hold physical addresses as before.
// Otherwise a fast region is one virtual 4 KiB page whose translation and PMP
// check passed for the whole page; an access outside the regions comes here.
// Every change that could alter a translation or a check (privilege, mstatus,
// satp, SFENCE.VMA, PMP writes) drops the regions; PMP writes also drop the
// decoded blocks of checked fetches, and satp and SFENCE.VMA make each of
// them check its pages' translation at its next entry. A and D bits are set
// by the page-table walker (the walker writes the PTE back through the bus);
// docs/harts.md.
#include <algorithm>

#include "harts/hart.h"
#include "hart_data_path.h"
#include "harts/hart_cluster.h"

namespace avp {

using namespace rv;

namespace {
constexpr uint64_t kPage = 4096;
constexpr uint64_t kPpnMask = (1ull << 44) - 1;
// PTE bits.
constexpr uint64_t V = 1, R = 2, W = 4, X = 8, U = 16, A = 64, D = 128;
constexpr unsigned kSatpBare = 0, kSatpSv39 = 8, kSatpSv48 = 9;

uint64_t page_fault(unsigned access) {
  return (access & kAccessExec) ? kInsnPageFault : (access & kAccessWrite) ? kStorePageFault : kLoadPageFault;
}
uint64_t access_fault(unsigned access) {
  return (access & kAccessExec) ? kInsnAccessFault : (access & kAccessWrite) ? kStoreAccessFault : kLoadAccessFault;
}
}  // namespace

void Hart::configure_mmu(unsigned tlb_entries, unsigned pmp_entries, unsigned pmp_granularity) {
  tlb_.configure(tlb_entries);
  pmp_.configure(pmp_entries, pmp_granularity);
}

void Hart::configure_triggers(unsigned count) {
  if (count == triggers_.count()) triggers_.reset_software();
  else triggers_.configure(count);
}

void Hart::update_xlate() {
  const Priv dp = data_priv();
  const bool fetch_checked = (vm_on() && hot_.s.priv != PRV_M) || pmp_.active_for(hot_.s.priv);
  hot_.fetch_key = fetch_checked ? static_cast<uint8_t>(1 + hot_.s.priv) : 0;
  uint32_t key = 0;
  if ((vm_on() && dp != PRV_M) || pmp_.active_for(dp))
    key = 1 | dp << 1 | ((hot_.s.mstatus & mstatus::SUM) ? 8 : 0) | ((hot_.s.mstatus & mstatus::MXR) ? 16 : 0);
  data_checked_ = key != 0;
  if (key != data_key_) {
    data_key_ = key;
    forget_regions();
  }
}

void Hart::forget_regions() {
  hot_.rd = hot_.wr = rd2_ = wr2_ = DmiRegion{};
  pages_rd_[0] = pages_rd_[1] = pages_wr_[0] = pages_wr_[1] = DmiRegion{};
  page_regions_rd_.forget_all();
  page_regions_wr_.forget_all();
}

// A fast region holds a translation as long as the TLB does: one whose page
// lies in the pages of an entry the TLB replaces goes too.
void Hart::forget_regions_of(const TlbEntry& e) {
  if (!e.valid) return;
  const uint64_t base = e.va_base(), bytes = e.page_bytes();
  for (DmiRegion* r : {&hot_.rd, &rd2_, &hot_.wr, &wr2_, &pages_rd_[0], &pages_rd_[1], &pages_wr_[0], &pages_wr_[1]})
    if (r->size && r->base - base < bytes) *r = DmiRegion{};
  forget_cached_pages_of(e);
}

void Hart::forget_cached_pages_of(const TlbEntry& e) {
  page_regions_rd_.forget_range(e.va_base(), e.page_bytes());
  page_regions_wr_.forget_range(e.va_base(), e.page_bytes());
}

// The running block ends after this instruction, the next one is entered
// afresh; the blocks of checked fetches stay decoded and translated, each
// checked at its next entry (expire_live_blocks, translate_fetch_again), as
// QEMU keeps its translation blocks across TLB flushes.
void Hart::translation_changed() {
  forget_regions();
  if (!live_.empty()) recheck_fetches_ = hot_.block_abort = true;
}

// A block does not check the PMP again at its entry: the blocks go, at the
// next block boundary when one of them may be running, else now.
void Hart::protection_changed() {
  forget_regions();
  if (!live_.empty()) flush_translated_ = hot_.block_abort = true;
  else forget_checked_blocks();
}

void Hart::sfence(const Insn& d) {
  tlb_.flush(d.rs1 != 0, hot_.s.x[d.rs1], d.rs2 != 0, static_cast<uint16_t>(hot_.s.x[d.rs2]));
  translation_changed();
}

bool Hart::pte_permits(uint64_t pte, unsigned access, Priv p) const {
  if (p == PRV_U && !(pte & U)) return false;
  if (p == PRV_S && (pte & U) && ((access & kAccessExec) || !(hot_.s.mstatus & mstatus::SUM))) return false;
  if (access & kAccessExec) return pte & X;
  if (access & kAccessWrite) return pte & W;
  return (pte & R) || ((hot_.s.mstatus & mstatus::MXR) && (pte & X));
}

// A page-table access: read (write == nullptr) or write back *write. PMP
// checks it as an S-mode access; a failure is an access fault of the access
// that needed the walk.
uint64_t Hart::pte_access(uint64_t pa, const uint64_t* write, uint64_t fault_cause, uint64_t tval) {
  const unsigned access = write ? kAccessWrite : kAccessRead;
  if (pmp_.active_for(PRV_S) && !pmp_.allows(pa, 8, PRV_S, access)) throw TrapException{fault_cause, tval};
  // Uncached, bypassing the L1 data cache model: the bus and the memory time it.
  uint64_t v = write ? *write : 0;
  if (DmiRegion* r = find_dmi(pa, write != nullptr); r && r->size - (pa - r->base) >= 8) {
    if (write) std::memcpy(r->ptr + (pa - r->base), &v, 8);
    else std::memcpy(&v, r->ptr + (pa - r->base), 8);
    if (!functional_) add_memory_time(bus_traffic(pa, write != nullptr, 8, false));
  } else if (functional_) {  // untimed, as with DMI (phys_access calls after_store)
    phys_access(write != nullptr, pa, &v, 8, fault_cause, tval);
    if (!write) ++mmu_stats_.pte_reads;
    return v;
  } else {
    transport(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, pa, &v, 8, fault_cause, tval);
  }
  if (write) after_store(pa, 8);
  else ++mmu_stats_.pte_reads;
  return v;
}

TlbEntry Hart::walk(uint64_t va, unsigned access, Priv p, uint16_t asid) {
  ++mmu_stats_.page_walks;
  return walk_tables<false>(va, access, p, asid);
}

// The page-table walk of the privileged spec (section "Virtual Address Translation Process").
template <bool kDebug>
TlbEntry Hart::walk_tables(uint64_t va, unsigned access, Priv p, uint16_t asid) {
  const unsigned levels = (hot_.s.satp >> 60) == kSatpSv39 ? 3 : 4;
  const uint64_t pf = page_fault(access), af = access_fault(access);
  uint64_t table = (hot_.s.satp & kPpnMask) * kPage;
  for (int i = static_cast<int>(levels) - 1; i >= 0; --i) {
    const uint64_t pte_addr = table + ((va >> (12 + 9 * i)) & 511) * 8;
    uint64_t pte = 0;
    if constexpr (kDebug) {
      if (!debug_read(pte_addr, &pte, 8)) throw TrapException{af, pte_addr};
    } else {
      pte = pte_access(pte_addr, nullptr, af, va);
    }
    // Invalid, W without R, or bits 60:54 set (reserved); N (Svnapot) and
    // PBMT (Svpbmt) only in a leaf, below.
    if (!(pte & V) || (!(pte & R) && (pte & W)) || ((pte >> 54) & 0x7F)) throw TrapException{pf, va};
    uint64_t ppn = (pte >> 10) & kPpnMask;
    const bool napot = pte >> 63;
    const auto pbmt = static_cast<uint8_t>((pte >> 61) & 3);
    if (!(pte & (R | X))) {  // a pointer to the next level
      if (napot || pbmt) throw TrapException{pf, va};
      table = ppn * kPage;
      continue;
    }
    // PBMT 3 is reserved, and without menvcfg.PBMTE the field is.
    if (pbmt == 3 || (pbmt && !(hot_.s.menvcfg & envcfg::PBMTE))) throw TrapException{pf, va};
    if (!kDebug && !pte_permits(pte, access, p)) throw TrapException{pf, va};
    if (i > 0 && (ppn & ((1ull << (9 * i)) - 1))) throw TrapException{pf, va};  // misaligned superpage
    // Svnapot: only 64 KiB pages (a 4 KiB leaf with ppn[3:0] = 1000) are
    // defined; the page of the range that va falls in.
    if (napot) {
      if (i > 0 || (ppn & 0xF) != 8) throw TrapException{pf, va};
      ppn = (ppn & ~0xFull) | ((va >> 12) & 0xF);
    }
    const uint64_t updated = kDebug ? pte : pte | A | ((access & kAccessWrite) ? D : 0);
    if (updated != pte) pte = pte_access(pte_addr, &updated, af, va);
    TlbEntry e;
    e.tag = va >> (12 + 9 * i);
    e.ppn = ppn & ~((1ull << (9 * i)) - 1);
    e.asid = asid;
    e.level = static_cast<uint8_t>(i);
    e.flags = static_cast<uint8_t>(updated);
    e.pbmt = pbmt;
    e.valid = true;
    return e;
  }
  throw TrapException{pf, va};  // no leaf at level 0
}

bool Hart::debug_translate(uint64_t va, uint64_t& pa, std::string& why) {
  if (!vm_on()) {
    pa = va;
    return true;
  }
  const unsigned bits = (hot_.s.satp >> 60) == kSatpSv39 ? 39 : 48;
  if (static_cast<uint64_t>(static_cast<int64_t>(va << (64 - bits)) >> (64 - bits)) != va) {
    why = "not a canonical Sv" + std::to_string(bits) + " address";
    return false;
  }
  try {
    pa = walk_tables<true>(va, kAccessRead, hot_.s.priv, static_cast<uint16_t>(hot_.s.satp >> 44)).pa(va);
    return true;
  } catch (const TrapException& t) {
    why = t.cause == kLoadAccessFault ? "a page-table entry is not readable memory" : "no valid mapping (page fault)";
    return false;
  }
}

uint64_t Hart::translate(uint64_t va, unsigned access, Priv p) {
  const unsigned bits = (hot_.s.satp >> 60) == kSatpSv39 ? 39 : 48;
  // Bits above the virtual address width must all equal its top bit.
  if (static_cast<uint64_t>(static_cast<int64_t>(va << (64 - bits)) >> (64 - bits)) != va) {
    ++mmu_stats_.page_faults;
    throw TrapException{page_fault(access), va};
  }
  const uint16_t asid = static_cast<uint16_t>(hot_.s.satp >> 44);
  if (TlbEntry* e = tlb_.lookup(va, asid)) {
    if (pte_permits(e->flags, access, p) && (!(access & kAccessWrite) || (e->flags & D))) {
      ++mmu_stats_.tlb_hits;
      page_pbmt_ = e->pbmt;
      tlb_until_ = tlb_.replaced_at(*e);
      return e->pa(va);
    }
    e->valid = false;  // walk again: the fault, or the D bit, comes from memory
    forget_cached_pages_of(*e);  // they stood for its translation
  } else {
    ++mmu_stats_.tlb_misses;
  }
  try {
    const TlbEntry e = walk(va, access, p, asid);
    forget_regions_of(tlb_.victim());
    tlb_until_ = tlb_.insert(e);
    page_pbmt_ = e.pbmt;
    return e.pa(va);
  } catch (const TrapException& t) {
    if (t.cause == page_fault(access)) ++mmu_stats_.page_faults;
    throw;
  }
}

uint64_t Hart::fetch_address(uint64_t va) {
  page_pbmt_ = 0;
  tlb_until_ = ~0ull;
  return vm_on() && hot_.s.priv != PRV_M ? translate(va, kAccessExec, hot_.s.priv) : va;
}

// A decoded block holds its fetch translation as long as the TLB holds the
// entry it came from, as a fast data region does (forget_regions_of): once
// the entry is replaced, entering the block looks its page up again (a hit
// when another access brought it back, else a walk, which may fault). After
// a change of translation (a block not live_), that lookup also checks where
// the page leads now: the block stays while its pages map to the same
// physical pages with the same attributes and its code there is what it
// decoded (fence.i compares only live blocks); else the block decoded from
// where they lead replaces it. The lookups are those decoding the block
// afresh would make.
const Hart::Block& Hart::translate_fetch_again(const Block& b) {
  const FetchPage page{fetch_address(b.pc), tlb_until_, page_pbmt_ != 0};
  const bool recheck = !b.live;
  if (recheck && (page.pa != b.ppc || page.uncached != b.fetch_uncached)) return decode_again(b, page, nullptr);
  uint64_t until = page.until;
  if (b.ppc_tail == ~0ull) {
    if (recheck && code_changed(b)) return decode_again(b, page, nullptr);
  } else {  // its one instruction crosses into the next page (translated only while it still does)
    uint16_t lo = 0;
    if (recheck && (!fetch_read(b.ppc, &lo, 2) || lo != (b.insns[0].raw & 0xFFFF)))
      return decode_again(b, page, nullptr);
    const FetchPage tail{fetch_address(b.pc + 2), tlb_until_};
    if (recheck && (tail.pa != b.ppc_tail || code_changed(b))) return decode_again(b, page, &tail);
    until = std::min(until, tail.until);
  }
  b.tlb_until = until;
  if (recheck) make_live(b);
  return b;
}

uint64_t Hart::translate_data(uint64_t va, unsigned len, unsigned access, Priv p, bool* page_ok) {
  page_pbmt_ = 0;
  const uint64_t pa = vm_on() && p != PRV_M ? translate(va, access, p) : va;
  if (!pmp_.active_for(p)) {
    if (page_ok) *page_ok = true;
  } else if (page_ok && pmp_.allows(pa & ~(kPage - 1), kPage, p, access)) {
    *page_ok = true;
  } else if (!pmp_.allows(pa, len, p, access)) {
    throw TrapException{access_fault(access), va};
  }
  return pa;
}

DmiRegion* Hart::page_of(DmiRegion* pair, uint64_t va, unsigned len) {
  for (int i = 0; i < 2; ++i) {
    if (va - pair[i].base < pair[i].size && pair[i].size - (va - pair[i].base) >= len) {
      if (i) std::swap(pair[0], pair[1]);
      return &pair[0];
    }
  }
  return nullptr;
}

bool Hart::reuse_checked_page(bool write, uint64_t va, unsigned len) {
  const DmiRegion* page = (write ? page_regions_wr_ : page_regions_rd_).find(va, len);
  if (!page) return false;
  if (vm_on() && data_priv() != PRV_M) ++mmu_stats_.tlb_hits;  // the translation its region stands for
  DmiRegion& in_use = write ? hot_.wr : hot_.rd;
  (write ? wr2_ : rd2_) = in_use;
  in_use = *page;
  return true;
}

void Hart::checked_access(bool write, uint64_t va, void* buf, unsigned len) {
  const unsigned access = write ? kAccessWrite : kAccessRead;
  const uint64_t fault = access_fault(access);
  if (const DmiRegion* page = page_of(write ? pages_wr_ : pages_rd_, va, len)) {  // as a fast region would
    phys_access(write, va + page->pa_delta, buf, len, fault, va);
    return;
  }
  const Priv p = data_priv();
  const uint64_t off = va & (kPage - 1);
  if (off + len > kPage) {  // crosses a page: both halves are checked before any byte moves
    const unsigned first = static_cast<unsigned>(kPage - off);
    const uint64_t pa0 = translate_data(va, first, access, p);
    const bool uncached0 = page_pbmt_ != 0;
    const uint64_t pa1 = translate_data(va + first, len - first, access, p);
    const bool uncached1 = page_pbmt_ != 0;
    phys_access(write, pa0, buf, first, fault, va, uncached0);
    phys_access(write, pa1, static_cast<uint8_t*>(buf) + first, len - first, fault, va + first, uncached1);
    return;
  }
  bool page_ok = false;
  const uint64_t pa = translate_data(va, len, access, p, &page_ok);
  const bool uncached = page_pbmt_ != 0;  // an NC or IO page: not a fast region, its accesses bypass the D-cache
  const uint64_t ppage = pa & ~(kPage - 1);
  if (page_ok && !uncached) {
    if (DmiRegion* r = find_dmi(ppage, write); r && r->size - (ppage - r->base) >= kPage) {
      DmiRegion page = *r;
      page.base = va & ~(kPage - 1);
      page.size = kPage;
      page.ptr = r->ptr + (ppage - r->base);
      page.pa_delta = ppage - page.base;
      (write ? page_regions_wr_ : page_regions_rd_).insert(page);
      if (write) {
        wr2_ = hot_.wr;
        hot_.wr = page;
      } else {
        rd2_ = hot_.rd;
        hot_.rd = page;
      }
    } else if (cacheable(ppage, 8, false)) {  // memory without DMI: the page, for the translation only
      DmiRegion* pair = write ? pages_wr_ : pages_rd_;
      pair[1] = pair[0];
      pair[0] = DmiRegion{va & ~(kPage - 1), kPage, nullptr, !write, write, false, ppage - (va & ~(kPage - 1))};
    }
  }
  phys_access(write, pa, buf, len, fault, va, uncached);
}

}  // namespace avp
