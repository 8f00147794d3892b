// The fixture of the translated-chain tests (test_translated_chain.cpp,
// test_enter_stub.cpp): a block at kPc (x1 += step, then a jump back to kPc)
// linked to itself, translated with a BlockChain whose fields are a fake
// hart's, and the fake functions the code calls (enter, enter_second,
// quantum_end).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "fake_cache_fields.h"
#include "harts/block_translator.h"

namespace avp::test {

using namespace avp::rv;

constexpr uint64_t kPc = 0x1000;
constexpr uint64_t kBlockPs = 3000;

struct FakeBlock {
  uint64_t link_pc[2] = {~0ull, ~0ull};
  const FakeBlock* link[2] = {nullptr, nullptr};
  TranslatedBlock code = nullptr;
  uint64_t fetch_gen = 5, first_line = 0x40, fetch_hit_ps = 100;  // InlineEnter's
  uint32_t lines = 1;
  uint32_t fetch_way[2] = {};
  uint64_t tlb_until = ~0ull;  // translated fetches: held while the TLB's inserts are below
};

struct FakeHart {
  uint32_t settled = 0;
  uint64_t minstret = 0, mcycle = 0, time_ps = 0, quantum_ps = 0, events[2] = {};
  uint64_t limit = 0, ret_addr = 0, mip = 0, mie = 0;
  bool kernel = false;
  bool stop = false, block_abort = false, chain_closed = false;  // the gate: these three and the fetch key
  uint8_t fetch_key = 0;
  // InlineEnter's: the I-cache's last line none at first (every entry calls enter).
  uint64_t dmi_gen = 5, last_line = ~0ull, hits = 0, stall_ps = 0, pc = 0;
  uint64_t prev_line = ~0ull;
  const void* last_way = nullptr;
  const void* prev_way = nullptr;
  uint64_t clock = 0;
  const void* ways = nullptr;
  uint64_t way_count = 0;
  uint64_t tlb_inserts = 0;
  uint64_t history_pos = 0, history_mask = 7;
  const void** history_ring = nullptr;
  const void* lazy = nullptr;
  bool enter_fails = false;
  std::vector<std::pair<const FakeBlock*, uint64_t>> entered, entered_second;
  unsigned quantum_ends = 0, quantum_goes_on = 0;  // quantum_end's calls, and how many of them go on
};

// The run loop at a quantum's end: the next quantum, while goes_on lasts.
inline uint64_t fake_quantum_end(void* hart) {
  FakeHart& h = *static_cast<FakeHart*>(hart);
  if (++h.quantum_ends > h.quantum_goes_on) return 0;
  h.quantum_ps += 5 * kBlockPs;
  return 1;
}

inline const uint8_t* fake_enter(void* hart, const void* block, uint64_t pc) {
  FakeHart& h = *static_cast<FakeHart*>(hart);
  const auto& b = *static_cast<const FakeBlock*>(block);
  h.entered.emplace_back(&b, pc);
  if (h.enter_fails) return nullptr;
  return reinterpret_cast<const uint8_t*>(b.code) + kTranslatedInnerEntry;
}

// The enter stub's way in after a two-line block's first line hit.
inline const uint8_t* fake_enter_second(void* hart, const void* block, uint64_t pc) {
  FakeHart& h = *static_cast<FakeHart*>(hart);
  const auto& b = *static_cast<const FakeBlock*>(block);
  h.entered_second.emplace_back(&b, pc);
  return reinterpret_cast<const uint8_t*>(b.code) + kTranslatedInnerEntry;
}

class TranslatedChain : public ::testing::Test {
 protected:
  // The block at kPc: x1 += 1, then a jump back to kPc; linked to itself.
  void SetUp() override { translate(0); }
  // Its code, for fetch regime `key`; with `inline_enter`, it enters the next
  // block itself when it can, with `loop_back` itself in its code (BlockChain::self);
  // `step` the add's immediate; with `quantum_end`, fake_quantum_end at a quantum's end.
  void translate(uint8_t key, bool inline_enter = false, bool loop_back = false, int64_t step = 1,
                 bool quantum_end = false) {
    Insn add;
    add.op = ADDI;
    add.rd = add.rs1 = 1;
    add.imm = step;
    Insn jump;
    jump.op = JAL;
    jump.imm = -4;
    insns_.push_back({add, jump});  // earlier code keeps its instructions
    const auto offset = [this](const void* field) {
      return static_cast<int32_t>(static_cast<const char*>(field) - reinterpret_cast<const char*>(&hart_));
    };
    const uint8_t ids[] = {1};
    const uint8_t counts[] = {2};
    const BlockRetire retire{offset(&hart_.settled), offset(&hart_.minstret), offset(&hart_.mcycle),
                             offset(&hart_.time_ps),  offset(&hart_.events[0]), 2, kBlockPs, 1, ids, counts};
    const auto in_block = [this](const void* field) {
      return static_cast<int32_t>(static_cast<const char*>(field) - reinterpret_cast<const char*>(&block_));
    };
    const CacheFields icache = test::fake_cache_fields(hart_);
    const InlineEnter enter{offset(&hart_.dmi_gen),      offset(&hart_.time_ps),      offset(&hart_.stall_ps),
                            offset(&hart_.pc),           icache,                      offset(&hart_.history_pos),
                            offset(&hart_.history_mask), offset(&hart_.history_ring), offset(&hart_.lazy),
                            offset(&hart_.settled),      in_block(&block_.fetch_gen), in_block(&block_.lines),
                            in_block(&block_.first_line), in_block(&block_.fetch_hit_ps),
                            in_block(&block_.fetch_way[0]),
                            offset(&hart_.tlb_inserts),  in_block(&block_.tlb_until),
                            hits_take_no_time_};
    const BlockChain chain{offset(&hart_.stop),      key,
                           offset(&hart_.kernel),    offset(&hart_.time_ps),
                           offset(&hart_.quantum_ps), offset(&hart_.limit),
                           offset(&hart_.minstret),  offset(&hart_.ret_addr),
                           offset(&hart_.mip),       offset(&hart_.mie),
                           block_.link_pc, reinterpret_cast<const void* const*>(block_.link),
                           in_block(&block_.code),   &fake_enter,
                           inline_enter ? &enter : nullptr,
                           loop_back ? &block_ : nullptr,
                           quantum_end ? &fake_quantum_end : nullptr,
                           stub_ && inline_enter ? translate_enter_stub(enter, key, in_block(&block_.code), &fake_enter,
                                                                        &fake_enter_second, arena_)
                                                 : nullptr};
    block_.code = translate_block(insns_.back().data(), insns_.back().size(), kPc, TranslationHelpers{}, &retire,
                                  &chain, arena_);
    ASSERT_NE(block_.code, nullptr);
    fresh();
  }
  // Before a run: the block linked to itself, counters and registers zero, a quantum of five blocks.
  void fresh() {
    block_.link_pc[1] = kPc;
    block_.link[1] = &block_;
    hart_ = FakeHart{};
    hart_.quantum_ps = 5 * kBlockPs;
    std::fill(std::begin(x_), std::end(x_), 0);
  }
  JitStep run() { return block_.code(x_, &hart_); }
  // The chain ended after the first block: retired, nothing entered.
  void expect_one_block() {
    const JitStep s = run();
    EXPECT_EQ(s.value, kPc);
    EXPECT_EQ(s.status, 2 | uint64_t{kExitRetired} << 32);
    EXPECT_EQ(x_[1], 1u);
    EXPECT_EQ(hart_.minstret, 2u);
    EXPECT_TRUE(hart_.entered.empty());
  }

  std::vector<std::vector<Insn>> insns_;
  bool hits_take_no_time_ = false;  // InlineEnter's, for the next translate()
  bool stub_ = false;               // with inline_enter: the next translate() adds an enter stub
  CodeArena arena_;
  FakeBlock block_;
  FakeHart hart_;
  uint64_t x_[32] = {};
};

}  // namespace avp::test
