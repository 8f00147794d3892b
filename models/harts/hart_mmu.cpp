// What stands on address translation and physical memory protection in the
// hart (the Mmu, mmu.h, translates and checks): the fast regions of checked
// loads and stores, the decoded blocks' fetch translations, the walks' PTE
// accesses on the bus.
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
}  // namespace

void Hart::configure_triggers(unsigned count) {
  if (count == triggers_.count()) triggers_.reset_software();
  else triggers_.configure(count);
}

void Hart::update_xlate() {
  const Priv dp = data_priv();
  const bool fetch_checked = mmu_.translates(hot_.s.priv) || mmu_.pmp().active_for(hot_.s.priv);
  hot_.fetch_key = fetch_checked ? static_cast<uint8_t>(1 + hot_.s.priv) : 0;
  uint32_t key = 0;
  if (mmu_.translates(dp) || mmu_.pmp().active_for(dp))
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
void Hart::tlb_replacing(const TlbEntry& e) {
  if (!e.valid) return;
  const uint64_t base = e.va_base(), bytes = e.page_bytes();
  for (DmiRegion* r : {&hot_.rd, &rd2_, &hot_.wr, &wr2_, &pages_rd_[0], &pages_rd_[1], &pages_wr_[0], &pages_wr_[1]})
    if (r->size && r->base - base < bytes) *r = DmiRegion{};
  tlb_rewalking(e);  // the cached pages too, as when e is walked again
}

void Hart::tlb_rewalking(const TlbEntry& e) {
  page_regions_rd_.forget_range(e.va_base(), e.page_bytes());
  page_regions_wr_.forget_range(e.va_base(), e.page_bytes());
}

// The running block ends after this instruction, the next one is entered
// afresh; the blocks of checked fetches stay decoded and translated, each
// checked at its next entry (BlockCache::expire_live, translate_fetch_again), as
// QEMU keeps its translation blocks across TLB flushes.
void Hart::translation_changed() {
  forget_regions();
  if (blocks_.expire_live()) hot_.block_abort = true;
}

// A block does not check the PMP again at its entry: the blocks go, at the
// next block boundary when one of them may be running, else now.
void Hart::protection_changed() {
  forget_regions();
  if (blocks_.forget_checked()) hot_.block_abort = true;
}

void Hart::sfence(const Insn& d) {
  mmu_.sfence(d.rs1 != 0, hot_.s.x[d.rs1], d.rs2 != 0, static_cast<uint16_t>(hot_.s.x[d.rs2]));
  translation_changed();
}

// A page-table access of the Mmu's walk: read (write == nullptr) or write back *write.
uint64_t Hart::pte_access(uint64_t pa, const uint64_t* write, uint64_t fault_cause, uint64_t tval) {
  // Uncached, bypassing the L1 data cache model: the bus and the memory time it.
  uint64_t v = write ? *write : 0;
  if (DmiRegion* r = find_dmi(pa, write != nullptr); r && r->size - (pa - r->base) >= 8) {
    if (write) std::memcpy(r->ptr + (pa - r->base), &v, 8);
    else std::memcpy(&v, r->ptr + (pa - r->base), 8);
    if (!functional_) add_memory_time(bus_timing_.traffic(pa, write != nullptr, 8, false));
  } else if (functional_) {  // untimed, as with DMI (phys_access calls after_store)
    phys_access(write != nullptr, pa, &v, 8, fault_cause, tval);
    return v;
  } else {
    transport(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, pa, &v, 8, fault_cause, tval);
  }
  if (write) after_store(pa, 8);
  return v;
}

// A decoded block holds its fetch translation as long as the TLB holds the
// entry it came from, as a fast data region does (tlb_replacing): once
// the entry is replaced, entering the block looks its page up again (a hit
// when another access brought it back, else a walk, which may fault). After
// a change of translation (a block not live), that lookup also checks where
// the page leads now: the block stays while its pages map to the same
// physical pages with the same attributes and its code there is what it
// decoded (fence.i compares only live blocks); else the block decoded from
// where they lead replaces it. The lookups are those decoding the block
// afresh would make.
const Hart::Block& Hart::translate_fetch_again(const Block& b) {
  const PageTranslation page = mmu_.translate_fetch(b.pc);
  const bool recheck = !b.live;
  if (recheck && (page.pa != b.ppc || page.uncached != b.fetch_uncached)) return decode_again(b, page, nullptr);
  uint64_t until = page.until;
  if (b.ppc_tail == ~0ull) {
    if (recheck && code_changed(b)) return decode_again(b, page, nullptr);
  } else {  // its one instruction crosses into the next page (translated only while it still does)
    uint16_t lo = 0;
    if (recheck && (!fetch_read(b.ppc, &lo, 2) || lo != (b.insns[0].raw & 0xFFFF)))
      return decode_again(b, page, nullptr);
    const PageTranslation tail = mmu_.translate_fetch(b.pc + 2);
    if (recheck && (tail.pa != b.ppc_tail || code_changed(b))) return decode_again(b, page, &tail);
    until = std::min(until, tail.until);
  }
  b.tlb_until = until;
  if (recheck) blocks_.make_live(b);
  return b;
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
  if (mmu_.translates(data_priv())) mmu_.count_tlb_hits(1);  // the translation its region stands for
  DmiRegion& in_use = write ? hot_.wr : hot_.rd;
  (write ? wr2_ : rd2_) = in_use;
  in_use = *page;
  return true;
}

void Hart::checked_access(bool write, uint64_t va, void* buf, unsigned len) {
  const unsigned access = write ? kAccessWrite : kAccessRead;
  const uint64_t fault = access_fault_cause(access);
  if (const DmiRegion* page = page_of(write ? pages_wr_ : pages_rd_, va, len)) {  // as a fast region would
    phys_access(write, va + page->pa_delta, buf, len, fault, va);
    return;
  }
  const Priv p = data_priv();
  const uint64_t off = va & (kPage - 1);
  if (off + len > kPage) {  // crosses a page: both halves are checked before any byte moves
    const unsigned first = static_cast<unsigned>(kPage - off);
    const PageTranslation t0 = mmu_.translate_data(va, first, access, p);
    const PageTranslation t1 = mmu_.translate_data(va + first, len - first, access, p);
    phys_access(write, t0.pa, buf, first, fault, va, t0.uncached);
    phys_access(write, t1.pa, static_cast<uint8_t*>(buf) + first, len - first, fault, va + first, t1.uncached);
    return;
  }
  bool page_ok = false;
  const PageTranslation t = mmu_.translate_data(va, len, access, p, &page_ok);
  const uint64_t pa = t.pa;
  const bool uncached = t.uncached;  // an NC or IO page: not a fast region, its accesses bypass the D-cache
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
    } else if (bus_timing_.cacheable(ppage, 8, false)) {  // memory without DMI: the page, for the translation only
      DmiRegion* pair = write ? pages_wr_ : pages_rd_;
      pair[1] = pair[0];
      pair[0] = DmiRegion{va & ~(kPage - 1), kPage, nullptr, !write, write, false, ppage - (va & ~(kPage - 1))};
    }
  }
  phys_access(write, pa, buf, len, fault, va, uncached);
}

}  // namespace avp
