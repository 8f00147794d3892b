// What stands on address translation and physical memory protection in the
// hart (the Mmu, mmu.h, translates and checks; the DataPath, data_path.h,
// keeps the fast regions of checked loads and stores): the fetch regime, the
// decoded blocks' fetch translations, what drops the fast regions.
//
// Every change that could alter a translation or a check (privilege, mstatus,
// satp, SFENCE.VMA, PMP writes) drops the fast regions; PMP writes also drop
// the decoded blocks of checked fetches, and satp and SFENCE.VMA make each of
// them check its pages' translation at its next entry. A and D bits are set
// by the page-table walker (the walker writes the PTE back through the bus);
// docs/harts.md.
#include <algorithm>

#include "harts/hart.h"
#include "harts/hart_cluster.h"

namespace avp {

using namespace rv;

void Hart::configure_triggers(unsigned count) {
  if (count == triggers_.count()) triggers_.reset_software();
  else triggers_.configure(count);
}

void Hart::update_xlate() {
  const bool fetch_checked = mmu_.translates(hot_.s.priv) || mmu_.pmp().active_for(hot_.s.priv);
  hot_.fetch_key = fetch_checked ? static_cast<uint8_t>(1 + hot_.s.priv) : 0;
  data_.update_checked();
}

// The running block ends after this instruction, the next one is entered
// afresh; the blocks of checked fetches stay decoded and translated, each
// checked at its next entry (BlockCache::expire_live, translate_fetch_again), as
// QEMU keeps its translation blocks across TLB flushes.
void Hart::translation_changed() {
  data_.forget_regions();
  if (blocks_.expire_live()) hot_.block_abort = true;
}

// A block does not check the PMP again at its entry: the blocks go, at the
// next block boundary when one of them may be running, else now.
void Hart::protection_changed() {
  data_.forget_regions();
  if (blocks_.forget_checked()) hot_.block_abort = true;
}

void Hart::sfence(const Insn& d) {
  mmu_.sfence(d.rs1 != 0, hot_.s.x[d.rs1], d.rs2 != 0, static_cast<uint16_t>(hot_.s.x[d.rs2]));
  translation_changed();
}

bool Hart::renew_fetch_translation(const Block& b) {
  if (b.ppc_tail != ~0ull || !mmu_.translates(hot_.s.priv)) return false;
  const std::optional<PageTranslation> page = mmu_.held(b.pc, kAccessExec, hot_.s.priv);
  if (!page || page->pa != b.ppc || page->uncached != b.fetch_uncached) return false;
  // After a change of translation (b not live): kept when the memory's
  // write counts show its code unchanged, as code_changed first asks;
  // comparing its bytes, or decoding it again, is the kernel's.
  if (!b.live) {
    if (!code_writes_unchanged(b, code_writes_of(b))) return false;
    blocks_.make_live(b);
  }
  mmu_.count_tlb_hits(1);
  b.tlb_until = page->until;
  return true;
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

}  // namespace avp
