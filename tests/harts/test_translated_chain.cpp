// Translated blocks going on to the next block in their code
// (models/harts/translated_chain.cpp): a block that loops to itself runs
// until the quantum is used (or on past its end while quantum_end says so),
// an out-of-line instruction in it seeing the registers of the pass before;
// each of the run loop's other checks, a missing
// link, an untranslated successor or another fetch regime ends the chain
// after one block; a block ending in an indirect jump finds the next block
// in the slot cache; entering the next block gets its block and pc, and an
// enter that fails is reported with the pc. The hart is a HartHotState and
// the block a DecodedBlock (the layouts the code addresses), with fake
// helpers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "harts/block_translator.h"
#include "harts/decoded_block.h"
#include "harts/hart_hot_state.h"
#include "shared_routines.h"

namespace {

using namespace avp;
using namespace avp::rv;

constexpr uint64_t kPc = 0x1000, kOtherPc = 0x1100;
constexpr uint64_t kBlockPs = 3000;

// The hart: its hot state, and what the fake helpers saw and do.
struct FakeHart : HartHotState {
  bool enter_fails = false;
  std::vector<std::pair<const DecodedBlock*, uint64_t>> entered;
  unsigned quantum_ends = 0, quantum_goes_on = 0;  // quantum_end's calls, and how many of them go on
  std::vector<uint64_t> quantum_end_pcs;           // the hart's pc at each call (the code writes it first)
  std::vector<std::pair<uint64_t, uint64_t>> quantum_end_counts;  // minstret and the time at each call
  std::vector<uint64_t> other_rs1;                 // rs1 of each out-of-line instruction, as it read it
  struct Seen {
    uint64_t minstret, ps, history_pos;
    bool operator==(const Seen& o) const {
      return minstret == o.minstret && ps == o.ps && history_pos == o.history_pos;
    }
  };
  std::vector<Seen> loads_seen;  // at each call of the load helper
  bool has_quantum_end = false;  // the chain's BlockChain::quantum_end is fake_quantum_end
  bool settle_in_load = false;   // the load helper counts its instruction (the block's first), as Hart::settle_to
  uint64_t fetch_stall_ps() const { return stall_ps[StallFetch]; }
};

FakeHart& fake(void* hot) { return *static_cast<FakeHart*>(static_cast<HartHotState*>(hot)); }

// The fake helpers, as the hart's (Hart::translated_*), retire what a
// functional run's code counted first and refresh its bound as they return
// (HartHotState::HelperCall).

// The run loop at a quantum's end: the next quantum, while goes_on lasts.
uint64_t fake_quantum_end(void* hart) {
  FakeHart& h = fake(hart);
  const HartHotState::HelperCall call{h};
  h.quantum_end_pcs.push_back(h.s.pc);
  h.quantum_end_counts.emplace_back(h.s.minstret, h.time.ps());
  if (++h.quantum_ends > h.quantum_goes_on) return 0;
  h.time.start_quantum(h.time.ps(), 0);  // the next quantum from here
  return 1;
}

// A functional run's chain with no instructions left (Hart::translated_bound_reached):
// fake_quantum_end at the quantum's end, if the chain has it (else it ends there), then the stop.
uint64_t fake_bound_reached(void* hart) {
  FakeHart& h = fake(hart);
  const HartHotState::HelperCall call{h};
  if (h.time.quantum_used() && !(h.has_quantum_end && fake_quantum_end(hart))) return 0;
  return !h.insn_stop_reached();
}

// exec_other: the instruction's rs1 from the registers in memory, then on to the next instruction.
JitStep fake_other(void* hart, uint64_t pc, const Insn* d) {
  FakeHart& h = fake(hart);
  const HartHotState::HelperCall call{h};
  h.other_rs1.push_back(h.s.x[d->rs1]);  // the registers in memory, as exec_other reads them
  return {pc + d->len, kExitDone};
}

// A load outside the hart's load region: what the hart had counted when it was called, and 7.
JitStep fake_load(void* hart, uint64_t, uint64_t, const Insn*) {
  FakeHart& h = fake(hart);
  const HartHotState::HelperCall call{h};
  h.loads_seen.push_back({h.s.minstret, h.time.ps(), h.history.pos});
  if (h.settle_in_load) {
    ++h.s.minstret;
    h.time.add_ps(1000);
    h.settled = 1;
    h.part_settled = true;
  }
  return {7, kExitDone};
}

const uint8_t* fake_enter(void* hart, const void* block, uint64_t pc) {
  FakeHart& h = fake(hart);
  const HartHotState::HelperCall call{h};
  const auto& b = *static_cast<const DecodedBlock*>(block);
  h.entered.emplace_back(&b, pc);
  if (h.enter_fails) return nullptr;
  return reinterpret_cast<const uint8_t*>(b.code) + kTranslatedInnerEntry;
}

class TranslatedChain : public ::testing::Test {
 protected:
  // The block at kPc: x1 += 1, then a jump back to kPc; linked to itself
  // (with out_of_line_first_, an FSD based on x1 before them).
  void SetUp() override { translate(0); }
  // Its code, for fetch regime `key`; with `inline_enter`, it enters the next
  // block itself when it can, with `loop_back` itself in its code (BlockChain::self);
  // `step` the add's immediate; with `quantum_end`, fake_quantum_end at a quantum's end.
  // With two_blocks_, the jump goes to other_ at kOtherPc, which is the same
  // code jumping back to kPc (both their own BlockChain::self).
  void translate(uint8_t key, bool inline_enter = false, bool loop_back = false, int64_t step = 1,
                 bool quantum_end = false) {
    translate_at(block_, kPc, two_blocks_ ? kOtherPc : kPc, key, inline_enter, loop_back, step, quantum_end);
    if (two_blocks_) translate_at(other_, kOtherPc, kPc, key, inline_enter, true, step, quantum_end);
    fresh();
  }
  void translate_at(DecodedBlock& b, uint64_t pc, uint64_t target, uint8_t key, bool inline_enter, bool loop_back,
                    int64_t step, bool quantum_end) {
    Insn add;
    add.op = ADDI;
    add.rd = add.rs1 = 1;
    add.imm = step;
    Insn jump;
    jump.op = JAL;
    jump.imm = static_cast<int64_t>(target - pc) - 4;
    if (indirect_) {  // jalr x0, 0(x2), x2 holding the block's pc
      jump.op = JALR;
      jump.rs1 = 2;
      jump.imm = 0;
    }
    std::vector<Insn> block = {add, jump};
    if (out_of_line_first_ || load_first_) {
      Insn first;
      first.op = load_first_ ? LD : FSD;
      first.rs1 = 1;
      first.rd = load_first_ ? 3 : 0;
      block.insert(block.begin(), first);
      if (!indirect_) jump.imm -= 4;
      block.back() = jump;
    }
    insns_.push_back(block);  // earlier code keeps its instructions
    b.pc = pc;
    b.insns.assign(block.begin(), block.end());
    using hot_offsets::at, hot_offsets::kEvents, hot_offsets::kExtraCycles, hot_offsets::kMinstret, hot_offsets::kTimePs;
    const uint8_t ids[] = {kEvBranch};  // the jump's (the add's kEvInt is not counted: HartState::events)
    const uint8_t counts[] = {1};
    const BlockRetire retire{at(offsetof(HartHotState, settled)), kMinstret, kExtraCycles, kTimePs, kEvents, 0, kBlockPs,
                             1, ids, counts};
    HistoryRing history;  // as the code's hart keeps it: recorded or not, in the ring it holds or another
    history.kept = records_history_;
    history.length = history_length_;
    if (history_held_) history.ring = history.held;
    const InlineEnter enter = hot_offsets::inline_enter(hits_take_no_time_, false, history);
    b.key = key;
    BlockChain chain = hot_offsets::block_chain(b, &fake_enter, inline_enter ? &enter : nullptr,
                                                quantum_end ? &fake_quantum_end : nullptr);
    chain.self = loop_back ? &b : nullptr;
    if (lockstep_) {
      chain.count = hot_offsets::at(offsetof(HartHotState, chain_count));
      chain.count_event = kEvBranch;
      chain.bound_reached = &fake_bound_reached;
    }
    quantum_end_ = quantum_end;
    TranslationHelpers helpers{};
    helpers.other = &fake_other;
    for (auto& load : helpers.load) load = &fake_load;
    helpers.inline_loads = &loads_;
    helpers.hart_from_regs = hot_offsets::kHartFromRegs;
    b.code = translate_block(insns_.back().data(), insns_.back().size(), pc, helpers, &retire, &chain, arena_, &b.jumps);
    ASSERT_NE(b.code, nullptr);
  }
  // With two_blocks_ (after fresh()): neither block linked to any, each of
  // one I-cache line 0x40 with hits of 100 ps, DMI generation 5 (the hart's).
  void unlink_both() {
    for (DecodedBlock* b : {&block_, &other_}) {
      b->link_pc[0] = b->link_pc[1] = ~0ull;
      b->link[0] = b->link[1] = nullptr;
      b->linked_from.clear();
      b->next_link = 0;
      b->fetch_gen = 5;
      b->first_line = 0x40;
      b->fetch_hit_ps = 100;
      b->lines = 1;
    }
  }
  // Before a run: the block linked to itself, counters and registers zero, a quantum of five blocks.
  // The block: its one I-cache line 0x40, hits of 100 ps, DMI generation 5 (the hart's).
  void fresh() {
    block_.link_pc[1] = kPc;
    block_.link[1] = &block_;
    block_.fetch_gen = 5;
    block_.first_line = 0x40;
    block_.fetch_hit_ps = 100;
    block_.lines = 1;
    block_.tlb_until = ~0ull;
    hart_ = FakeHart{};
    hart_.chain_closed = false;
    hart_.dmi_gen = 5;
    hart_.history.kept = records_history_;
    hart_.history.ring = hart_.history.held;  // the first eight entries, unless a test gives its own
    hart_.history.mask = 7;
    if (history_held_) {
      hart_.history.ring = hart_.history.held;
      hart_.history.mask = HistoryRing::kHeld - 1;
    }
    hart_.time.set_quantum(from_ps(5 * kBlockPs));
    if (lockstep_) hart_.lockstep_period_ps = kBlockPs / 2;  // the block's two instructions
    hart_.has_quantum_end = quantum_end_;
  }
  // As the run loop runs the code (refreshing the bound of a functional run's
  // chain first, unless `stale`, and taking over from it after).
  JitStep run(bool stale = false) {
    if (!stale) hart_.refresh_insn_bound();
    const JitStep s = block_.code(x_);
    hart_.from_code();
    return s;
  }
  // The chain ended after the first block: retired, nothing entered.
  void expect_one_block() {
    const JitStep s = run();
    EXPECT_EQ(s.value, kPc);
    EXPECT_EQ(s.status, 2 | uint64_t{kExitRetired} << 32);
    EXPECT_EQ(x_[1], 1u);
    EXPECT_EQ(hart_.s.minstret, 2u);
    EXPECT_EQ(hart_.s.events[kEvBranch], 1u);  // a functional run's too, counted with its instructions
    EXPECT_TRUE(hart_.entered.empty());
  }

  std::vector<std::vector<Insn>> insns_;
  bool hits_take_no_time_ = false;  // InlineEnter's, for the next translate()
  bool records_history_ = true;     // for the next translate() and fresh()
  bool history_held_ = false;       // for the next translate() and fresh(): the ring the hart holds
  uint64_t history_length_ = 16;    // for the next translate(): the history's instructions
  bool out_of_line_first_ = false;  // for the next translate()
  bool load_first_ = false;         // for the next translate(): ld x3, 0(x1) first (a functional run's fast path)
  const InlineLoads loads_ = hot_offsets::inline_accesses(/*stores=*/false, /*timed=*/nullptr);
  bool indirect_ = false;           // for the next translate(): the jump back is jalr x0, 0(x2)
  bool two_blocks_ = false;         // for the next translate(): block_ and other_ jump to each other
  bool lockstep_ = false;           // for the next translate() and fresh(): a functional run's one bound
  bool quantum_end_ = false;        // the last translate()'s: the chain calls fake_quantum_end
  CodeArena arena_;
  DecodedBlock block_, other_;
  FakeHart hart_;
  uint64_t* const x_ = static_cast<HartHotState&>(hart_).s.x;  // the registers the code is given
};

TEST_F(TranslatedChain, RunsUntilTheQuantumIsUsed) {
  const JitStep s = run();
  EXPECT_EQ(s.status, 2 | uint64_t{kExitRetired} << 32);
  EXPECT_EQ(s.value, kPc);
  EXPECT_EQ(x_[1], 5u);  // five blocks of 3000 ps fill the 15000 ps quantum
  EXPECT_EQ(hart_.s.minstret, 10u);
  EXPECT_EQ(hart_.s.extra_cycles, 0u);  // two one-cycle instructions a block
  EXPECT_EQ(hart_.time.ps(), 5 * kBlockPs);
  EXPECT_EQ(hart_.s.events[kEvBranch], 5u);
  ASSERT_EQ(hart_.entered.size(), 4u);
  for (const auto& [block, pc] : hart_.entered) {
    EXPECT_EQ(block, &block_);
    EXPECT_EQ(pc, kPc);
  }
}

// Through `enter` (the tail's checks) and looping in its own code (the
// branch's own checks): two more quanta, then quantum_end ends the chain.
TEST_F(TranslatedChain, GoesOnPastAQuantumsEndWhileQuantumEndSaysSo) {
  for (const bool loop_back : {false, true}) {
    SCOPED_TRACE(loop_back ? "loop back" : "enter");
    translate(0, loop_back, loop_back, 1, true);
    hart_.quantum_goes_on = 2;
    const JitStep s = run();
    EXPECT_EQ(s.status, 2 | uint64_t{kExitRetired} << 32);
    EXPECT_EQ(s.value, kPc);
    EXPECT_EQ(x_[1], 15u);
    EXPECT_EQ(hart_.s.minstret, 30u);
    EXPECT_EQ(hart_.time.ps(), 15 * kBlockPs);
    EXPECT_EQ(hart_.quantum_ends, 3u);
    EXPECT_EQ(hart_.quantum_end_pcs, std::vector<uint64_t>(3, kPc));
  }
}

TEST_F(TranslatedChain, StopsAtTheInstructionLimit) {
  hart_.set_insn_stop(6);
  run();
  EXPECT_EQ(hart_.s.minstret, 6u);
  EXPECT_EQ(x_[1], 3u);
}

// A functional run's chain counts down the instructions left before one
// bound (BlockChain::count) and makes the quantum's and the stop's checks
// where none are left: the same ends as the two checks (a quantum of five
// blocks, three quanta while quantum_end says so, the stop at 6, each at
// the first block), looping in its own code or entering itself; a count not
// refreshed (none left) only makes every block end check both. The count
// carries the blocks' branches (their jump's event), which the hart adds
// to its events as it takes over.
TEST_F(TranslatedChain, AFunctionalChainEndsWhereItsBoundSays) {
  lockstep_ = true;
  for (const bool stale : {false, true}) {
    for (const bool loop_back : {false, true}) {
      SCOPED_TRACE(std::string(stale ? "stale bound, " : "") + (loop_back ? "loop back" : "enter"));
      translate(0, loop_back, loop_back);
      run(stale);
      EXPECT_EQ(x_[1], 5u);
      EXPECT_EQ(hart_.s.minstret, 10u);
      EXPECT_EQ(hart_.time.ps(), 5 * kBlockPs);
      EXPECT_EQ(hart_.s.events[kEvBranch], 5u);
      EXPECT_EQ(hart_.chain_count & kChainEventMask, 0);  // taken over
      translate(0, loop_back, loop_back, 1, true);
      hart_.quantum_goes_on = 2;
      run(stale);
      EXPECT_EQ(x_[1], 15u);
      EXPECT_EQ(hart_.quantum_ends, 3u);
      EXPECT_EQ(hart_.time.ps(), 15 * kBlockPs);
      EXPECT_EQ(hart_.s.events[kEvBranch], 15u);
      fresh();
      hart_.set_insn_stop(6);
      run(stale);
      EXPECT_EQ(hart_.s.minstret, 6u);
      EXPECT_EQ(x_[1], 3u);
      for (const bool quantum : {false, true}) {
        fresh();
        if (quantum) hart_.time.add_ps(5 * kBlockPs);
        else hart_.set_insn_stop(2);
        const JitStep s = run(stale);
        EXPECT_EQ(s.status, 2 | uint64_t{kExitRetired} << 32);
        EXPECT_EQ(x_[1], 1u);
      }
    }
  }
  // Negative control: the code trusts the count; one past the quantum's end
  // (14 instructions: seven blocks) is where it ends. (Its line hits in the
  // code: `enter`, a helper, would count the bound again.)
  fresh();
  const DecodedBlock* ring[8] = {};
  hart_.history.ring = ring;
  hart_.icache.last_line = 0x40;
  hart_.set_chain_left(14);
  run(true);
  EXPECT_EQ(x_[1], 7u);
  EXPECT_EQ(hart_.s.events[kEvBranch], 7u);
}

TEST_F(TranslatedChain, EachCheckEndsTheChain) {
  const std::vector<std::pair<const char*, void (*)(FakeHart&)>> checks = {
      {"chaining closed", [](FakeHart& h) { h.chain_closed = true; }},
      {"stop", [](FakeHart& h) { h.stop = true; }},
      {"block abort", [](FakeHart& h) { h.block_abort = true; }},
      {"quantum used", [](FakeHart& h) { h.time.add_ps(5 * kBlockPs); }},
      {"limit reached", [](FakeHart& h) { h.set_insn_stop(2); }},
      {"interrupt pending", [](FakeHart& h) { h.irq_gate = true; }},
      {"other fetch regime", [](FakeHart& h) { h.fetch_key = 1; }},
  };
  // A functional run's too, whose block the chain counts (BlockChain::count) even where the gate ends it.
  for (const bool lockstep : {false, true}) {
    lockstep_ = lockstep;
    translate(0);
    for (const auto& [what, set] : checks) {
      SCOPED_TRACE(std::string(what) + (lockstep ? ", functional" : ""));
      fresh();
      set(hart_);
      expect_one_block();
      EXPECT_EQ(hart_.time.ps(), (std::string(what) == "quantum used" ? 6 : 1) * kBlockPs);
    }
  }
  // Negative controls: a kernel return elsewhere, a limit ahead.
  fresh();
  hart_.end_pc = kPc + 4;
  hart_.set_insn_stop(100);
  run();
  EXPECT_EQ(hart_.entered.size(), 4u);
}

// A kernel's return address ends a block's loop to its own start; the
// links never lead there (BlockCache::set_return_pc, BlockCacheTest), so
// the chain through them does not compare it.
TEST_F(TranslatedChain, AKernelReturningToItsOwnStartEndsTheLoop) {
  translate(0, true, true);
  hart_.end_pc = kPc;
  expect_one_block();
  fresh();
  hart_.end_pc = kPc + 4;  // elsewhere: the loop goes on
  run();
  EXPECT_EQ(x_[1], 5u);
}

TEST_F(TranslatedChain, GoesOnThroughEitherLinkSlot) {
  block_.link_pc[1] = ~0ull;
  block_.link_pc[0] = kPc;
  block_.link[0] = &block_;
  run();
  EXPECT_EQ(hart_.entered.size(), 4u);
}

// The gate's fourth byte is the fetch regime: a block of regime 1 chains
// while the hart is in regime 1, and only then.
TEST_F(TranslatedChain, ChainsOnlyInTheBlocksFetchRegime) {
  translate(1);
  hart_.fetch_key = 1;
  run();
  EXPECT_EQ(hart_.entered.size(), 4u);
  fresh();
  expect_one_block();  // regime 0
  fresh();
  hart_.fetch_key = 1;
  hart_.stop = true;
  expect_one_block();
}

// An I-cache whose hits take no time: entries in the code count the hits
// and add nothing to the times (the block's fetch_hit_ps is not read).
TEST_F(TranslatedChain, EntersWithoutTimeWhenHitsTakeNone) {
  hits_take_no_time_ = true;
  translate(0, true);
  const DecodedBlock* ring[8] = {};
  hart_.icache.last_line = 0x40;
  hart_.history.ring = ring;
  run();
  EXPECT_TRUE(hart_.entered.empty());
  EXPECT_EQ(x_[1], 5u);
  EXPECT_EQ(hart_.time.ps(), 5 * kBlockPs);
  EXPECT_EQ(hart_.icache.hits, 4u);
  EXPECT_EQ(hart_.fetch_stall_ps(), 0u);
}

// Entering in the code: the block's one line is the I-cache's last, so each
// entry counts a hit and its time, records the block in the
// history ring and makes it the block counted, without calling enter.
TEST_F(TranslatedChain, EntersABlockWhoseLineHitsAgainInItsCode) {
  translate(0, true);
  const DecodedBlock* ring[8] = {};
  const auto prepare = [&](uint64_t last_line) {
    fresh();
    hart_.icache.last_line = last_line;
    hart_.history.ring = ring;
  };
  prepare(0x40);
  run();
  EXPECT_TRUE(hart_.entered.empty());
  EXPECT_EQ(x_[1], 5u);  // five blocks of 3000 ps, four entries of 100: 15400 ps
  EXPECT_EQ(hart_.time.ps(), 5 * kBlockPs + 4 * 100);
  EXPECT_EQ(hart_.icache.hits, 4u);
  EXPECT_EQ(hart_.fetch_stall_ps(), 400u);
  EXPECT_EQ(hart_.s.pc, 0u);  // left to the helpers (BlockChain::pc)
  EXPECT_EQ(hart_.history.pos, 4u);
  EXPECT_EQ(ring[3], &block_);
  EXPECT_EQ(hart_.lazy, &block_);
  // Negative controls: another last line, another DMI generation, two lines not the last two: enter is called.
  for (int which = 0; which < 3; ++which) {
    SCOPED_TRACE(which);
    prepare(which == 0 ? 0x80 : 0x40);
    if (which == 1) hart_.dmi_gen = 6;
    block_.lines = which == 2 ? 2 : 1;
    run();
    EXPECT_EQ(hart_.entered.size(), 4u);
    EXPECT_EQ(hart_.icache.hits, 0u);
    EXPECT_EQ(hart_.history.pos, 0u);
  }
}

// Without a history (harts.history_length=0) the entries in the code leave
// the ring alone, store the block running as such and do the rest as before.
TEST_F(TranslatedChain, EntersWithoutRecordingWhenNoHistoryIsKept) {
  records_history_ = false;
  translate(0, true);
  const DecodedBlock* ring[8] = {};
  fresh();
  hart_.icache.last_line = 0x40;
  hart_.history.ring = ring;
  run();
  EXPECT_TRUE(hart_.entered.empty());
  EXPECT_EQ(x_[1], 5u);
  EXPECT_EQ(hart_.time.ps(), 5 * kBlockPs + 4 * 100);
  EXPECT_EQ(hart_.icache.hits, 4u);
  EXPECT_EQ(hart_.history.pos, 0u);
  EXPECT_EQ(ring[0], nullptr);
  EXPECT_EQ(hart_.lazy, &block_);
}

// With a history, the code records the blocks it enters there only: the
// hart reads the block running as the ring's last entry as it takes over
// (HartHotState::from_code).
TEST_F(TranslatedChain, TheBlockRunningIsTheHistorysLastEntry) {
  translate(0, true);
  DecodedBlock other;
  const DecodedBlock* ring[8] = {&other, &other, &other, &other, &other, &other, &other, &other};
  fresh();
  hart_.icache.last_line = 0x40;
  hart_.history.ring = ring;
  hart_.history.pos = 8;
  run();
  EXPECT_TRUE(hart_.entered.empty());
  EXPECT_EQ(hart_.history.pos, 12u);
  EXPECT_EQ(ring[3], &block_);
  EXPECT_EQ(hart_.lazy, &block_);
  // Negative control: the ring's last entry, not a field the code stored.
  hart_.history.pos = 13;
  hart_.from_code();
  EXPECT_EQ(hart_.lazy, &other);
}

// In the ring the hart holds (a history of up to HistoryRing::kHeld
// entries), an entry in the code indexes it by the position's low byte:
// the entries go on from 255 to 0.
TEST_F(TranslatedChain, EntersRecordingInTheRingTheHartHolds) {
  history_held_ = true;
  translate(0, true);
  hart_.icache.last_line = 0x40;
  hart_.history.pos = 254;
  run();
  EXPECT_TRUE(hart_.entered.empty());
  EXPECT_EQ(hart_.history.pos, 258u);
  for (unsigned i : {254u, 255u, 0u, 1u}) EXPECT_EQ(hart_.history.held[i], &block_) << i;
  EXPECT_EQ(hart_.history.held[253], nullptr);
  EXPECT_EQ(hart_.history.held[2], nullptr);
}

// A block over two lines that were the line before the last and the last:
// two hits per entry, nothing else changes; no enter call. Also when its
// first line was the last and its second hits by itself.
TEST_F(TranslatedChain, EntersATwoLineBlockWhoseLinesWereTheLastTwo) {
  translate(0, true);
  const DecodedBlock* ring[8] = {};
  CacheWay line_40, line_41;
  const auto prepare = [&](uint64_t last, uint64_t prev, uint64_t tag_prev, uint32_t lines) {
    fresh();
    hart_.history.ring = ring;
    block_.lines = lines;
    line_40 = {0x40, 1};
    line_41 = {0x41, 2};
    hart_.icache.last_line = last;
    hart_.icache.prev_line = prev;
    hart_.icache.last_way = last == 0x41 ? &line_41 : &line_40;
    hart_.icache.prev_way = last == 0x41 ? &line_40 : &line_41;
    (last == 0x41 ? line_40 : line_41).tag = tag_prev;
    hart_.icache.clock = 2;
  };
  // Every one of the run's four entries in the code: two hits and the
  // block's time each, the lines 0x40 then 0x41 the last two fetched.
  const auto entered_in_code = [&](uint64_t clock) {
    EXPECT_TRUE(hart_.entered.empty());
    EXPECT_EQ(hart_.icache.hits, 8u);
    EXPECT_EQ(hart_.time.ps(), 5 * kBlockPs + 4 * 100);
    EXPECT_EQ(hart_.icache.last_line, 0x41u);
    EXPECT_EQ(hart_.icache.prev_line, 0x40u);
    EXPECT_EQ(hart_.icache.clock, clock);
    EXPECT_EQ(hart_.history.pos, 4u);
  };
  prepare(0x41, 0x40, 0x40, 2);
  run();
  entered_in_code(2);  // nothing but the counts changed
  // The first line fetched last and the second the line before, still in
  // its way: the second's hit_previous (the two swap, its way used), then
  // the last two again at every later entry.
  prepare(0x40, 0x41, 0x41, 2);
  run();
  entered_in_code(3);
  EXPECT_EQ(line_41.used, 3u);
  // Negative controls: the first line last but the second's way reused,
  // the first line's way reused, a block over three lines: enter is called.
  for (int which = 0; which < 3; ++which) {
    SCOPED_TRACE(which);
    if (which == 0) prepare(0x40, 0x41, 0x99, 2);
    if (which == 1) prepare(0x41, 0x40, 0x99, 2);
    if (which == 2) prepare(0x41, 0x40, 0x40, 3);
    run();
    EXPECT_EQ(hart_.entered.size(), 4u);
    EXPECT_EQ(hart_.icache.hits, 0u);
    EXPECT_EQ(hart_.history.pos, 0u);
  }
}

// A block linked to itself that enters itself in its code goes on in its
// own code (its registers still in place), not through its code pointer:
// pointed at other code (x1 += 100), entering through the pointer would run that.
TEST_F(TranslatedChain, LoopsInItsOwnCodeWhenItLinksToItself) {
  const DecodedBlock* ring[8] = {};
  translate(0, true, false, 100);
  const TranslatedBlock plus_100 = block_.code;
  for (bool loop_back : {true, false}) {
    SCOPED_TRACE(loop_back);
    translate(0, true, loop_back);
    const TranslatedBlock plus_1 = block_.code;
    block_.code = plus_100;
    hart_.icache.last_line = 0x40;
    hart_.history.ring = ring;
    hart_.lazy = &block_;  // as run_insns enters it: a loop in its own code leaves it
    const JitStep s = plus_1(x_);
    EXPECT_EQ(s.status, 2 | uint64_t{kExitRetired} << 32);
    EXPECT_EQ(x_[1], loop_back ? 5u : 401u);  // negative control: without loop_back, once +1, then +100 four times
    EXPECT_EQ(hart_.s.minstret, 10u);
    EXPECT_EQ(hart_.time.ps(), 5 * kBlockPs + 4 * 100);
    EXPECT_EQ(hart_.icache.hits, 4u);
    EXPECT_EQ(hart_.history.pos, 4u);
    EXPECT_EQ(hart_.lazy, &block_);
    EXPECT_TRUE(hart_.entered.empty());
  }
}

// A loop of inline instructions in its own code counts its passes while
// they are granted (translated_chain.h, CountedLoop) and retires them in
// one step: every counter, time, I-cache hit and history entry is what the
// pass-by-pass checks give -- the reference here -- up to the quantum's end
// and to the instruction limit, with and without time for the hits.
TEST_F(TranslatedChain, CountedPassesEndWhereEachPassesChecksWould) {
  struct Case {
    bool hits_take_no_time;
    uint64_t quantum_ps, insn_stop;
    bool lockstep = false;  // a functional run's count of instructions left (hits take no time there)
  };
  std::vector<Case> cases{Case{false, 3'100'000, 0}, Case{true, 3'000'000, 0}, Case{false, 10'000'000, 2 * 777},
                          Case{false, 3'000 * 70 + 50, 0}, Case{true, 3'000'000, 0, true},
                          Case{true, 10'000'000, 2 * 777, true}, Case{true, 3'000 * 70 + 50, 0, true},
                          Case{false, 3'100 * 50, 2 * 45}};  // the limit before the quantum's end
  // The quantum's end around a pass's end, where the last grant (as many
  // passes as end before it) is computed: one ps before, at, one after.
  for (const uint64_t end : {3'100 * 40 - 100, 3'100 * 40, 3'100 * 40 + 3'000})
    for (const uint64_t off : {uint64_t{0}, uint64_t{1}, uint64_t{2}})
      cases.push_back(Case{false, end + off - 1, 0});
  for (const uint64_t end : {3'000 * 40, 3'000 * 41})  // the same for a functional run's count
    for (const uint64_t off : {uint64_t{0}, uint64_t{1}, uint64_t{2}}) cases.push_back(Case{true, end + off - 1, 0, true});
  for (const Case c : cases) {
    SCOPED_TRACE(testing::Message() << c.hits_take_no_time << " " << c.quantum_ps << " " << c.insn_stop << " "
                                    << c.lockstep);
    hits_take_no_time_ = c.hits_take_no_time;
    lockstep_ = c.lockstep;
    translate(0, true, true);
    const DecodedBlock* ring[8] = {};
    hart_.history.ring = ring;
    hart_.icache.last_line = 0x40;
    hart_.time.set_quantum(from_ps(c.quantum_ps));
    if (c.insn_stop) hart_.set_insn_stop(c.insn_stop);
    // The reference: each pass retires (2 instructions, kBlockPs), is checked, then enters again (a hit).
    uint64_t passes = 0, ps = 0;
    for (;;) {
      ++passes;
      ps += kBlockPs;
      if (ps >= c.quantum_ps || (c.insn_stop && 2 * passes >= c.insn_stop)) break;
      if (!c.hits_take_no_time) ps += 100;
    }
    const JitStep s = run();
    EXPECT_EQ(s.status, 2 | uint64_t{kExitRetired} << 32);
    EXPECT_EQ(x_[1], passes);
    EXPECT_EQ(hart_.s.minstret, 2 * passes);
    EXPECT_EQ(hart_.s.events[kEvBranch], passes);
    EXPECT_EQ(hart_.time.ps(), ps);
    EXPECT_EQ(hart_.fetch_stall_ps(), c.hits_take_no_time ? 0 : 100 * (passes - 1));
    EXPECT_EQ(hart_.icache.hits, passes - 1);
    EXPECT_EQ(hart_.history.pos, passes - 1);
    for (const DecodedBlock* b : ring) EXPECT_EQ(b, &block_);
    EXPECT_TRUE(hart_.entered.empty());
  }
}

// A counted loop's passes, retired in one step, record in the ring the
// hart holds the last of their entries that hold the history's length (5
// instructions: three passes of two, one more than those), not the entries
// before them in a grant.
TEST_F(TranslatedChain, CountedPassesRecordTheEntriesThatHoldTheHistory) {
  history_held_ = true;
  history_length_ = 5;
  translate(0, true, true);
  hart_.icache.last_line = 0x40;
  hart_.time.set_quantum(from_ps(100 * kBlockPs + 99 * 100));  // 100 passes, fewer entries than the ring
  run();
  EXPECT_EQ(x_[1], 100u);
  const uint64_t pos = hart_.history.pos;
  EXPECT_EQ(pos, 99u);
  for (uint64_t i = pos - 4; i < pos; ++i) EXPECT_EQ(hart_.history.held[i], &block_) << i;
  const auto written = std::count(std::begin(hart_.history.held), std::end(hart_.history.held), &block_);
  EXPECT_LT(written, 99);  // a grant's earlier passes left out
}

// A counted loop goes on past quantum ends while quantum_end says so: each
// call sees the passes up to there retired, and the passes granted in each
// quantum end where the pass-by-pass checks would.
TEST_F(TranslatedChain, CountedPassesGoOnPastQuantumEnds) {
  translate(0, true, true, 1, true);
  const DecodedBlock* ring[8] = {};
  hart_.history.ring = ring;
  hart_.icache.last_line = 0x40;
  constexpr uint64_t kQuantumPs = 1'000'000;
  hart_.time.set_quantum(from_ps(kQuantumPs));
  hart_.quantum_goes_on = 2;
  uint64_t passes = 0, ps = 0, quantum_end = kQuantumPs;
  std::vector<std::pair<uint64_t, uint64_t>> ends;  // the reference: retire, check, enter again (a hit)
  for (;;) {
    ++passes;
    ps += kBlockPs;
    if (ps >= quantum_end) {
      ends.emplace_back(2 * passes, ps);
      if (ends.size() > 2) break;
      quantum_end = ps + kQuantumPs;
    }
    ps += 100;
  }
  const JitStep s = run();
  EXPECT_EQ(s.status, 2 | uint64_t{kExitRetired} << 32);
  EXPECT_EQ(hart_.quantum_end_counts, ends);
  EXPECT_EQ(x_[1], passes);
  EXPECT_EQ(hart_.s.minstret, 2 * passes);
  EXPECT_EQ(hart_.time.ps(), ps);
  EXPECT_EQ(hart_.icache.hits, passes - 1);
  EXPECT_EQ(hart_.history.pos, passes - 1);
}

// A block a helper of which counted part of it (Hart::settle_to: settled,
// and part_settled in the gate) is not retired by its code: its checks find
// the gate closed, take the retire back and leave the block to the run loop
// (the exit as settled, not retired), in both timing modes. Negative
// control: a helper that counted nothing leaves the block retired and the
// chain going on.
TEST_F(TranslatedChain, ABlockAHelperSettledLeavesTheRestToTheRunLoop) {
  load_first_ = true;
  for (const bool lockstep : {false, true}) {
    SCOPED_TRACE(lockstep ? "functional" : "timed");
    lockstep_ = lockstep;
    translate(0);
    hart_.settle_in_load = true;
    const JitStep s = run();
    EXPECT_EQ(s.status, 3u);          // the block's three instructions, as settled
    EXPECT_EQ(hart_.s.minstret, 1u);  // the load's, which the helper counted
    EXPECT_EQ(hart_.time.ps(), 1000u);
    EXPECT_EQ(hart_.s.events[kEvBranch], 0u);
    EXPECT_EQ(x_[1], 1u);
    fresh();
    const JitStep plain = run();
    EXPECT_EQ(plain.status >> 32, uint64_t{kExitRetired});
    EXPECT_GT(x_[1], 1u);
  }
}

// A counted loop's load that leaves the load region calls its helper with
// the passes counted so far retired: the helper sees minstret, the time and
// the history as pass by pass (a functional run's loads: no D-cache).
TEST_F(TranslatedChain, ACountedLoopsHelperSeesItsPassesRetired) {
  load_first_ = true;
  translate(0, true, true, 8);
  const DecodedBlock* ring[8] = {};
  hart_.history.ring = ring;
  hart_.icache.last_line = 0x40;
  hart_.time.set_quantum(from_ps(100 * kBlockPs + 99 * 100));  // the 100th pass retires at its end
  alignas(8) uint64_t mem[64] = {};
  hart_.rd.base = 0;
  hart_.rd.size = sizeof mem;  // the passes from the 65th on load outside it
  hart_.rd.ptr = reinterpret_cast<uint8_t*>(mem);
  const JitStep s = run();
  EXPECT_EQ(s.status, 3 | uint64_t{kExitRetired} << 32);
  const uint64_t passes = x_[1] / 8;
  EXPECT_EQ(passes, 100u);
  std::vector<FakeHart::Seen> expected;
  for (uint64_t j = 65; j <= passes; ++j)  // j - 1 passes retired, each re-entered (a hit)
    expected.push_back({3 * (j - 1), (j - 1) * (kBlockPs + 100), j - 1});
  EXPECT_EQ(hart_.loads_seen, expected);
  EXPECT_EQ(x_[3], 7u);
  EXPECT_EQ(hart_.s.minstret, 3 * passes);
}

// An out-of-line instruction (exec_other, which reads the registers in
// memory) in a block that loops in its own code sees the registers written
// after it in the pass before: the loop's pointer goes on (an FSD loop over
// an array, its pointer incremented after the store). Entering through
// `enter` (no loop_back) reloads the registers as a control.
TEST_F(TranslatedChain, OutOfLineInstructionsSeeTheRegistersOfTheLastPassWhenLoopingInItsOwnCode) {
  out_of_line_first_ = true;
  for (bool loop_back : {true, false}) {
    SCOPED_TRACE(loop_back);
    translate(0, true, loop_back, 8);
    const DecodedBlock* ring[8] = {};
    hart_.icache.last_line = 0x40;
    hart_.history.ring = ring;
    const JitStep s = run();
    EXPECT_EQ(s.status, 3 | uint64_t{kExitRetired} << 32);
    EXPECT_EQ(hart_.other_rs1, (std::vector<uint64_t>{0, 8, 16, 24, 32}));
    EXPECT_EQ(x_[1], 40u);
    EXPECT_EQ(hart_.s.minstret, 15u);
  }
}

// A block of translated fetches (regime 1) enters in the code too while the
// TLB holds its translation; once the TLB has replaced it, enter is called.
TEST_F(TranslatedChain, EntersATranslatedFetchBlockWhileItsTranslationIsHeld) {
  translate(1, true);
  const DecodedBlock* ring[8] = {};
  for (uint64_t inserts : {9u, 10u}) {
    SCOPED_TRACE(inserts);
    fresh();
    hart_.fetch_key = 1;
    hart_.icache.last_line = 0x40;
    hart_.history.ring = ring;
    hart_.tlb_inserts = inserts;
    block_.tlb_until = 10;
    run();
    EXPECT_EQ(hart_.entered.size(), inserts < 10 ? 0u : 4u);  // negative control: 10 is not held
    EXPECT_EQ(hart_.icache.hits, inserts < 10 ? 4u : 0u);
    EXPECT_EQ(x_[1], 5u);
  }
}

TEST_F(TranslatedChain, EndsWithoutALinkOrCode) {
  block_.link_pc[1] = ~0ull;
  expect_one_block();
  fresh();
  DecodedBlock untranslated;
  block_.link[1] = &untranslated;
  expect_one_block();
}

// A block ending in an indirect jump whose two links are set and miss the
// next pc looks it up in the slot cache (BlockChain::lookup): the block in
// the pc's slot, of the block's fetch regime, goes on as a linked one would;
// any other slot ends the chain, as does a link not set (the run loop links
// the next block there). A block ending in a direct jump does not look.
TEST_F(TranslatedChain, FindsTheNextBlockOfAnIndirectJumpInTheSlotCache) {
  std::vector<BlockCache::Slot> slots(BlockCache::kSlots);
  BlockCache::Slot& slot = slots[BlockCache::slot_of(kPc)];
  DecodedBlock elsewhere;
  const auto prepare = [&](BlockCache::Slot s) {
    fresh();
    for (unsigned i = 0; i < 2; ++i) {
      block_.link_pc[i] = kPc + 0x100 * (i + 1);
      block_.link[i] = &elsewhere;
    }
    x_[2] = kPc;
    hart_.block_slots = slots.data();
    slot = s;
  };
  indirect_ = true;
  translate(0);
  prepare({kPc, &block_, 0});
  run();
  EXPECT_EQ(x_[1], 5u);
  ASSERT_EQ(hart_.entered.size(), 4u);
  EXPECT_EQ(hart_.entered.back(), std::make_pair(static_cast<const DecodedBlock*>(&block_), kPc));
  DecodedBlock untranslated;
  untranslated.pc = kPc;
  const std::vector<std::pair<const char*, BlockCache::Slot>> misses = {
      {"another pc", {kPc + 2 * BlockCache::kSlots, &block_, 0}},
      {"another fetch regime", {kPc, &block_, 1}},
      {"no block", {kPc, nullptr, 0}},
      {"untranslated", {kPc, &untranslated, 0}},
  };
  for (const auto& [what, miss] : misses) {
    SCOPED_TRACE(what);
    prepare(miss);
    expect_one_block();
  }
  for (unsigned unset = 0; unset < 2; ++unset) {
    SCOPED_TRACE("link " + std::to_string(unset) + " not set");
    prepare({kPc, &block_, 0});
    block_.link[unset] = nullptr;
    expect_one_block();
  }
  // Regime 1: the slot's regime is the block's.
  translate(1);
  prepare({kPc, &block_, 1});
  hart_.fetch_key = 1;
  run();
  EXPECT_EQ(hart_.entered.size(), 4u);
  // Negative control: the direct jump back, its links missing, does not look.
  indirect_ = false;
  translate(0);
  prepare({kPc, &block_, 0});
  expect_one_block();
}

// A direct jump (DirectJumps), aimed by BlockCache::link at the block linked
// for its pc, goes there without the links' lookup: with the link's pc
// forgotten the chain still goes on. Once the link goes (two other links
// take its place), the jump leads to the lookup again, which misses.
TEST_F(TranslatedChain, ADirectJumpGoesToItsLinkedBlockUntilTheLinkGoes) {
  translate(0, false, true);  // its own BlockChain::self, no inline enter: no loop in its code, enter is called
  block_.link_pc[1] = ~0ull;
  block_.link[1] = nullptr;
  BlockCache::link(block_, block_);
  ASSERT_NE(block_.jumps.at[0], 0u);
  EXPECT_EQ(block_.jumps.pc[0], kPc);
  for (uint64_t& pc : block_.link_pc) pc = ~0ull;  // the lookup would miss
  run();
  EXPECT_EQ(x_[1], 5u);
  EXPECT_EQ(hart_.s.minstret, 10u);
  EXPECT_EQ(hart_.time.ps(), 5 * kBlockPs);
  ASSERT_EQ(hart_.entered.size(), 4u);
  EXPECT_EQ(hart_.entered.back(), std::make_pair(static_cast<const DecodedBlock*>(&block_), kPc));
  DecodedBlock a, b;
  a.pc = 0x2000;
  b.pc = 0x3000;
  BlockCache::link(block_, a);
  BlockCache::link(block_, b);  // in the place of the link to block_
  fresh();
  block_.link_pc[1] = ~0ull;
  expect_one_block();
}

// Two blocks jumping to each other enter each other in their code through
// their direct jumps (the I-cache line hits again, each entry is recorded
// and counted), whether the jump was aimed when linking or when its target
// was translated later; the lookup is not asked (the links' pcs are
// forgotten). Negative control: links to other blocks in their place end the
// chain after one block.
TEST_F(TranslatedChain, TwoBlocksEnterEachOtherThroughTheirDirectJumps) {
  two_blocks_ = true;
  translate(0, true, true);
  const DecodedBlock* ring[8] = {};
  const auto prepare = [&] {
    fresh();
    unlink_both();
    hart_.icache.last_line = 0x40;
    hart_.history.ring = ring;
  };
  for (const bool later : {false, true}) {
    SCOPED_TRACE(later ? "aimed when translated" : "aimed when linked");
    prepare();
    const TranslatedBlock code = other_.code;
    if (later) other_.code = nullptr;
    BlockCache::link(block_, other_);
    BlockCache::link(other_, block_);
    if (later) {
      other_.code = code;
      BlockCache::translated(other_);
    }
    for (DecodedBlock* b : {&block_, &other_}) b->link_pc[0] = ~0ull;
    run();
    EXPECT_TRUE(hart_.entered.empty());
    EXPECT_EQ(x_[1], 5u);
    EXPECT_EQ(hart_.time.ps(), 5 * kBlockPs + 4 * 100);
    EXPECT_EQ(hart_.icache.hits, 4u);
    EXPECT_EQ(hart_.history.pos, 4u);
    EXPECT_EQ(ring[0], &other_);
    EXPECT_EQ(ring[3], &block_);
    EXPECT_EQ(hart_.lazy, &block_);  // the fifth
  }
  prepare();
  DecodedBlock a, b;
  a.pc = 0x2000;
  b.pc = 0x3000;
  BlockCache::link(block_, other_);
  BlockCache::link(block_, a);
  BlockCache::link(block_, b);
  const JitStep s = run();
  EXPECT_EQ(s.value, kOtherPc);
  EXPECT_EQ(s.status, 2 | uint64_t{kExitRetired} << 32);
  EXPECT_EQ(x_[1], 1u);
}

// Two blocks of one line each, in lines 0x40 and 0x41, entering each other
// through their direct jumps: the first entry's line was fetched last (hit
// again), every later one's the line before (hit_previous: the two swap, the
// line's way used, the clock on), each timed as the block's hit, all in the
// code (a direct entry does the one line's hits by the shared routine, not
// by enter_next). Negative control: the line before's way reused, enter is
// called for the entries after the first.
TEST_F(TranslatedChain, OneLineBlocksEnterEachOtherThroughTheLineBefore) {
  two_blocks_ = true;
  translate(0, true, true);
  const DecodedBlock* ring[8] = {};
  CacheWay line_40, line_41;
  const auto prepare = [&](uint64_t tag_40) {
    fresh();
    unlink_both();
    other_.first_line = 0x41;
    line_40 = {tag_40, 1};
    line_41 = {0x41, 2};
    hart_.icache.last_line = 0x41;
    hart_.icache.prev_line = 0x40;
    hart_.icache.last_way = &line_41;
    hart_.icache.prev_way = &line_40;
    hart_.icache.clock = 2;
    hart_.history.ring = ring;
    BlockCache::link(block_, other_);
    BlockCache::link(other_, block_);
    for (DecodedBlock* b : {&block_, &other_}) b->link_pc[0] = ~0ull;
  };
  prepare(0x40);
  run();
  EXPECT_TRUE(hart_.entered.empty());
  EXPECT_EQ(x_[1], 5u);
  EXPECT_EQ(hart_.icache.hits, 4u);
  EXPECT_EQ(hart_.time.ps(), 5 * kBlockPs + 4 * 100);
  EXPECT_EQ(hart_.icache.last_line, 0x40u);  // other_, block_, other_, block_
  EXPECT_EQ(hart_.icache.prev_line, 0x41u);
  EXPECT_EQ(hart_.icache.clock, 5u);
  EXPECT_EQ(line_40.used, 5u);
  EXPECT_EQ(line_41.used, 4u);
  EXPECT_EQ(hart_.history.pos, 4u);
  prepare(0x99);
  run();
  EXPECT_FALSE(hart_.entered.empty());
}

TEST_F(TranslatedChain, ReportsAFailedEnter) {
  hart_.enter_fails = true;
  const JitStep s = run();
  EXPECT_EQ(s.status, uint64_t{kExitEnterFailed} << 32);
  EXPECT_EQ(s.value, kPc);
  ASSERT_EQ(hart_.entered.size(), 1u);
  EXPECT_EQ(x_[1], 1u);  // the registers of the block that ran are written back
}

}  // namespace

namespace {

// The makers count their calls; their code returns the layout's first byte.
unsigned makes = 0;
std::vector<uint8_t> make_returning_byte(const void* layout) {
  ++makes;
  return {0xB8, *static_cast<const uint8_t*>(layout), 0, 0, 0, 0xC3};  // mov eax, imm32; ret
}
std::vector<uint8_t> make_returning_byte_plus_one(const void* layout) {
  ++makes;
  return {0xB8, static_cast<uint8_t>(*static_cast<const uint8_t*>(layout) + 1), 0, 0, 0, 0xC3};
}

TEST(SharedRoutines, OneRoutinePerMakerAndLayout) {
  if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
  const uint8_t seven[] = {7, 0}, also_seven[] = {7, 0}, nine[] = {9, 0};
  const void* a = shared_routine("returning_byte", make_returning_byte, seven, sizeof seven);
  ASSERT_NE(a, nullptr);
  // Equal bytes: made once.
  EXPECT_EQ(shared_routine("returning_byte", make_returning_byte, also_seven, sizeof also_seven), a);
  EXPECT_EQ(makes, 1u);
  const void* b = shared_routine("returning_byte", make_returning_byte, nine, sizeof nine);
  const void* c = shared_routine("returning_byte_plus_one", make_returning_byte_plus_one, seven, sizeof seven);
  EXPECT_EQ(makes, 3u);
  EXPECT_NE(b, a);
  EXPECT_NE(c, a);
  // Each runs as its maker made it.
  using Fn = int (*)();
  EXPECT_EQ(reinterpret_cast<Fn>(const_cast<void*>(a))(), 7);
  EXPECT_EQ(reinterpret_cast<Fn>(const_cast<void*>(b))(), 9);
  EXPECT_EQ(reinterpret_cast<Fn>(const_cast<void*>(c))(), 8);
}

}  // namespace
