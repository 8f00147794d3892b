// The Mmu on its own: Sv39/Sv48 walks over page tables in a fake memory
// that counts its accesses, the TLB, SFENCE.VMA, the PMP on page-table
// accesses, debug_translate, Svnapot and Svpbmt.
#include <gtest/gtest.h>

#include <vector>

#include "harts/mmu.h"
#include "harts/trap_exception.h"

namespace avp {
namespace {

using namespace rv;

constexpr uint64_t kMemBase = 0x8000'0000, kMemBytes = 1 << 20, kPage = 4096;
constexpr unsigned kSv39 = 8, kSv48 = 9;
constexpr uint64_t kNapot = 1ull << 63;
constexpr uint64_t pbmt(uint64_t v) { return v << 61; }

// Page-table memory: 1 MiB of 64-bit words at kMemBase; an access elsewhere is refused.
class FakeMemory : public PageTableMemory {
 public:
  uint64_t pte_access(uint64_t pa, const uint64_t* write, uint64_t fault_cause, uint64_t tval) override {
    if (!holds(pa)) throw TrapException{fault_cause, tval};
    if (write) {
      ++writes;
      return word(pa) = *write;
    }
    ++reads;
    return word(pa);
  }
  bool debug_read(uint64_t pa, void* dst, unsigned len) override {
    if (len != 8 || !holds(pa)) return false;
    ++debug_reads;
    *static_cast<uint64_t*>(dst) = word(pa);
    return true;
  }
  uint64_t& word(uint64_t pa) { return words_.at((pa - kMemBase) / 8); }
  uint64_t new_table() {  // a zeroed page
    const uint64_t pa = kMemBase + next_++ * kPage;
    EXPECT_LE(pa + kPage, kMemBase + kMemBytes);
    return pa;
  }
  unsigned reads = 0, writes = 0, debug_reads = 0;

 private:
  static bool holds(uint64_t pa) { return pa - kMemBase < kMemBytes && pa % 8 == 0; }
  std::vector<uint64_t> words_ = std::vector<uint64_t>(kMemBytes / 8);
  uint64_t next_ = 0;
};

class RecordingUsers : public TlbUsers {
 public:
  void tlb_replacing(const TlbEntry& e) override {
    if (e.valid) replaced.push_back(e.va_base());
  }
  void tlb_rewalking(const TlbEntry& e) override { rewalked.push_back(e.va_base()); }
  std::vector<uint64_t> replaced, rewalked;  // the entries' virtual bases
};

class MmuTest : public ::testing::Test {
 protected:
  static constexpr unsigned kTlbEntries = 4;

  void SetUp() override {
    mmu.configure(kTlbEntries, 16, 0);
    s.priv = PRV_S;
    use_satp(kSv39, 0);
  }
  void use_satp(unsigned mode, uint16_t asid) {
    root = mem.new_table();
    s.satp = uint64_t{mode} << 60 | uint64_t{asid} << 44 | root / kPage;
  }
  unsigned levels() const { return (s.satp >> 60) == kSv39 ? 3 : 4; }
  // Maps va to pa with a leaf at `level` (0: 4 KiB) holding `flags` (V added), making the tables on the way.
  uint64_t& map(uint64_t va, uint64_t pa, uint64_t flags, unsigned level = 0) {
    uint64_t table = root;
    for (unsigned i = levels() - 1; i > level; --i) {
      uint64_t& pte = mem.word(table + ((va >> (12 + 9 * i)) & 511) * 8);
      if (!(pte & pte::V)) pte = mem.new_table() / kPage << 10 | pte::V;
      table = (pte >> 10) * kPage;
    }
    uint64_t& leaf = mem.word(table + ((va >> (12 + 9 * level)) & 511) * 8);
    leaf = (pa / kPage) << 10 | flags | pte::V;
    return leaf;
  }
  uint64_t load(uint64_t va) { return mmu.translate_data(va, 8, kAccessRead, s.priv).pa; }
  uint64_t store(uint64_t va) { return mmu.translate_data(va, 8, kAccessWrite, s.priv).pa; }
  // The cause and tval of the fault an access takes (0, 0: none).
  TrapException fault_of(uint64_t va, unsigned access) {
    try {
      if (access & kAccessExec) mmu.translate_fetch(va);
      else mmu.translate_data(va, 8, access, s.priv);
    } catch (const TrapException& t) {
      return t;
    }
    return {0, 0};
  }

  HartState s;
  uint64_t inserts = 0;
  FakeMemory mem;
  RecordingUsers users;
  Mmu mmu{s, inserts, mem, users};
  uint64_t root = 0;
  static constexpr uint64_t kRWAD = pte::R | pte::W | pte::A | pte::D;
  static constexpr uint64_t kAll = kRWAD | pte::X;
};

TEST_F(MmuTest, Sv39WalksThreeLevelsToA4KiBPage) {
  map(0x4000'1000, 0x9000'3000, kRWAD);
  const PageTranslation t = mmu.translate_data(0x4000'1123, 8, kAccessRead, PRV_S);
  EXPECT_EQ(t.pa, 0x9000'3123u);
  EXPECT_FALSE(t.uncached);
  EXPECT_EQ(t.until, 1u + kTlbEntries);  // its entry is the first insert; FIFO keeps it for 4 more
  EXPECT_EQ(mem.reads, 3u);
  EXPECT_EQ(mem.writes, 0u);  // A and D set already
  EXPECT_EQ(inserts, 1u);
  const MmuStats& st = mmu.stats();
  EXPECT_EQ(st.tlb_misses, 1u);
  EXPECT_EQ(st.page_walks, 1u);
  EXPECT_EQ(st.pte_reads, 3u);
  EXPECT_EQ(st.tlb_hits, 0u);
  EXPECT_EQ(st.page_faults, 0u);
}

TEST_F(MmuTest, Sv48WalksFourLevels) {
  use_satp(kSv48, 0);
  map(0x7f'1234'5000, 0x9000'5000, kRWAD);
  EXPECT_EQ(load(0x7f'1234'5008), 0x9000'5008u);
  EXPECT_EQ(mem.reads, 4u);
  EXPECT_EQ(mmu.stats().pte_reads, 4u);
  // Sv48 addresses above bit 38 are canonical; above bit 47 they must sign-extend it.
  EXPECT_EQ(fault_of(0x1000'0000'0000'0000, kAccessRead).cause, kLoadPageFault);
}

TEST_F(MmuTest, SuperpagesMapTwoMiBAndOneGiB) {
  map(0x4020'0000, 0xa040'0000, kRWAD, 1);  // 2 MiB
  EXPECT_EQ(load(0x4031'2345 & ~7ull), 0xa051'2340u);
  EXPECT_EQ(mem.reads, 2u);
  EXPECT_EQ(load(0x403f'fff8), 0xa05f'fff8u);  // the same entry covers the whole superpage
  EXPECT_EQ(mem.reads, 2u);
  EXPECT_EQ(mmu.stats().tlb_hits, 1u);

  map(0x1'4000'0000, 0x1'c000'0000, kRWAD, 2);  // 1 GiB
  EXPECT_EQ(load(0x1'7abc'def0), 0x1'fabc'def0u);
  EXPECT_EQ(mem.reads, 3u);  // one PTE
}

TEST_F(MmuTest, MisalignedSuperpageIsAPageFault) {
  map(0x4020'0000, 0xa040'1000, kRWAD, 1);  // a 2 MiB leaf whose ppn[0] is not zero
  const TrapException t = fault_of(0x4020'0010, kAccessRead);
  EXPECT_EQ(t.cause, kLoadPageFault);
  EXPECT_EQ(t.tval, 0x4020'0010u);
  EXPECT_EQ(mmu.stats().page_faults, 1u);
  EXPECT_EQ(inserts, 0u);
}

TEST_F(MmuTest, BadPtesArePageFaultsOfTheAccess) {
  s.priv = PRV_U;
  const uint64_t va = 0x4000'2000;
  uint64_t& leaf = map(va, 0x9000'0000, kAll | pte::U);
  leaf &= ~pte::V;  // invalid
  const TrapException load = fault_of(va + 8, kAccessRead), store = fault_of(va + 16, kAccessWrite),
                      fetch = fault_of(va + 4, kAccessExec);
  EXPECT_EQ(load.cause, kLoadPageFault);
  EXPECT_EQ(load.tval, va + 8);
  EXPECT_EQ(store.cause, kStorePageFault);
  EXPECT_EQ(store.tval, va + 16);
  EXPECT_EQ(fetch.cause, kInsnPageFault);
  EXPECT_EQ(fetch.tval, va + 4);

  leaf = (leaf | pte::V | pte::W) & ~pte::R;  // W without R
  EXPECT_EQ(fault_of(va, kAccessRead).cause, kLoadPageFault);
  leaf |= pte::R | 1ull << 54;  // a reserved bit
  EXPECT_EQ(fault_of(va, kAccessWrite).cause, kStorePageFault);
  leaf &= ~(1ull << 54);
  EXPECT_EQ(fault_of(va, kAccessWrite).cause, 0u);
  EXPECT_EQ(mmu.stats().page_faults, 5u);
}

TEST_F(MmuTest, UserAndSupervisorPagesWithSumAndMxr) {
  const uint64_t user = 0x4000'0000, super = 0x4000'1000, exec_only = 0x4000'2000;
  map(user, 0x9000'0000, kAll | pte::U);
  map(super, 0x9000'1000, kAll);
  map(exec_only, 0x9000'2000, pte::X | pte::A);

  EXPECT_EQ(fault_of(user, kAccessRead).cause, kLoadPageFault);  // S without SUM
  s.mstatus |= mstatus::SUM;
  EXPECT_EQ(load(user), 0x9000'0000u);
  EXPECT_EQ(store(user), 0x9000'0000u);
  EXPECT_EQ(fault_of(user, kAccessExec).cause, kInsnPageFault);  // never S code on a U page

  s.priv = PRV_U;
  EXPECT_EQ(fault_of(super, kAccessRead).cause, kLoadPageFault);
  EXPECT_EQ(fault_of(super, kAccessExec).cause, kInsnPageFault);
  EXPECT_EQ(mmu.translate_fetch(user).pa, 0x9000'0000u);

  s.priv = PRV_S;
  EXPECT_EQ(fault_of(exec_only, kAccessRead).cause, kLoadPageFault);
  s.mstatus |= mstatus::MXR;  // loads may read executable pages
  EXPECT_EQ(load(exec_only), 0x9000'2000u);
  EXPECT_EQ(fault_of(exec_only, kAccessWrite).cause, kStorePageFault);
}

TEST_F(MmuTest, TheWalkSetsAAndDOnceEach) {
  const uint64_t va = 0x4000'3000;
  uint64_t& leaf = map(va, 0x9000'3000, pte::R | pte::W);
  EXPECT_EQ(load(va), 0x9000'3000u);
  EXPECT_EQ(leaf & (pte::A | pte::D), pte::A);  // a load sets A only
  EXPECT_EQ(mem.writes, 1u);
  EXPECT_EQ(load(va + 8), 0x9000'3008u);  // a hit
  EXPECT_EQ(mem.writes, 1u);

  // A store hitting the entry without D walks again and sets D.
  EXPECT_EQ(store(va + 16), 0x9000'3010u);
  EXPECT_EQ(leaf & (pte::A | pte::D), pte::A | pte::D);
  EXPECT_EQ(mem.writes, 2u);
  EXPECT_EQ(users.rewalked, std::vector<uint64_t>{va});
  EXPECT_EQ(mmu.stats().page_walks, 2u);
  EXPECT_EQ(mmu.stats().pte_reads, 6u);  // the write-backs are not reads
  EXPECT_EQ(store(va + 24), 0x9000'3018u);  // D cached now
  EXPECT_EQ(mem.writes, 2u);
  EXPECT_EQ(mmu.stats().page_walks, 2u);
  EXPECT_EQ(mmu.stats().tlb_hits, 2u);
}

TEST_F(MmuTest, TlbHitsNeedNoWalk) {
  map(0x4000'4000, 0x9000'4000, kRWAD);
  load(0x4000'4000);
  const unsigned reads = mem.reads;
  for (int i = 0; i < 5; ++i) EXPECT_EQ(load(0x4000'4000 + 8 * i), 0x9000'4000u + 8 * i);
  EXPECT_EQ(mem.reads, reads);
  EXPECT_EQ(mmu.stats().tlb_hits, 5u);
  EXPECT_EQ(mmu.stats().tlb_misses, 1u);
  EXPECT_EQ(mmu.stats().page_walks, 1u);
}

TEST_F(MmuTest, FifoReplacement) {
  for (uint64_t i = 0; i < 5; ++i) map(0x4000'0000 + i * kPage, 0x9000'0000 + i * kPage, kRWAD);
  for (uint64_t i = 0; i < 4; ++i) load(0x4000'0000 + i * kPage);
  EXPECT_TRUE(users.replaced.empty());  // free slots
  load(0x4000'4000);  // the fifth replaces the first
  EXPECT_EQ(users.replaced, std::vector<uint64_t>{0x4000'0000});
  EXPECT_EQ(mmu.stats().tlb_misses, 5u);
  load(0x4000'1000);  // still held
  EXPECT_EQ(mmu.stats().tlb_hits, 1u);
  load(0x4000'0000);  // walked again, replacing the second (not the least recently used)
  EXPECT_EQ(mmu.stats().tlb_misses, 6u);
  EXPECT_EQ(users.replaced, (std::vector<uint64_t>{0x4000'0000, 0x4000'1000}));
  EXPECT_EQ(inserts, 6u);
  EXPECT_EQ(mmu.tlb_inserts(), 6u);
}

// A lookup answers the first valid entry in array order that maps the page,
// also right after the same page was found: when a newer entry maps it too
// (a superpage walked after the tables changed, no SFENCE), when the entry
// found is flushed, walked again for its D bit or replaced.
TEST_F(MmuTest, LookupsFindTheFirstEntryAfterInsertsFlushesAndWalksAgain) {
  const uint64_t region = 0x4020'0000, page = region + 5 * kPage;
  for (uint64_t i = 0; i < 3; ++i) map(0x4000'0000 + i * kPage, 0x9000'0000 + i * kPage, kRWAD);
  map(page, 0x9000'5000, kRWAD);
  for (uint64_t i = 0; i < 3; ++i) load(0x4000'0000 + i * kPage);  // entries 0..2
  EXPECT_EQ(load(page), 0x9000'5000u);                               // entry 3
  EXPECT_EQ(load(page + 8), 0x9000'5008u);
  EXPECT_EQ(mmu.stats().tlb_hits, 1u);

  map(region, 0xA000'0000, kRWAD, 1);  // the region is now one 2 MiB page; entry 3 is stale
  EXPECT_EQ(load(region + 9 * kPage), 0xA000'9000u);  // walked into entry 0, before entry 3
  EXPECT_EQ(load(page), 0xA000'5000u);
  EXPECT_EQ(mmu.stats().tlb_misses, 5u);

  mmu.sfence(true, page, false, 0);  // both entries of the page
  EXPECT_EQ(load(page), 0xA000'5000u);
  EXPECT_EQ(mmu.stats().tlb_misses, 6u);

  const uint64_t clean = 0x4000'0000;  // entry 2 after the last walk replaced entry 1; not dirty now
  map(clean, 0x9000'0000, kRWAD & ~pte::D);
  mmu.sfence(true, clean, false, 0);
  EXPECT_EQ(load(clean), 0x9000'0000u);
  EXPECT_EQ(load(clean), 0x9000'0000u);
  EXPECT_EQ(mmu.stats().tlb_misses, 7u);
  const unsigned writes = mem.writes;
  EXPECT_EQ(store(clean), 0x9000'0000u);  // walked again: the D bit is set in memory
  EXPECT_EQ(mem.writes, writes + 1);
  EXPECT_EQ(store(clean + 8), 0x9000'0008u);  // the new entry, dirty
  EXPECT_EQ(mem.writes, writes + 1);
  EXPECT_EQ(mmu.stats().page_walks, 8u);

  // Every entry replaced (FIFO) by other pages: the page is walked again, not found where its entry was.
  for (uint64_t i = 0; i < kTlbEntries; ++i) {
    map(0x4010'5000 + i * kPage, 0x9010'5000 + i * kPage, kRWAD);
    load(0x4010'5000 + i * kPage);
  }
  EXPECT_EQ(store(clean + 16), 0x9000'0010u);
  EXPECT_EQ(mmu.stats().page_walks, 13u);
}

// A global 4 KiB entry walked for another ASID comes before the page's
// older entry, which a lookup for the first ASID found just before.
TEST_F(MmuTest, ANewGlobalEntryComesFirstForAPageFoundBefore) {
  use_satp(kSv39, 1);
  const uint64_t va = 0x4000'3000;
  uint64_t& leaf = map(va, 0x9000'3000, kRWAD);
  for (uint64_t i = 0; i < 3; ++i) {
    map(0x4000'0000 + i * kPage, 0x9000'0000 + i * kPage, kRWAD);
    load(0x4000'0000 + i * kPage);  // entries 0..2
  }
  load(va);  // entry 3, ASID 1
  EXPECT_EQ(load(va), 0x9000'3000u);
  leaf = (0x9100'3000 / kPage) << 10 | kRWAD | pte::G | pte::V;  // no SFENCE
  s.satp = (s.satp & ~(0xffffull << 44)) | 2ull << 44;
  EXPECT_EQ(load(va), 0x9100'3000u);  // walked for ASID 2: global, in entry 0
  s.satp = (s.satp & ~(0xffffull << 44)) | 1ull << 44;
  EXPECT_EQ(load(va), 0x9100'3000u);  // entry 0 comes first for ASID 1 too
  EXPECT_EQ(mmu.stats().page_walks, 5u);
}

TEST_F(MmuTest, SfenceByAddressAndByAsidKeepsGlobalEntries) {
  use_satp(kSv39, 1);
  const uint64_t a = 0x4000'0000, b = 0x4000'1000, global = 0x4000'2000;
  map(a, 0x9000'0000, kRWAD);
  map(b, 0x9000'1000, kRWAD);
  map(global, 0x9000'2000, kRWAD | pte::G);
  for (uint64_t va : {a, b, global}) load(va);
  ASSERT_EQ(mmu.stats().tlb_misses, 3u);

  mmu.sfence(true, a, false, 0);
  load(a);
  load(b);
  EXPECT_EQ(mmu.stats().tlb_misses, 4u);  // a only
  EXPECT_EQ(mmu.stats().tlb_hits, 1u);

  mmu.sfence(false, 0, true, 1);
  load(global);
  EXPECT_EQ(mmu.stats().tlb_hits, 2u);  // the global entry stays
  load(b);
  EXPECT_EQ(mmu.stats().tlb_misses, 5u);

  // Another ASID's entries do not match, global ones do.
  s.satp = (s.satp & ~(0xffffull << 44)) | 2ull << 44;
  load(global);
  EXPECT_EQ(mmu.stats().tlb_hits, 3u);
  load(b);
  EXPECT_EQ(mmu.stats().tlb_misses, 6u);
}

TEST_F(MmuTest, PmpDenyingAPteReadIsAnAccessFault) {
  map(0x4000'5000, 0x9000'5000, kRWAD);
  // One TOR entry allowing [0, kMemBase): the page tables lie above it.
  mmu.pmp().write_addr(0, kMemBase >> 2);
  mmu.pmp().write_cfg(0, Pmp::TOR << 3 | Pmp::R | Pmp::W | Pmp::X);
  TrapException t = fault_of(0x4000'5008, kAccessRead);
  EXPECT_EQ(t.cause, kLoadAccessFault);
  EXPECT_EQ(t.tval, 0x4000'5008u);
  EXPECT_EQ(fault_of(0x4000'5008, kAccessWrite).cause, kStoreAccessFault);
  EXPECT_EQ(mem.reads, 0u);
  EXPECT_EQ(mmu.stats().pte_reads, 0u);
  EXPECT_EQ(mmu.stats().page_faults, 0u);
  EXPECT_EQ(mmu.stats().page_walks, 2u);

  // Allowed up to the end of the tables, the walk passes and the data access is checked.
  mmu.pmp().write_addr(0, (kMemBase + kMemBytes) >> 2);
  t = fault_of(0x4000'5008, kAccessRead);
  EXPECT_EQ(t.cause, kLoadAccessFault);  // 0x9000'5008 is above the entry
  EXPECT_EQ(mem.reads, 3u);
  mmu.pmp().write_addr(0, 0x9000'6000 >> 2);
  bool page_ok = false;
  EXPECT_EQ(mmu.translate_data(0x4000'5008, 8, kAccessRead, PRV_S, &page_ok).pa, 0x9000'5008u);
  EXPECT_TRUE(page_ok);
}

TEST_F(MmuTest, DebugTranslateSetsNoBitsAndCountsNothing) {
  uint64_t& leaf = map(0x4000'6000, 0x9000'6000, pte::R);  // no A
  uint64_t pa = 0;
  std::string why;
  EXPECT_TRUE(mmu.debug_translate(0x4000'6abc, pa, why));
  EXPECT_EQ(pa, 0x9000'6abcu);
  EXPECT_EQ(leaf & pte::A, 0u);
  EXPECT_EQ(mem.debug_reads, 3u);
  EXPECT_EQ(mem.reads + mem.writes, 0u);
  EXPECT_EQ(inserts, 0u);
  const MmuStats& st = mmu.stats();
  EXPECT_EQ(st.tlb_hits + st.tlb_misses + st.page_walks + st.pte_reads + st.page_faults, 0u);

  EXPECT_FALSE(mmu.debug_translate(0x4000'7000, pa, why));
  EXPECT_EQ(why, "no valid mapping (page fault)");
  EXPECT_FALSE(mmu.debug_translate(0x80'0000'0000, pa, why));
  EXPECT_EQ(why, "not a canonical Sv39 address");
  EXPECT_EQ(mmu.stats().page_faults, 0u);

  s.satp = 0;  // Bare
  EXPECT_TRUE(mmu.debug_translate(0x1234, pa, why));
  EXPECT_EQ(pa, 0x1234u);
}

TEST_F(MmuTest, Svnapot64KiBPages) {
  // A 64 KiB page at 0x9001'0000: ppn[3:0] = 1000 marks it.
  for (uint64_t i = 0; i < 16; ++i) map(0x4001'0000 + i * kPage, 0x9001'8000, kRWAD | kNapot);
  EXPECT_EQ(load(0x4001'5010), 0x9001'5010u);  // the fifth 4 KiB part
  EXPECT_EQ(load(0x4001'f000), 0x9001'f000u);
  EXPECT_EQ(mmu.stats().page_walks, 2u);  // each part is translated on its own

  map(0x4002'0000, 0x9002'4000, kRWAD | kNapot);  // another N encoding
  EXPECT_EQ(fault_of(0x4002'0000, kAccessRead).cause, kLoadPageFault);
  map(0x4020'0000, 0xa000'0000, kRWAD | kNapot, 1);  // N above level 0
  EXPECT_EQ(fault_of(0x4020'0000, kAccessRead).cause, kLoadPageFault);
}

TEST_F(MmuTest, SvpbmtNeedsPbmte) {
  map(0x4000'8000, 0x9000'8000, kRWAD | pbmt(1));  // NC
  map(0x4000'9000, 0x9000'9000, kRWAD | pbmt(2));  // IO
  map(0x4000'a000, 0x9000'a000, kRWAD | pbmt(3));  // reserved
  EXPECT_EQ(fault_of(0x4000'8000, kAccessRead).cause, kLoadPageFault);
  EXPECT_EQ(fault_of(0x4000'9000, kAccessWrite).cause, kStorePageFault);

  s.menvcfg |= envcfg::PBMTE;
  const PageTranslation nc = mmu.translate_data(0x4000'8008, 8, kAccessRead, PRV_S);
  EXPECT_EQ(nc.pa, 0x9000'8008u);
  EXPECT_TRUE(nc.uncached);
  EXPECT_TRUE(mmu.translate_data(0x4000'9000, 8, kAccessWrite, PRV_S).uncached);
  EXPECT_TRUE(mmu.translate_data(0x4000'8010, 8, kAccessRead, PRV_S).uncached);  // a hit keeps it
  EXPECT_EQ(fault_of(0x4000'a000, kAccessRead).cause, kLoadPageFault);
}

TEST_F(MmuTest, MachineModeAndBareDoNotTranslate) {
  s.priv = PRV_M;
  EXPECT_FALSE(mmu.translates(PRV_M));
  EXPECT_TRUE(mmu.translates(PRV_S));
  EXPECT_EQ(mmu.translate_fetch(0x8000'1234).pa, 0x8000'1234u);
  EXPECT_EQ(mmu.translate_fetch(0x8000'1234).until, ~0ull);
  s.satp = 0;
  s.priv = PRV_U;
  EXPECT_FALSE(mmu.translates(PRV_U));
  EXPECT_EQ(load(0x1000), 0x1000u);
  EXPECT_EQ(mem.reads, 0u);
}

}  // namespace
}  // namespace avp
