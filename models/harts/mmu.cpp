// The Mmu's walks and the parts of its translations off the TLB hit (mmu.h).
#include "harts/mmu.h"

#include "harts/trap_exception.h"

namespace avp {

using namespace rv;

namespace {
constexpr uint64_t kPage = 4096;
constexpr uint64_t kPpnMask = (1ull << 44) - 1;
}  // namespace

void Mmu::non_canonical(uint64_t va, unsigned access) {
  ++stats_.page_faults;
  throw TrapException{page_fault_cause(access), va};
}

PageTranslation Mmu::walk_again(TlbEntry& e, uint64_t va, unsigned access, Priv p) {
  users_.tlb_rewalking(e);  // the fault, or the D bit, comes from memory
  e.valid = false;
  return walk_into_tlb(va, access, p);
}

PageTranslation Mmu::walk_into_tlb(uint64_t va, unsigned access, Priv p) {
  try {
    ++stats_.page_walks;
    const TlbEntry e = walk<false>(va, access, p);
    users_.tlb_replacing(tlb_.victim());
    return {e.pa(va), tlb_.insert(e), e.pbmt != 0};
  } catch (const TrapException& t) {
    if (t.cause == page_fault_cause(access)) ++stats_.page_faults;
    throw;
  }
}

void Mmu::check_pmp(uint64_t pa, uint64_t va, unsigned len, unsigned access, Priv p, bool* page_ok) const {
  if (page_ok && pmp_.allows(pa & ~(kPage - 1), kPage, p, access)) *page_ok = true;
  else if (!pmp_.allows(pa, len, p, access)) throw TrapException{access_fault_cause(access), va};
}

// A page-table access: read (write == nullptr) or write back *write. PMP
// checks it as an S-mode access; a failure is an access fault of the access
// that needed the walk.
uint64_t Mmu::pte_access(uint64_t pa, const uint64_t* write, uint64_t fault_cause, uint64_t tval) {
  const unsigned access = write ? kAccessWrite : kAccessRead;
  if (pmp_.active_for(PRV_S) && !pmp_.allows(pa, 8, PRV_S, access)) throw TrapException{fault_cause, tval};
  const uint64_t v = memory_.pte_access(pa, write, fault_cause, tval);
  if (!write) ++stats_.pte_reads;
  return v;
}

// The page-table walk of the privileged spec (section "Virtual Address Translation Process").
template <bool kDebug>
TlbEntry Mmu::walk(uint64_t va, unsigned access, Priv p) {
  using namespace pte;
  const unsigned levels = va_bits() == 39 ? 3 : 4;
  const uint64_t pf = page_fault_cause(access), af = access_fault_cause(access);
  uint64_t table = (s_.satp & kPpnMask) * kPage;
  for (int i = static_cast<int>(levels) - 1; i >= 0; --i) {
    const uint64_t pte_addr = table + ((va >> (12 + 9 * i)) & 511) * 8;
    uint64_t pte = 0;
    if constexpr (kDebug) {
      if (!memory_.debug_read(pte_addr, &pte, 8)) throw TrapException{af, pte_addr};
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
    if (pbmt == 3 || (pbmt && !(s_.menvcfg & envcfg::PBMTE))) throw TrapException{pf, va};
    if (!kDebug && !pte_permits(pte, access, p)) throw TrapException{pf, va};
    if (i > 0 && (ppn & ((1ull << (9 * i)) - 1))) throw TrapException{pf, va};  // misaligned superpage
    // Svnapot: only 64 KiB pages (a 4 KiB leaf with ppn[3:0] = 1000) are
    // defined; the page of the range that va falls in.
    if (napot) {
      if (i > 0 || (ppn & 0xF) != 8) throw TrapException{pf, va};
      ppn = (ppn & ~0xFull) | ((va >> 12) & 0xF);
    }
    const uint64_t updated = kDebug ? pte : pte | A | ((access & kAccessWrite) ? D : 0);
    if (updated != pte) pte_access(pte_addr, &updated, af, va);
    TlbEntry e;
    e.tag = va >> (12 + 9 * i);
    e.ppn = ppn & ~((1ull << (9 * i)) - 1);
    e.asid = asid();
    e.level = static_cast<uint8_t>(i);
    e.flags = static_cast<uint8_t>(updated);
    e.pbmt = pbmt;
    e.valid = true;
    return e;
  }
  throw TrapException{pf, va};  // no leaf at level 0
}

bool Mmu::debug_translate(uint64_t va, uint64_t& pa, std::string& why) {
  if (!vm_on()) {
    pa = va;
    return true;
  }
  if (!canonical(va)) {
    why = "not a canonical Sv" + std::to_string(va_bits()) + " address";
    return false;
  }
  try {
    pa = walk<true>(va, kAccessRead, s_.priv).pa(va);
    return true;
  } catch (const TrapException& t) {
    why = t.cause == kLoadAccessFault ? "a page-table entry is not readable memory" : "no valid mapping (page fault)";
    return false;
  }
}

}  // namespace avp
