// What happens at a block's end in C++ (HartHotState::retire, chain_ends,
// fetch_quick_hit: the hart's threaded loop, hart_chain.cpp) against
// translated code's (BlockRetire, BlockChain and InlineEnter:
// block_translator.cpp, translated_chain.cpp): two hot states, each with a
// real I-cache model, take the same seeded random streams; on one the C++
// functions run as run_insns and translated_enter call them, on the other a
// block's code runs, its `enter` doing what the hart's does (the C++ path).
// After each step the two states must be equal (the gate, the times and
// counters, the block entered, the history, the I-cache's fields and ways,
// the next block's fetch fields), and the code must have left the C++ path
// exactly the work it does not do itself.
//  - RetireDifferential: blocks of 1 to 64 instructions, own times and
//    cycles that fit an immediate or not, any events, settled or not.
//  - ChainChecksDifferential: every byte of the gate (stop, block_abort,
//    chain_closed, the fetch regime, irq_gate), the quantum's end (ending
//    the chain, or with a quantum_end that may run on), insn_stop and end_pc
//    at and beside their boundaries (no link leads to end_pc, as the hart's
//    block cache keeps it), links present, missing or to an untranslated
//    block.
//  - FetchHitsDifferential: entering the next block with its one or two
//    I-cache lines the last fetched, other recent lines (the way hints, the
//    line before the last), stale hints, misses, relocated blocks (a DMI
//    generation), translations the TLB no longer holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <numeric>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "harts/hart_hot_state.h"

namespace {

using namespace avp;
using namespace avp::rv;

constexpr uint64_t kPc = 0x1000;          // the block that ends: one instruction
constexpr uint64_t kNextPc = kPc + 4;     // the block after it: one instruction
constexpr uint32_t kQuickUntried = ~0u;   // as Hart::kQuickUntried
constexpr uint64_t kNoQuantum = 1ull << 62;  // a quantum's end the steps never reach

// A block of n instructions x1 += 1 at pc, of fetch regime `key`, its costs drawn from rng:
// own time and cycles of 0, near INT32_MAX (the code's immediate) or beyond it, events of any kinds.
void make_block(DecodedBlock& b, uint64_t pc, unsigned n, uint8_t key, std::mt19937_64& rng) {
  Insn add;
  add.op = ADDI;
  add.rd = add.rs1 = 1;
  add.imm = 1;
  b.insns.assign(n, add);
  b.pc = b.ppc = pc;
  b.bytes = 4 * n;
  b.key = key;
  const auto cost = [&rng] {
    switch (rng() % 5) {
      case 0: return uint64_t{0};
      case 1: return uint64_t{INT32_MAX} + rng() % 2;
      case 2: return rng() >> 24;
      default: return rng() % 100000;
    }
  };
  b.own_ps = cost();
  b.extra_cycles = cost();
  uint8_t ids[kNumPerfEvents];
  std::iota(ids, ids + kNumPerfEvents, 0);
  std::shuffle(ids, ids + kNumPerfEvents, rng);
  b.events = static_cast<uint8_t>(std::min<uint64_t>(rng() % (kNumPerfEvents + 1), n));
  std::fill(std::begin(b.event_n), std::end(b.event_n), 0);
  for (unsigned k = 0; k < b.events; ++k) {
    b.event_id[k] = ids[k];
    b.event_n[k] = 1;  // each kind at least once, the rest of the n anywhere
  }
  for (unsigned i = b.events; b.events && i < n; ++i) ++b.event_n[rng() % b.events];
}

// One side: a hot state, its I-cache model and its blocks: `ends` (of fetch
// regimes 0 and 1) at kPc, which link to `next` at kNextPc.
struct Side : HartHotState {
  explicit Side(const CacheGeometry& g) {
    model.configure(g, "icache");
    history.ring = history.held;  // as InsnHistory keeps a history of up to HistoryRing::kHeld entries
    history.mask = HistoryRing::kHeld - 1;
    history.length = 16;
    chain_closed = false;
    time.set_quantum(from_ps(kNoQuantum));
  }
  CacheModel model{icache};
  DecodedBlock ends[2], next;
  unsigned enter_calls = 0;      // the code's calls of `enter`
  bool quantum_goes_on = false;  // what quantum_end answers
};

Side& side(void* hot) { return *static_cast<Side*>(static_cast<HartHotState*>(hot)); }

// The I-cache timing of block b entered (Hart::fetch_timing after the quick
// hits, `quick` the lines they did): the lines located again after a DMI
// change (locate_fetch; they stay where they were), then the quick hits if
// untried, else the set search from the first line they did not do. (No
// fill latency: the same on both sides.)
void fetch_timing(Side& h, const DecodedBlock& b, uint32_t quick) {
  if (b.fetch_gen != h.dmi_gen) {
    b.fetch_gen = h.dmi_gen;
    quick = kQuickUntried;
  }
  if (quick == kQuickUntried && h.fetch_quick_hit(b, quick)) return;
  uint64_t t = quick * h.model.hit_time();
  for (uint32_t i = quick; i < b.lines; ++i) {
    bool miss = false;
    t += i < 2 ? h.model.access_line(b.first_line + i, false, miss, b.fetch_way[i])
               : h.model.access_line(b.first_line + i, false, miss);
  }
  h.time.add_ps(t);
  h.stall_ps[StallFetch] += t;
}

// Entering block b at pc on the C++ path, as the hart's `enter` does it
// (Hart::translated_enter, enter_translated, enter_block): translated
// fetches whose translation the TLB no longer holds have it translated again
// (here: held until the next insert) and are timed without the quick hits;
// the others try the quick hits first.
void enter(Side& h, const DecodedBlock& b, uint64_t pc) {
  h.s.pc = pc;
  uint32_t quick = kQuickUntried;
  bool hit = false;
  if (b.key && h.tlb_inserts >= b.tlb_until) b.tlb_until = h.tlb_inserts + 1;
  else hit = h.fetch_quick_hit(b, quick);
  if (!hit) fetch_timing(h, b, quick);
  h.history.record(&b);
  h.lazy = &b;
  h.settled = 0;
}

// The translated blocks' `enter` (BlockChain::enter): the C++ path.
const uint8_t* side_enter(void* hot, const void* block, uint64_t pc) {
  Side& h = side(hot);
  const auto& b = *static_cast<const DecodedBlock*>(block);
  ++h.enter_calls;
  enter(h, b, pc);
  return reinterpret_cast<const uint8_t*>(b.code) + kTranslatedInnerEntry;
}

// At a quantum's end (BlockChain::quantum_end, as Hart::translated_quantum_end
// when it runs on): the next quantum from here, or the chain ends.
uint64_t side_quantum_end(void* hot) {
  Side& h = side(hot);
  if (!h.quantum_goes_on) return 0;
  h.time.start_quantum(h.time.ps(), 0);
  return 1;
}

// The cases the code enters the next block itself (InlineEnter): its
// translation held, its lines located, its one line the line fetched last,
// in its hinted way or the line before, still in its way; its two lines the
// last two, the first still in its way; else each of its two lines so.
bool enters_in_code(const Side& h, const DecodedBlock& b) {
  if ((b.key && h.tlb_inserts >= b.tlb_until) || b.fetch_gen != h.dmi_gen) return false;
  const CacheQuickState& c = h.icache;
  if (b.lines == 1)
    return b.first_line == c.last_line ||
           (b.fetch_way[0] < c.way_count && c.ways[b.fetch_way[0]].tag == b.first_line) ||
           (b.first_line == c.prev_line && c.prev_way->tag == b.first_line);
  if (b.lines != 2) return false;
  if (b.first_line + 1 == c.last_line && b.first_line == c.prev_line && c.prev_way->tag == b.first_line) return true;
  const uint64_t second = b.first_line + 1;
  const bool second_hinted = b.fetch_way[1] < c.way_count && c.ways[b.fetch_way[1]].tag == second;
  // The first line fetched last, the second by its own hint or as the line before.
  if (b.first_line == c.last_line) return second_hinted || (second == c.prev_line && c.prev_way->tag == second);
  // The first by its hint or as the line before; the second then by its hint
  // or as the line fetched last before the first.
  const bool first_hits = (b.fetch_way[0] < c.way_count && c.ways[b.fetch_way[0]].tag == b.first_line) ||
                          (b.first_line == c.prev_line && c.prev_way->tag == b.first_line);
  return first_hits && (second_hinted || (second == c.last_line && c.last_way->tag == second));
}

// On the C++ path, what run_insns does after block `a` ran to its end
// (nothing settled): retires it, then goes on to the block it links to at
// next_pc (translated, as the code's links) while Hart::chain_goes_on (with
// `observed` for observed()) and next_block's same fetch regime allow. With
// `quantum_end`, a quantum's end met where the code meets it (after the
// gate) is the run loop's, which may go on with the next quantum. True when
// it went on.
bool end_block(Side& h, const DecodedBlock& a, uint64_t next_pc, bool observed, uint64_t (*quantum_end)(void*)) {
  h.retire(a);
  if (!h.stop) h.s.pc = next_pc;
  const bool interrupt = h.s.mip & h.s.mie;
  const bool gate_open = !(h.stop || h.block_abort || observed || interrupt) && a.key == h.fetch_key;
  if (gate_open && quantum_end && h.time.quantum_used()) quantum_end(static_cast<HartHotState*>(&h));
  if (h.chain_ends() || interrupt || observed || a.key != h.fetch_key) return false;
  const DecodedBlock* next = a.link_pc[0] == next_pc ? a.link[0] : a.link_pc[1] == next_pc ? a.link[1] : nullptr;
  if (!next || !next->code) return false;
  enter(h, *next, next_pc);
  return true;
}

// A block pointer of a side as what it is, so two sides compare.
std::string which(const Side& h, const DecodedBlock* b) {
  if (!b) return "none";
  if (b == &h.next) return "next";
  if (b == &h.ends[0] || b == &h.ends[1]) return "ends[" + std::to_string(b - h.ends) + "]";
  return "another block";
}
int64_t way_index(const CacheQuickState& c, const CacheWay* w) { return w ? w - c.ways : -1; }

// The first difference between the two sides ("" when none), named with both values.
class Difference {
 public:
  template <typename T>
  Difference& operator()(const char* what, const T& cpp, const T& code) {
    if (text_.empty() && !(cpp == code))
      text_ = std::string(what) + ": " + str(cpp) + " (C++) vs " + str(code) + " (code)";
    return *this;
  }
  const std::string& text() const { return text_; }

 private:
  static std::string str(const std::string& s) { return s; }
  template <typename T>
  static std::string str(const T& v) { return std::to_string(v); }
  std::string text_;
};

std::string difference(const Side& a, const Side& b) {
  Difference d;
  d("stop", a.stop, b.stop)("block_abort", a.block_abort, b.block_abort);
  d("chain_closed", a.chain_closed, b.chain_closed);
  d("fetch_key", a.fetch_key, b.fetch_key)("irq_gate", a.irq_gate, b.irq_gate);
  d("time", a.time.ps(), b.time.ps())("quantum end", a.time.quantum_end_ps(), b.time.quantum_end_ps());
  for (unsigned i = 0; i < kStallCauses; ++i) d(("stall " + std::to_string(i)).c_str(), a.stall_ps[i], b.stall_ps[i]);
  d("end_pc", a.end_pc, b.end_pc)("insn_stop", a.insn_stop(), b.insn_stop());
  d("lazy", which(a, a.lazy), which(b, b.lazy))("settled", a.settled, b.settled);
  d("pc", a.s.pc, b.s.pc)("minstret", a.s.minstret, b.s.minstret);
  d("extra_cycles", a.s.extra_cycles, b.s.extra_cycles);
  for (unsigned i = 0; i < kNumPerfEvents; ++i) d(("events " + std::to_string(i)).c_str(), a.s.events[i], b.s.events[i]);
  d("dmi_gen", a.dmi_gen, b.dmi_gen)("tlb_inserts", a.tlb_inserts, b.tlb_inserts);
  d("history pos", a.history.pos, b.history.pos);
  for (unsigned i = 0; i < HistoryRing::kHeld; ++i)
    d("history entry", which(a, a.history.held[i]), which(b, b.history.held[i]));
  const CacheQuickState &x = a.icache, &y = b.icache;
  d("icache last_line", x.last_line, y.last_line)("icache prev_line", x.prev_line, y.prev_line);
  d("icache last_way", way_index(x, x.last_way), way_index(y, y.last_way));
  d("icache prev_way", way_index(x, x.prev_way), way_index(y, y.prev_way));
  d("icache clock", x.clock, y.clock)("icache hits", x.hits, y.hits);
  d("icache misses", a.model.misses(), b.model.misses());
  for (uint64_t i = 0; i < x.way_count; ++i) {
    d("icache way tag", x.ways[i].tag, y.ways[i].tag)("icache way used", x.ways[i].used, y.ways[i].used);
  }
  const DecodedBlock &m = a.next, &n = b.next;
  d("next fetch_gen", m.fetch_gen, n.fetch_gen)("next tlb_until", m.tlb_until, n.tlb_until);
  d("next fetch_way[0]", m.fetch_way[0], n.fetch_way[0])("next fetch_way[1]", m.fetch_way[1], n.fetch_way[1]);
  return d.text();
}

// Two sides, blocks `ends` at kPc linking to `next` at kNextPc, alike on both.
class BlockEndDifferential {
 protected:
  void make_sides(const CacheGeometry& g, std::mt19937_64& rng) {
    cpp_ = std::make_unique<Side>(g);
    code_ = std::make_unique<Side>(g);
    for (uint8_t key : {0, 1}) make_block(cpp_->ends[key], kPc, 1, key, rng);
    make_block(cpp_->next, kNextPc, 1, 0, rng);
    cpp_->next.code = next_code_;
    code_->next = cpp_->next;
    for (Side* h : {cpp_.get(), code_.get()}) {
      for (uint8_t key : {0, 1}) {
        DecodedBlock& a = h->ends[key];
        a = cpp_->ends[key];
        a.link_pc[0] = kNextPc;
        a.link[0] = &h->next;
      }
    }
  }
  // The code of side code_'s ends[key]; with `inline_enter`, it enters the
  // next block itself when it can; with `quantum_ends`, side_quantum_end
  // at a quantum's end.
  void translate_ends(bool inline_enter, bool hits_take_no_time, bool quantum_ends) {
    enter_ = hot_offsets::inline_enter(hits_take_no_time, false, code_->history);
    for (DecodedBlock& a : code_->ends) {
      const BlockRetire retire = hot_offsets::block_retire(a);
      const BlockChain chain = hot_offsets::block_chain(a, &side_enter, inline_enter ? &enter_ : nullptr,
                                                        quantum_ends ? &side_quantum_end : nullptr);
      a.code = translate_block(a.insns.data(), a.insns.size(), a.pc, helpers_, &retire, &chain, arena_);
      ASSERT_NE(a.code, nullptr);
    }
  }
  void translate_next() {
    DecodedBlock b;
    make_block(b, kNextPc, 1, 0, rng_);
    next_code_ = translate_block(b.insns.data(), 1, kNextPc, helpers_, nullptr, nullptr, arena_);  // runs, returns
    ASSERT_NE(next_code_, nullptr);
  }
  // Runs code_'s ends[key]: true when it went on to the next block (which
  // returned: x1 counts both blocks), false when the chain ended after it (as
  // run_insns then: the pc).
  bool run_ends(uint8_t key) {
    uint64_t* const x = code_->s.x;
    std::fill(x, x + 32, 0);
    const unsigned calls = code_->enter_calls;
    const JitStep r = code_->ends[key].code(x);
    code_->from_code();  // as run_insns takes over: the block running is the history's last
    if (r.status == (1 | uint64_t{kExitRetired} << 32)) {
      EXPECT_EQ(r.value, kNextPc);
      EXPECT_EQ(code_->enter_calls, calls);
      EXPECT_EQ(x[1], 1u);
      code_->lazy = nullptr;  // as run_insns after the block retired
      if (!code_->stop) code_->s.pc = r.value;
      return false;
    }
    EXPECT_EQ(r.status, 1u) << "the next block's own return";
    EXPECT_EQ(r.value, kNextPc + 4);
    EXPECT_EQ(x[1], 2u);
    EXPECT_EQ(code_->lazy, &code_->next);
    return true;
  }
  std::mt19937_64 rng_{20261130};
  std::unique_ptr<Side> cpp_, code_;
  // The blocks call no helper; their code finds the hart from its registers.
  TranslationHelpers helpers_{{}, {}, nullptr, nullptr, nullptr, nullptr, hot_offsets::kHartFromRegs};
  InlineEnter enter_{};
  TranslatedBlock next_code_ = nullptr;
  CodeArena arena_;
};

class RetireDifferential : public ::testing::Test, protected BlockEndDifferential {
 protected:
  void SetUp() override {
    if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
    helpers_.other = [](void*, uint64_t pc, const Insn*) { return JitStep{pc + 4, kExitDone}; };
  }
};

TEST_F(RetireDifferential, CppAndEmittedRetiringLeaveTheSameCounters) {
  // Blocks of every size (the last of 64 instructions), retiring with no
  // chain. Each also with its first instruction done by the `other` helper,
  // as only a block that calls a helper can have part of it settled (and
  // only such a block's code tests `settled`).
  std::vector<DecodedBlock> blocks(48), with_helper(blocks.size());
  std::vector<TranslatedBlock> code, code_with_helper;
  for (size_t i = 0; i < blocks.size(); ++i) {
    make_block(blocks[i], kPc, i + 1 == blocks.size() ? kMaxBlockInsns : 1 + rng_() % kMaxBlockInsns, 0, rng_);
    with_helper[i] = blocks[i];
    with_helper[i].insns[0].op = CSRRS;
    for (const auto& [b, out] : {std::pair{&blocks[i], &code}, std::pair{&with_helper[i], &code_with_helper}}) {
      const BlockRetire retire = hot_offsets::block_retire(*b);
      out->push_back(translate_block(b->insns.data(), b->insns.size(), kPc, helpers_, &retire, nullptr, arena_));
      ASSERT_NE(out->back(), nullptr);
    }
  }
  make_sides(CacheGeometry{2048, 4, 64, 700, 9000}, rng_);
  uint64_t retired = 0, settled = 0, wide = 0;
  for (int n = 0; n < 100000; ++n) {
    SCOPED_TRACE("step " + std::to_string(n));
    const size_t i = rng_() % blocks.size();
    const DecodedBlock& b = blocks[i];
    const uint32_t size = static_cast<uint32_t>(b.insns.size());
    // Counters anywhere (wrapping too), and now and then a block a helper has settled part of.
    const uint32_t from = rng_() % 4 ? 0 : 1 + static_cast<uint32_t>(rng_() % size);
    const uint64_t minstret = rng_() % 2 ? rng_() : rng_() % 1000, cycles = rng_(), ps = rng_() >> (rng_() % 64);
    uint64_t events[kNumPerfEvents];
    for (uint64_t& e : events) e = rng_() % 3 ? rng_() % 1000 : rng_();
    for (Side* h : {cpp_.get(), code_.get()}) {
      h->s.minstret = minstret;
      h->s.extra_cycles = cycles;
      h->time = LocalTime{};
      h->time.add_ps(ps);
      std::copy(std::begin(events), std::end(events), h->s.events);
      h->lazy = &b;
      h->settled = from;
    }
    // The C++ path (run_insns at a block's end): retire_block when nothing
    // was settled; settle_to else, which the code leaves to it.
    if (from == 0) cpp_->retire(b);
    uint64_t* const x = code_->s.x;
    std::fill(x, x + 32, 0);
    const JitStep r = (from ? code_with_helper : code)[i](x);
    ASSERT_EQ(r.value, kPc + 4 * size);
    ASSERT_EQ(r.status, size | uint64_t{from ? kExitDone : kExitRetired} << 32);
    ASSERT_EQ(x[1], from ? size - 1 : size);
    (from ? settled : retired) += 1;
    wide += b.own_ps > INT32_MAX || b.extra_cycles > INT32_MAX;
    ASSERT_EQ(difference(*cpp_, *code_), "");
  }
  EXPECT_GT(retired, 60000u);
  EXPECT_GT(settled, 20000u);
  EXPECT_GT(wide, 40000u);  // costs the code adds from a register, not an immediate
}

// With quantum_end (true: the hart's translated code) or without.
class ChainChecksDifferential : public ::testing::TestWithParam<bool>, protected BlockEndDifferential {
 protected:
  void SetUp() override {
    if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
    translate_next();
    make_sides(CacheGeometry{2048, 4, 64, 700, 9000}, rng_);
    translate_ends(false, false, GetParam());  // every block the chain goes on to through `enter`
  }
};

TEST_P(ChainChecksDifferential, CppAndEmittedChecksEndTheSameChains) {
  const auto quantum_end = GetParam() ? &side_quantum_end : nullptr;
  // Each stop by itself (how often it alone ended the chain), and how often the chain went on.
  enum Cause {
    kStopped, kAborted, kClosed, kOtherKey, kIrq, kQuantumUsed, kInsnStop, kEndPc, kNoLink, kUntranslated, kCauses
  };
  uint64_t alone[kCauses] = {}, went_on = 0, quantum_went_on = 0;
  for (int n = 0; n < 200000; ++n) {
    SCOPED_TRACE("step " + std::to_string(n));
    const uint8_t key = rng_() % 2;
    const DecodedBlock& a = cpp_->ends[key];
    // Each stop about one step in eight; values at and beside their boundaries.
    const auto sometimes = [this] { return rng_() % 8 == 0; };
    bool stops[kCauses];
    for (bool& s : stops) s = sometimes();
    static constexpr uint8_t kOtherKeys[] = {0, 1, 2, 0x80, 0xff};
    uint8_t fetch_key = key;
    while (stops[kOtherKey] && fetch_key == key) fetch_key = kOtherKeys[rng_() % std::size(kOtherKeys)];
    uint64_t mip = rng_(), mie = rng_();
    if (stops[kIrq]) {
      const uint64_t bit = uint64_t{1} << (rng_() % 64);
      mip |= bit;
      mie |= bit;
    } else {
      mie &= ~mip;
    }
    // The time and minstret after the block retired: at, before or after the quantum's end and insn_stop.
    const uint64_t quantum = (rng_() % (1ull << 40)) + (1ull << 36);
    static constexpr int64_t kBeside[] = {-1000, -1, 0, 1, 1000};
    const int64_t time_beside = stops[kQuantumUsed] ? kBeside[2 + rng_() % 3] : kBeside[rng_() % 2];
    const uint64_t after_ps = quantum + time_beside;
    const uint64_t minstret_after = rng_() % 3 ? 1001 + rng_() % 100000 : rng_() | 1024;
    uint64_t insn_stop = 0;
    if (stops[kInsnStop]) insn_stop = minstret_after - kBeside[2 + rng_() % 3];
    else if (rng_() % 2) insn_stop = minstret_after + (rng_() % 2 ? 1 : 1000);  // 0: none
    const uint64_t end_pc = stops[kEndPc] ? kNextPc : rng_() % 2 ? kNextPc + 4 : 1;
    // The link to the next pc in either slot, or in neither; the next block translated or not.
    const unsigned slot = rng_() % 2;
    const bool quantum_goes_on = rng_() % 2;
    const uint64_t other_pc = kNextPc + 8 * (1 + rng_() % 4);
    for (Side* h : {cpp_.get(), code_.get()}) {
      h->stop = stops[kStopped];
      h->block_abort = stops[kAborted];
      h->chain_closed = stops[kClosed];  // observed
      h->fetch_key = fetch_key;
      h->s.mip = mip;
      h->s.mie = mie;
      h->irq_gate = (mip & mie) != 0;  // as Hart::update_irq_gate
      h->time = LocalTime{};
      h->time.set_quantum(from_ps(quantum));
      h->time.add_ps(after_ps - a.own_ps);
      h->s.minstret = minstret_after - 1;
      h->set_insn_stop(insn_stop);
      h->end_pc = end_pc;
      h->s.pc = kPc;
      h->lazy = nullptr;
      h->settled = 0;
      DecodedBlock& e = h->ends[key];
      // A block at the kernel's return address is never linked to (BlockCache::set_return_pc).
      e.link_pc[slot] = stops[kNoLink] || end_pc == kNextPc ? other_pc : kNextPc;
      e.link_pc[slot ^ 1] = other_pc + 8;
      e.link[slot] = e.link[slot ^ 1] = &h->next;
      h->next.code = stops[kUntranslated] ? nullptr : next_code_;
      h->next.key = key;
      h->quantum_goes_on = quantum_goes_on;
    }
    const bool on = end_block(*cpp_, a, kNextPc, stops[kClosed], quantum_end);
    ASSERT_EQ(run_ends(key), on) << "the chain went on";
    ASSERT_FALSE(HasFailure());
    if (on) ++went_on;
    if (on && stops[kQuantumUsed]) ++quantum_went_on;
    if (std::count(stops, stops + kCauses, true) == 1) ++alone[std::find(stops, stops + kCauses, true) - stops];
    ASSERT_EQ(difference(*cpp_, *code_), "");
  }
  EXPECT_GT(went_on, 40000u);
  for (unsigned c = 0; c < kCauses; ++c) EXPECT_GT(alone[c], 5000u) << "cause " << c;
  if (quantum_end) {
    EXPECT_GT(quantum_went_on, 3000u);  // past a quantum's end
  }
}

INSTANTIATE_TEST_SUITE_P(QuantumEnds, ChainChecksDifferential, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "RunOn" : "End"; });

}  // namespace

namespace avp {
void PrintTo(const CacheGeometry& g, std::ostream* os);  // test_data_hits_differential.cpp
}  // namespace avp

namespace {

class FetchHitsDifferential : public ::testing::TestWithParam<CacheGeometry>, protected BlockEndDifferential {
 protected:
  void SetUp() override {
    if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
    translate_next();
    make_sides(GetParam(), rng_);
    translate_ends(true, GetParam().hit_ps == 0, false);
  }
};

TEST_P(FetchHitsDifferential, CppAndEmittedEntriesLeaveTheSameCacheAndTime) {
  const CacheGeometry g = GetParam();
  const uint64_t lines = g.size / g.line * 2;  // code twice the cache
  // Where the next block was lately: its first line and its number of lines
  // (two: it crosses a line's end; 0 or 3: neither path's quick hits).
  struct Place {
    uint64_t first;
    uint32_t lines;
  };
  Place places[4] = {{0, 1}, {1, 2}, {5, 1}, {7, 2}};
  uint64_t in_code = 0, by_enter = 0, two_lines_in_code = 0, way_or_previous_in_code = 0, steps_missing = 0;
  uint64_t two_lines_by_themselves = 0;  // the first line fetched last, the second hitting by itself
  uint64_t two_lines_first_elsewhere = 0;  // neither line fetched last, each hitting by itself
  for (int n = 0; n < 200000; ++n) {
    SCOPED_TRACE("step " + std::to_string(n));
    const uint8_t key = rng_() % 2;
    // The next block where it was lately, or elsewhere; now and then a stale
    // hint, a DMI change (located again), a TLB insert, the block's
    // translation not held, an invalidated cache.
    const unsigned p = rng_() % std::size(places);
    if (rng_() % 4 == 0) {
      const unsigned r = rng_() % 16;
      places[p] = {rng_() % lines, r < 7 ? 1u : r < 14 ? 2u : r < 15 ? 0u : 3u};
    }
    const bool stale_hint = rng_() % 32 == 0, dmi = rng_() % 64 == 0, insert = rng_() % 16 == 0,
               replaced = rng_() % 16 == 0, invalidate = rng_() % 2048 == 0;
    const uint32_t hint = static_cast<uint32_t>(rng_() % (2 * cpp_->icache.way_count));
    for (Side* h : {cpp_.get(), code_.get()}) {
      DecodedBlock& b = h->next;
      if (b.first_line != places[p].first || b.lines != places[p].lines) {
        b.first_line = places[p].first;
        b.lines = places[p].lines;
        b.fetch_hit_ps = b.lines * g.hit_ps;  // locate_fetch
      }
      if (stale_hint) b.fetch_way[hint % 2] = hint;
      if (dmi) ++h->dmi_gen;
      if (insert) ++h->tlb_inserts;
      if (replaced) b.tlb_until = h->tlb_inserts;  // the TLB entry of its page replaced
      if (invalidate) h->model.invalidate();
      b.key = key;
      h->fetch_key = key;
      h->lazy = nullptr;
    }
    const bool expected_in_code = enters_in_code(*cpp_, cpp_->next);
    const bool line_fetched_last = cpp_->next.first_line == cpp_->icache.last_line;
    const uint64_t last_before = cpp_->icache.last_line, prev_before = cpp_->icache.prev_line;
    const uint64_t misses = cpp_->model.misses();
    ASSERT_TRUE(end_block(*cpp_, cpp_->ends[key], kNextPc, false, nullptr));
    const unsigned calls = code_->enter_calls;
    ASSERT_TRUE(run_ends(key));
    ASSERT_FALSE(HasFailure());
    const bool done_in_code = code_->enter_calls == calls;
    ASSERT_EQ(done_in_code, expected_in_code) << "the code entered the block itself";
    (done_in_code ? in_code : by_enter) += 1;
    two_lines_in_code += done_in_code && places[p].lines == 2;
    way_or_previous_in_code += done_in_code && places[p].lines == 1 && !line_fetched_last;
    two_lines_by_themselves += done_in_code && places[p].lines == 2 && line_fetched_last;
    two_lines_first_elsewhere += done_in_code && places[p].lines == 2 && !line_fetched_last &&
                                 !(cpp_->next.first_line + 1 == last_before && cpp_->next.first_line == prev_before);
    steps_missing += cpp_->model.misses() != misses;
    ASSERT_EQ(difference(*cpp_, *code_), "");
  }
  // Both outcomes, the two-line case and a one-line block's hit_way or
  // hit_previous (the shared routine) in the code, and misses.
  EXPECT_GT(in_code, 20000u);
  EXPECT_GT(by_enter, 100000u);
  EXPECT_GT(two_lines_in_code, 10000u);
  EXPECT_GT(way_or_previous_in_code, 3000u);
  EXPECT_GT(two_lines_by_themselves, 20u);
  EXPECT_GT(two_lines_first_elsewhere, 10u);
  EXPECT_GT(steps_missing, 20000u);
}

INSTANTIATE_TEST_SUITE_P(Geometries, FetchHitsDifferential,
                         ::testing::Values(CacheGeometry{2048, 4, 64, 700, 9000}, CacheGeometry{1024, 1, 64, 500, 3000},
                                           CacheGeometry{4096, 8, 32, 0, 5000},
                                           CacheGeometry{512, 8, 64, 600, 4000}));  // one set

}  // namespace
