// A hart's DataPath (harts/data_path.h) with its DmiRegions, BusTiming and
// Mmu over a fake bus: memory that grants DMI or not and answers probes
// with a timing path, and a device. Loads and stores in the fast regions,
// the two regions in turn, functional and device transactions, the
// read-only range, the slice's limits, the parallel schedule's claimed
// pages, checked (translated) accesses and their page regions, the TLB's replacements, the D-cache's misses and
// flush, and a functional run.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "base/cache_traffic.h"
#include "base/payload.h"
#include "harts/data_path.h"

namespace {

using namespace avp;
using namespace avp::rv;

constexpr uint64_t kBase = 0x80000000, kSize = 0x100000;  // the memory
constexpr uint64_t kDevice = 0x10000000;                  // a device register (reads kDeviceValue)
constexpr uint64_t kDeviceValue = 0x1122334455667788;
constexpr uint64_t kLatencyPs = 40000;                    // a Timing transaction's
constexpr uint64_t kPage = 4096;

struct Transfer {
  uint64_t pa;
  unsigned len;
  bool write;
};

struct FakeBus : sc_core::sc_module, TimingPath {
  tlm_utils::simple_target_socket<FakeBus> socket{"socket"};
  alignas(4096) std::array<uint8_t, kSize> mem{};  // page-aligned, as the platform's memories
  bool grants_dmi = true;
  uint64_t grant_lo = kBase, grant_hi = kBase + kSize - 1;  // what a DMI grant covers
  unsigned dmi_requests = 0, functional = 0, device = 0;
  std::vector<Transfer> timed;  // Timing transactions

  explicit FakeBus(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_b_transport(this, &FakeBus::b_transport);
    socket.register_transport_dbg(this, &FakeBus::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &FakeBus::get_direct_mem_ptr);
  }
  static bool in_memory(uint64_t a) { return a - kBase < kSize; }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    const uint64_t a = gp.get_address();
    if (CacheTrafficExtension* c = cache_traffic(gp); c && c->kind != CacheTrafficExtension::Functional) {
      uint64_t delay_ps = delay.value();
      time(a, gp.get_data_length(), *c, delay_ps);
      delay = sc_core::sc_time::from_value(delay_ps);
      return;
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (in_memory(a)) {
      ++functional;
      EXPECT_TRUE(is_functional(gp));
      uint8_t* p = &mem[a - kBase];
      if (gp.is_write()) std::memcpy(p, gp.get_data_ptr(), gp.get_data_length());
      else std::memcpy(gp.get_data_ptr(), p, gp.get_data_length());
    } else if (a == kDevice && gp.is_read() && gp.get_data_length() == 8) {
      ++device;
      std::memcpy(gp.get_data_ptr(), &kDeviceValue, 8);
      delay += sc_core::sc_time(10, sc_core::SC_NS);
    } else {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    CacheTrafficExtension& c = *cache_traffic(gp);  // probes only
    c.memory = in_memory(gp.get_address());
    if (c.memory) {
      c.path = this;
      c.path_base = kBase;
      c.path_size = kSize;
    }
    return 0;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
    ++dmi_requests;
    if (!grants_dmi || !in_memory(gp.get_address())) return false;
    dmi.set_start_address(grant_lo);
    dmi.set_end_address(grant_hi);
    dmi.set_dmi_ptr(mem.data() + (grant_lo - kBase));
    dmi.allow_read_write();
    return true;
  }
  void time(uint64_t pa, unsigned len, CacheTrafficExtension& c, uint64_t& delay_ps) override {
    timed.push_back({pa, len, c.write});
    delay_ps += kLatencyPs;
  }
  uint64_t word(uint64_t pa) const {
    uint64_t v;
    std::memcpy(&v, &mem[pa - kBase], 8);
    return v;
  }
  void set_word(uint64_t pa, uint64_t v) { std::memcpy(&mem[pa - kBase], &v, 8); }
};

// The hart's side: its socket, hot state, slice, and the DataPath's host
// (transactions at its time, stores it is told of), as the Hart does them.
struct FakeHart : sc_core::sc_module, TrafficTime, PageTableMemory, DataPathHost {
  tlm_utils::simple_initiator_socket<FakeHart> bus{"bus"};
  HartHotState hot;
  SliceState slice;
  std::mutex shared;
  BusTiming timing{bus, *this, slice, shared};
  DmiRegions dmi{bus, make_unit(UnitKind::Hart, 0), 0, hot.dmi_gen, hot.time, slice};
  Mmu mmu{hot.s, hot.tlb_inserts, *this, data};
  // This hart is hart 0 of the claims; what other harts would lose is recorded.
  struct Withdrawal {
    unsigned hart;
    const uint8_t* from;
    uint64_t bytes;
    bool writes_only;
  };
  std::vector<Withdrawal> withdrawn;
  PageClaims claims{[this](unsigned h, const uint8_t* from, uint64_t bytes, bool writes_only) {
    if (h == 0) data.withdraw(from, bytes, writes_only);
    withdrawn.push_back({h, from, bytes, writes_only});
  }};
  bool spin_waits = false;
  DataPath data{hot, mmu, dmi, timing, slice, *this, *this, claims, 0, spin_waits};
  tlm::tlm_generic_payload gp;
  std::vector<std::pair<uint64_t, unsigned>> stores;  // what stored() was told
  std::vector<std::pair<uint64_t, unsigned>> stores_ahead;  // what storing() was told, with spin_waits set
  unsigned bus_accesses = 0;

  explicit FakeHart(sc_core::sc_module_name n) : sc_module(n) {}
  void settle() override {}
  uint64_t settled_time_ps() const override { return hot.time.ps(); }
  uint64_t pte_access(uint64_t pa, const uint64_t* write, uint64_t fault_cause, uint64_t tval) override {
    return data.pte_access(pa, write, fault_cause, tval);
  }
  bool debug_read(uint64_t, void*, unsigned) override { return false; }
  std::function<void(uint64_t pa)> before_store;  // run by storing()
  void storing(uint64_t pa, unsigned len) override {
    stores_ahead.emplace_back(pa, len);
    if (before_store) before_store(pa);
  }
  void bus_access(tlm::tlm_command cmd, uint64_t pa, void* p, unsigned len, uint64_t fault_cause, uint64_t tval,
                  bool functional) override {
    ++bus_accesses;
    CacheTrafficExtension ext;
    ext.kind = CacheTrafficExtension::Functional;
    prepare_payload(gp, cmd, pa, p, len);
    if (functional) gp.set_extension(&ext);
    sc_core::sc_time delay = hot.time.offset();
    bus->b_transport(gp, delay);
    if (functional) gp.clear_extension(&ext);
    hot.time.set(delay);
    if (gp.get_response_status() != tlm::TLM_OK_RESPONSE) throw TrapException{fault_cause, tval};
  }
  void stored(uint64_t pa, unsigned len) override { stores.emplace_back(pa, len); }
  void code_free_span(uint64_t, uint64_t&, uint64_t&) const override {}  // no code map: nothing marked
};

struct DataPathTest : testing::Test {
  FakeBus mem{"mem"};
  FakeHart hart{"hart"};
  DataPath& data = hart.data;
  HartHotState& hot = hart.hot;

  DataPathTest() {
    hart.bus.bind(mem.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // completes the binding
    hart.mmu.configure(4, 0, 0);
  }
  uint64_t memory_stall() const { return hot.stall_ps[StallMemory]; }
  void use_dcache(uint64_t size = 1024, uint32_t ways = 2) {
    data.dcache().configure({size, ways, 64, 1000, 2000}, "test.dcache");
  }
  // Sv39 in S-mode: one 4 KiB page at `va` mapped to `pa` (R, W, A, D) by tables at the top of memory.
  void map_sv39(uint64_t va, uint64_t pa, uint64_t next_table = kBase + kSize - 3 * kPage) {
    const uint64_t root = kBase + kSize - 4 * kPage;
    uint64_t table = root;
    for (int level = 2; level > 0; --level) {
      const uint64_t slot = table + ((va >> (12 + 9 * level)) & 511) * 8;
      if (!(mem.word(slot) & 1)) {
        mem.set_word(slot, (next_table >> 12) << 10 | 1);
        next_table += kPage;
      }
      table = (mem.word(slot) >> 10) << 12;
    }
    mem.set_word(table + ((va >> 12) & 511) * 8, (pa >> 12) << 10 | 0xC7);  // D A W R V
    hot.s.satp = 8ull << 60 | root >> 12;
    hot.s.priv = PRV_S;
    data.update_checked();
  }
};

TEST_F(DataPathTest, LoadsAndStoresInPlaceOnceTheRegionIsKnown) {
  data.store<uint32_t>(kBase + 0x100, 0xdeadbeef);
  EXPECT_EQ(mem.word(kBase + 0x100) & 0xffffffff, 0xdeadbeefu);
  EXPECT_EQ(data.load<uint32_t>(kBase + 0x100), 0xdeadbeefu);
  EXPECT_EQ(hot.rd.base, kBase);  // the DMI region, by physical address
  EXPECT_EQ(hot.wr.base, kBase);
  data.load<uint64_t>(kBase + 0x8000);
  EXPECT_EQ(mem.dmi_requests, 1u);  // the region served all of them (one request: its reads and writes widened)
  EXPECT_EQ(mem.functional, 0u);
  ASSERT_EQ(hart.stores.size(), 1u);
  EXPECT_EQ(hart.stores[0], std::make_pair(kBase + 0x100, 4u));
  // Without a D-cache every access is a transfer of its own.
  EXPECT_EQ(mem.timed.size(), 3u);
  EXPECT_EQ(memory_stall(), 3 * kLatencyPs);
}

// A grant that does not start or end on an 8-byte word is used trimmed to
// whole words (translated code compares an aligned access's first byte
// only); the bytes trimmed off go through the bus, and the bus is not asked
// for them again.
TEST_F(DataPathTest, ARegionIsTrimmedToWholeWordsAndItsEdgesGoThroughTheBus) {
  mem.grant_lo = kBase + 3;
  mem.grant_hi = kBase + 0x1004;
  data.store<uint32_t>(kBase + 0x100, 0xdeadbeef);
  EXPECT_EQ(hot.wr.base, kBase + 8);
  EXPECT_EQ(hot.wr.size, 0x1000u - 8);
  EXPECT_EQ(hot.wr.ptr, mem.mem.data() + 8);
  EXPECT_EQ(mem.functional, 0u);
  data.store<uint8_t>(kBase + 4, 0x5a);  // trimmed off at the start: asked once, then through the bus
  data.store<uint32_t>(kBase + 0x1000, 0x01020304);  // and at the end
  EXPECT_EQ(mem.dmi_requests, 3u);
  EXPECT_EQ(mem.functional, 2u);
  EXPECT_EQ(data.load<uint8_t>(kBase + 4), 0x5au);
  EXPECT_EQ(data.load<uint32_t>(kBase + 0x1000), 0x01020304u);
  EXPECT_EQ(data.load<uint32_t>(kBase + 0x100), 0xdeadbeefu);  // in the region
  EXPECT_EQ(mem.dmi_requests, 5u);  // a load is another kind of access: asked once at each edge
  EXPECT_EQ(mem.functional, 4u);
  EXPECT_EQ(data.load<uint8_t>(kBase + 4), 0x5au);
  EXPECT_EQ(mem.dmi_requests, 5u);
}

// With harts spinning in wait loops (HartCluster::spin_waits) the host is
// told of a store before it writes, in the fast region and outside it.
TEST_F(DataPathTest, WithSpinningWaitsTheHostIsToldOfAStoreBeforeItWrites) {
  data.store<uint32_t>(kBase + 0x100, 1);
  EXPECT_TRUE(hart.stores_ahead.empty());
  hart.spin_waits = true;
  uint64_t held = 0;
  hart.before_store = [&](uint64_t pa) { held = mem.word(pa) & 0xffffffff; };
  data.store<uint32_t>(kBase + 0x100, 2);  // in the fast region
  EXPECT_EQ(held, 1u);
  EXPECT_EQ(mem.word(kBase + 0x100) & 0xffffffff, 2u);
  data.forget_regions();
  mem.grants_dmi = false;
  data.store<uint32_t>(kBase + 0x100, 3);  // functional, outside any region
  EXPECT_EQ(held, 2u);
  EXPECT_EQ(mem.word(kBase + 0x100) & 0xffffffff, 3u);
  const std::vector<std::pair<uint64_t, unsigned>> told = {{kBase + 0x100, 4u}, {kBase + 0x100, 4u}};
  EXPECT_EQ(hart.stores_ahead, told);
}

TEST_F(DataPathTest, TwoRegionsTakeTurnsWithoutAskingTheBusAgain) {
  uint8_t other[256] = {};  // a region the bus does not know (the stack, say)
  constexpr uint64_t kOther = 0x90000000;
  hot.rd = DmiRegion{};
  hot.rd.base = kOther;
  hot.rd.size = sizeof other;
  hot.rd.ptr = other;
  hot.rd.rd = true;
  data.load<uint8_t>(kBase);  // the bus's region becomes the one in use, the other the one before
  const unsigned requests = mem.dmi_requests;
  for (int i = 0; i < 4; ++i) {
    data.load<uint8_t>(kOther + i);
    EXPECT_EQ(hot.rd.base, kOther);
    data.load<uint8_t>(kBase + 0x20000);
    EXPECT_EQ(hot.rd.base, kBase);
  }
  EXPECT_EQ(mem.dmi_requests, requests);
}

TEST_F(DataPathTest, WithoutDmiMemoryMovesFunctionallyAndIsTimedAsMemory) {
  mem.grants_dmi = false;
  use_dcache();
  data.store<uint64_t>(kBase + 0x40, 42);
  EXPECT_EQ(data.load<uint64_t>(kBase + 0x40), 42u);
  EXPECT_EQ(mem.functional, 2u);
  EXPECT_EQ(hart.bus_accesses, 2u);
  EXPECT_EQ(hot.rd.size, 0u);  // no fast region without DMI
  // The D-cache timed both: a miss (its fill on the bus) and a hit.
  EXPECT_EQ(data.dcache().misses(), 1u);
  EXPECT_EQ(data.dcache().hits(), 1u);
  ASSERT_EQ(mem.timed.size(), 1u);
  EXPECT_EQ(mem.timed[0].pa, kBase + 0x40);
  EXPECT_EQ(mem.timed[0].len, 64u);
  ASSERT_EQ(hart.stores.size(), 1u);
}

TEST_F(DataPathTest, ADeviceAccessIsNeitherCachedNorAStoreOfMemory) {
  use_dcache();
  EXPECT_EQ(data.load<uint64_t>(kDevice), kDeviceValue);
  EXPECT_EQ(mem.device, 1u);
  EXPECT_EQ(data.dcache().misses() + data.dcache().hits(), 0u);
  EXPECT_TRUE(mem.timed.empty());
  EXPECT_EQ(hot.time.ps(), 10000u);  // the device's own latency
  EXPECT_THROW(data.load<uint32_t>(kDevice + 0x100), TrapException);  // refused: the access fault
  try {
    data.store<uint32_t>(kDevice + 0x100, 1);
    FAIL();
  } catch (const TrapException& t) {
    EXPECT_EQ(t.cause, kStoreAccessFault);
    EXPECT_EQ(t.tval, kDevice + 0x100);
  }
}

// A device register polled through the slow path: the bus refused DMI at
// its address once, and is not asked again there (for that kind of access)
// until it invalidates a range; another address is asked for itself.
TEST_F(DataPathTest, APolledDeviceIsAskedForDmiOnceUntilTheBusInvalidates) {
  for (int i = 0; i < 5; ++i) EXPECT_EQ(data.load<uint64_t>(kDevice), kDeviceValue);
  EXPECT_EQ(mem.device, 5u);  // every poll reached the device
  EXPECT_EQ(mem.dmi_requests, 1u);
  EXPECT_THROW(data.load<uint64_t>(kDevice + 8), TrapException);  // another register: asked, refused, no device there
  EXPECT_EQ(mem.dmi_requests, 2u);
  EXPECT_THROW(data.store<uint64_t>(kDevice, 1), TrapException);  // a store is another kind of access: asked
  EXPECT_EQ(mem.dmi_requests, 3u);
  hart.dmi.invalidate(0, ~0ull);
  EXPECT_EQ(data.load<uint64_t>(kDevice), kDeviceValue);
  EXPECT_EQ(mem.dmi_requests, 4u);  // asked again after the invalidation
  EXPECT_EQ(data.load<uint64_t>(kDevice), kDeviceValue);
  EXPECT_EQ(mem.dmi_requests, 4u);
}

TEST_F(DataPathTest, TheReadOnlyRangeRefusesStoresAndClipsTheWritableRegion) {
  ASSERT_TRUE(hart.dmi.set_read_only(kBase + 0x2000, 0x1000));
  EXPECT_FALSE(hart.dmi.set_read_only(kBase + 0x2000, 0x1000));
  data.store<uint8_t>(kBase + 0x1000, 1);  // below the range: allowed, its region ends at the range
  EXPECT_EQ(hot.wr.base + hot.wr.size, kBase + 0x2000);
  mem.grants_dmi = false;  // the range itself: refused before any transaction
  try {
    data.store<uint16_t>(kBase + 0x2ffe, 1);
    FAIL();
  } catch (const TrapException& t) {
    EXPECT_EQ(t.cause, kStoreAccessFault);
  }
  EXPECT_EQ(mem.functional, 0u);
  EXPECT_EQ(data.load<uint8_t>(kBase + 0x2000), 0u);  // loads are not refused
}

TEST_F(DataPathTest, InASliceWhatNeedsTheBusNeedsTheKernel) {
  data.load<uint8_t>(kBase);
  hart.slice.begin(true, true);
  EXPECT_EQ(data.load<uint8_t>(kBase + 1), 0u);  // in the known region: fine
  EXPECT_THROW(data.load<uint64_t>(kDevice), NeedsKernel);
  hart.dmi.invalidate(0, ~0ull);
  data.forget_regions();
  EXPECT_THROW(data.store<uint8_t>(kBase, 1), NeedsKernel);  // asking for DMI
  EXPECT_EQ(mem.device + mem.functional, 0u);
  EXPECT_EQ(mem.mem[0], 0u);
  hart.slice.leave();
}

TEST_F(DataPathTest, InTheParallelScheduleARegionIsClaimedLinesAndASliceNeverClaims) {
  hart.slice.parallel = true;
  hart.slice.begin(true, true);
  EXPECT_THROW(data.load<uint32_t>(kBase + 0x1008), NeedsKernel);  // no claim yet: the hart's thread takes it
  hart.slice.leave();
  data.store<uint32_t>(kBase + 0x1008, 7);  // the hart's thread: the line, and the rest of the untouched page
  EXPECT_EQ(hot.wr.base, kBase + 0x1000);
  EXPECT_EQ(hot.wr.size, kPage);
  const uint8_t* host = mem.mem.data();
  const PageClaims::Span span = hart.claims.held(0, host + 0x1008, true, host, host + kSize);
  EXPECT_EQ(span.from, host + 0x1000);
  EXPECT_EQ(span.to, host + 0x2000);
  hart.slice.begin(true, true);
  EXPECT_EQ(data.load<uint32_t>(kBase + 0x1008), 7u);  // the write claim holds the read claim
  EXPECT_EQ(hot.rd.base, kBase + 0x1000);
  data.store<uint8_t>(kBase + 0x1ff0, 1);  // the same page, from the kept pages
  EXPECT_THROW(data.store<uint8_t>(kBase + 0x2000, 1), NeedsKernel);  // the next page is not claimed
  EXPECT_EQ(mem.mem[0x2000], 0u);
  hart.slice.leave();
  // Across two pages: not a region, the access itself, from the hart's thread only.
  hart.slice.begin(true, true);
  EXPECT_THROW(data.load<uint64_t>(kBase + 0x2ffc), NeedsKernel);
  hart.slice.leave();
  data.store<uint64_t>(kBase + 0x2ffc, ~0ull);
  EXPECT_EQ(mem.mem[0x2ffc], 0xffu);
  EXPECT_EQ(mem.mem[0x3003], 0xffu);
  EXPECT_TRUE(hart.withdrawn.empty());
}

TEST_F(DataPathTest, ASliceAloneInItsBatchTakesTheWholeRegionUntilABatchWithOthers) {
  data.load<uint8_t>(kBase);  // the hart's thread knows the DMI region
  hart.slice.parallel = true;
  hart.slice.begin(false, false);
  data.store<uint32_t>(kBase + 0x2008, 7);  // no claim needed: no other slice runs beside it
  EXPECT_TRUE(hot.wr.holds(kBase + 0x8000, 8));  // the whole DMI region, as in the serial schedule
  const uint8_t* host = mem.mem.data();
  EXPECT_FALSE(data.holds_claims(host + 0x2008, 4, false));
  hart.slice.leave();
  data.keep_to_claims();  // what a slice with others in its batch does first (Hart::run_slice)
  EXPECT_EQ(hot.wr.size, 0u);
  hart.slice.begin(true, true);
  EXPECT_THROW(data.load<uint32_t>(kBase + 0x2008), NeedsKernel);  // its claims again: the thread takes them
  hart.slice.leave();
  EXPECT_EQ(mem.mem[0x2008], 7u);
}

// What an atomic in a slice asks (Hart::exec_atomic): whether its word is in
// the fast regions or kept pages, for an SC or AMO the write ones too;
// nothing is changed by asking.
TEST_F(DataPathTest, AtomicsAskWhetherTheRegionsHoldTheirWord) {
  hart.slice.parallel = true;
  const uint64_t page = kBase + 0x4000;
  const uint8_t* host = mem.mem.data() + 0x4000;
  EXPECT_FALSE(data.in_regions(page, 8, false));  // nothing claimed yet
  data.store<uint64_t>(page, 1);                  // the page's lines, claimed for writing
  data.load<uint64_t>(page + 8);
  const DmiRegion rd = hot.rd, wr = hot.wr;
  EXPECT_TRUE(data.in_regions(page + 0x40, 8, true));
  EXPECT_TRUE(data.in_regions(page + 0xff8, 4, false));
  EXPECT_FALSE(data.in_regions(page + 0x1000, 4, false));  // the next page: not claimed
  EXPECT_EQ(hot.rd.base, rd.base);
  EXPECT_EQ(hot.wr.base, wr.base);
  EXPECT_EQ(hot.wr.size, wr.size);
  // Hart 1 reads line 1: this hart keeps its read region, its writes leave.
  hart.claims.claim(1, host + 64, false);
  EXPECT_TRUE(data.in_regions(page + 64, 4, false));  // an LR may run in a slice
  EXPECT_FALSE(data.in_regions(page + 64, 4, true));  // an SC or AMO may not
}

TEST_F(DataPathTest, AnotherHartsClaimsWithdrawOnlyTheLinesTheyNeed) {
  hart.slice.parallel = true;
  const uint64_t page = kBase + 0x4000;
  const uint8_t* host = mem.mem.data() + 0x4000;
  const auto held = [&](unsigned h, const uint8_t* line, bool write) {  // the line alone
    return hart.claims.held(h, line, write, line, line + 64).to != nullptr;
  };
  data.store<uint32_t>(page, 1);  // line 0 accessed, the other 63 claimed speculatively
  data.load<uint32_t>(page + 4);
  // Hart 1 reads line 1: it takes the read claims of lines 1..63 (none accessed by
  // this hart), this hart loses its write claims there and keeps line 0's.
  hart.claims.claim(1, host + 64, false);
  ASSERT_EQ(hart.withdrawn.size(), 1u);  // one withdrawal for the run of lines
  EXPECT_EQ(hart.withdrawn.front().hart, 0u);
  EXPECT_TRUE(hart.withdrawn.front().writes_only);
  EXPECT_EQ(hart.withdrawn.front().from, host + 64);
  EXPECT_EQ(hart.withdrawn.front().bytes, 63u * 64);
  EXPECT_EQ(hot.wr.size, 0u);
  hart.slice.begin(true, true);
  EXPECT_EQ(data.load<uint32_t>(page), 1u);
  data.store<uint32_t>(page + 8, 2);  // line 0: still this hart's to write
  EXPECT_EQ(hot.wr.base, page);
  EXPECT_EQ(hot.wr.size, 64u);
  EXPECT_THROW(data.store<uint32_t>(page + 64, 2), NeedsKernel);  // line 1: read only now
  hart.slice.leave();
  // Hart 1 writes line 0: line 1, which it accessed, is not taken with it.
  hart.claims.claim(1, host, true);
  EXPECT_FALSE(hart.withdrawn.back().writes_only);
  EXPECT_EQ(hart.withdrawn.back().from, host);
  EXPECT_EQ(hart.withdrawn.back().bytes, 64u);
  EXPECT_FALSE(held(0, host, false));
  hart.slice.begin(true, true);
  EXPECT_THROW(data.load<uint32_t>(page), NeedsKernel);
  EXPECT_EQ(data.load<uint32_t>(page + 64), 0u);  // lines 1..63 are still this hart's to read
  EXPECT_EQ(hot.rd.base, page + 64);
  EXPECT_EQ(hot.rd.size, kPage - 64);
  hart.slice.leave();
  // This hart's thread reads line 0 again: hart 1 keeps only its read claim there.
  EXPECT_EQ(data.load<uint32_t>(page), 1u);
  EXPECT_TRUE(held(1, host, false));
  EXPECT_FALSE(held(1, host, true));
  EXPECT_EQ(hart.withdrawn.back().hart, 1u);
  EXPECT_TRUE(hart.withdrawn.back().writes_only);
}

TEST_F(DataPathTest, CheckedAccessesTranslateAndKeepTheirPages) {
  const uint64_t va = 0x40000000, pa = kBase + 0x5000;
  map_sv39(va, pa);
  map_sv39(va + kPage, pa + kPage);
  ASSERT_TRUE(data.checked());
  EXPECT_EQ(hot.rd.size, 0u);
  data.store<uint64_t>(va + 8, 7);
  EXPECT_EQ(mem.word(pa + 8), 7u);
  EXPECT_EQ(hart.stores.back(), std::make_pair(pa + 8, 8u));  // stores are told by physical address
  EXPECT_EQ(hot.wr.base, va);  // the virtual page is the region in use
  EXPECT_EQ(hot.wr.size, kPage);
  EXPECT_EQ(data.load<uint64_t>(va + 8), 7u);
  const MmuStats before = hart.mmu.stats();
  data.load<uint64_t>(va + 16);  // in the region: no translation
  EXPECT_EQ(hart.mmu.stats().tlb_hits, before.tlb_hits);
  data.load<uint64_t>(va + kPage);  // the other page, then the first again: kept, one TLB hit each
  EXPECT_EQ(hart.mmu.stats().tlb_misses, before.tlb_misses + 1);
  data.load<uint64_t>(va + kPage + 8);
  data.load<uint64_t>(va + 24);  // the region before
  const uint64_t hits = hart.mmu.stats().tlb_hits;
  data.load<uint64_t>(va + kPage + 16);  // region before again
  data.load<uint64_t>(va + 32);
  EXPECT_EQ(hart.mmu.stats().tlb_hits, hits);
  EXPECT_EQ(hart.mmu.stats().page_walks, before.page_walks + 1);
}

TEST_F(DataPathTest, AKeptPageIsReusedWithTheTlbHitItStandsFor) {
  const uint64_t va = 0x40000000, pa = kBase + 0x5000;
  map_sv39(va, pa);
  map_sv39(va + kPage, pa + kPage);
  map_sv39(va + 2 * kPage, pa + 2 * kPage);
  for (int i = 0; i < 3; ++i) data.load<uint8_t>(va + i * kPage);  // three pages: the first is only kept now
  const MmuStats before = hart.mmu.stats();
  data.load<uint8_t>(va);
  EXPECT_EQ(hart.mmu.stats().tlb_hits, before.tlb_hits + 1);
  EXPECT_EQ(hart.mmu.stats().page_walks, before.page_walks);
  EXPECT_EQ(hot.rd.base, va);
}

TEST_F(DataPathTest, ATlbEntryGoingTakesTheRegionsAndPagesOnIt) {
  const uint64_t va = 0x40000000, pa = kBase + 0x5000, moved = kBase + 0x7000;
  mem.set_word(pa, 1);
  mem.set_word(moved, 2);
  map_sv39(va, pa);
  EXPECT_EQ(data.load<uint64_t>(va), 1u);
  data.store<uint8_t>(va + 8, 1);
  map_sv39(va, moved);  // the page moves; its TLB entry goes
  hart.mmu.flush_tlb();
  TlbEntry e;
  e.valid = true;
  e.tag = va >> 12;
  data.tlb_replacing(e);
  EXPECT_EQ(hot.rd.size, 0u);
  EXPECT_EQ(hot.wr.size, 0u);
  EXPECT_EQ(data.load<uint64_t>(va), 2u);  // translated again, not from a kept page
  data.store<uint64_t>(va + 8, 3);
  EXPECT_EQ(mem.word(moved + 8), 3u);
  EXPECT_EQ(mem.word(pa + 8), 1u);
}

TEST_F(DataPathTest, AnAccessAcrossPagesIsCheckedWholeBeforeAnyByteMoves) {
  const uint64_t va = 0x40000000, pa = kBase + 0x5000;
  map_sv39(va, pa);  // the next page is not mapped
  try {
    data.store<uint64_t>(va + kPage - 4, ~0ull);
    FAIL();
  } catch (const TrapException& t) {
    EXPECT_EQ(t.cause, kStorePageFault);
    EXPECT_EQ(t.tval, va + kPage);
  }
  EXPECT_EQ(mem.word(pa + kPage - 8), 0u);
  EXPECT_TRUE(hart.stores.empty());
  map_sv39(va + kPage, kBase + 0x9000);  // mapped elsewhere: the halves go to their own pages
  data.store<uint64_t>(va + kPage - 4, 0x1111111122222222);
  EXPECT_EQ(mem.word(pa + kPage - 8) >> 32, 0x22222222u);
  EXPECT_EQ(mem.word(kBase + 0x9000) & 0xffffffff, 0x11111111u);
  EXPECT_EQ(hart.stores.size(), 2u);
}

TEST_F(DataPathTest, TheRegionsGoOnlyWhenWhatTheyWereMadeForChanges) {
  const uint64_t va = 0x40000000, pa = kBase + 0x5000;
  map_sv39(va, pa);
  data.load<uint8_t>(va);
  data.update_checked();  // nothing changed
  EXPECT_EQ(hot.rd.base, va);
  hot.s.mstatus |= mstatus::SUM;  // S-mode may touch user pages now: a new key
  data.update_checked();
  EXPECT_EQ(hot.rd.size, 0u);
  data.load<uint8_t>(va);
  hot.s.priv = PRV_M;  // M-mode, no PMP: not checked, physical regions
  data.update_checked();
  EXPECT_FALSE(data.checked());
  EXPECT_EQ(hot.rd.size, 0u);
  EXPECT_EQ(data.load<uint8_t>(kBase), 0u);
  EXPECT_EQ(hot.rd.base, kBase);
  hot.s.mstatus |= mstatus::MPRV | (uint64_t{PRV_S} << 11);  // M-mode loads as S-mode: checked again
  data.update_checked();
  EXPECT_TRUE(data.checked());
}

TEST_F(DataPathTest, AMissSendsTheFillAndTheDirtyVictimsWriteBack) {
  use_dcache(128, 1);  // two sets of one line
  data.store<uint8_t>(kBase, 1);
  ASSERT_EQ(mem.timed.size(), 1u);  // the fill
  EXPECT_FALSE(mem.timed[0].write);
  const uint64_t before = memory_stall();
  data.load<uint8_t>(kBase + 128);  // the same set: the dirty line goes
  ASSERT_EQ(mem.timed.size(), 3u);
  EXPECT_TRUE(mem.timed[1].write);
  EXPECT_EQ(mem.timed[1].pa, kBase);
  EXPECT_EQ(mem.timed[2].pa, kBase + 128);
  // The cache charges the victim's transfer; the hart waits for the fill
  // only (the write-back drains from a buffer).
  EXPECT_EQ(memory_stall() - before, 2 * 2000 + kLatencyPs);
}

TEST_F(DataPathTest, FlushingWritesBackEveryDirtyLine) {
  use_dcache();
  for (uint64_t i = 0; i < 4; ++i) data.store<uint8_t>(kBase + i * 64, 1);
  data.load<uint8_t>(kBase + 0x400);
  mem.timed.clear();
  data.flush_dcache();
  EXPECT_EQ(mem.timed.size(), 4u);
  for (const Transfer& t : mem.timed) EXPECT_TRUE(t.write);
  mem.timed.clear();
  data.flush_dcache();
  EXPECT_TRUE(mem.timed.empty());
  data.load<uint8_t>(kBase);  // emptied: a miss again
  EXPECT_EQ(mem.timed.size(), 1u);
}

TEST_F(DataPathTest, APageWalkIsUncachedAndAFunctionalRunTimesNothing) {
  use_dcache();
  const uint64_t va = 0x40000000, pa = kBase + 0x5000;
  map_sv39(va, pa);
  data.load<uint8_t>(va);
  // Three PTE reads (8 bytes each, by the bus), then the data's fill (a line).
  ASSERT_EQ(mem.timed.size(), 4u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(mem.timed[i].len, 8u);
  EXPECT_EQ(mem.timed[3].len, 64u);
  EXPECT_EQ(data.dcache().misses(), 1u);
  hot.functional = true;
  const uint64_t time = hot.time.ps();
  mem.timed.clear();
  data.load<uint8_t>(va + 0x80);
  data.store<uint8_t>(va + 0x100, 1);
  EXPECT_THROW(data.load<uint8_t>(va + 0x200000), TrapException);  // unmapped: a walk, untimed
  EXPECT_EQ(hot.time.ps(), time);
  EXPECT_TRUE(mem.timed.empty());
}

}  // namespace
