// The differential tests of translated loads and stores
// (test_data_hits_differential.cpp, test_region_again_differential.cpp):
// one translated block per load and store (LB .. LWU, then SB .. SD), x3 =
// [x2] for the loads and [x2] = x3 for the stores, with the inline fast
// paths on and helpers that only count their calls in the hot state's
// owner (`Side`, derived from HartHotState with an unsigned helper_calls).
#pragma once
#include <cstdint>
#include <vector>

#include "harts/hart_hot_state.h"

namespace avp::test {

constexpr unsigned kAccessOps = 11;  // the 7 loads, then the 4 stores
constexpr unsigned kAccessLoadOps[] = {rv::LB, rv::LH, rv::LW, rv::LD, rv::LBU, rv::LHU, rv::LWU};
constexpr unsigned kAccessLoadBytes[] = {1, 2, 4, 8, 1, 2, 4};

constexpr bool access_is_store(unsigned i) { return i >= 7; }
constexpr unsigned access_bytes(unsigned i) { return access_is_store(i) ? 1u << (i - 7) : kAccessLoadBytes[i]; }
// The value a load of block i leaves in x3 for the `loaded` bytes (LB LH LW extend the sign).
constexpr uint64_t access_extended(unsigned i, uint64_t loaded) {
  const unsigned bits = 8 * access_bytes(i);
  return i < 3 && bits < 64 && (loaded >> (bits - 1)) & 1 ? loaded | ~0ull << bits : loaded;
}

template <typename Side>
JitStep counting_load(void* hot, uint64_t, uint64_t, const rv::Insn*) {
  ++static_cast<Side*>(static_cast<HartHotState*>(hot))->helper_calls;
  return {0, kExitDone};
}
template <typename Side>
JitStep counting_store(void* hot, uint64_t, uint64_t, uint64_t, const rv::Insn*) {
  ++static_cast<Side*>(static_cast<HartHotState*>(hot))->helper_calls;
  return {0, kExitDone};
}

template <typename Side>
class AccessBlocks {
 public:
  // The fast paths with the D-cache whose quick state is `timed` (its line
  // size and hit time); none: a functional run's (no D-cache). `in_loop`:
  // each block is the access and a branch back to it (a loop's accesses,
  // emit_inline_load's `in_loop`), which leaves the block when taken.
  explicit AccessBlocks(const CacheQuickState* timed, bool in_loop = false)
      : loads_(hot_offsets::inline_accesses(/*stores=*/false, timed)),
        stores_{hot_offsets::inline_accesses(/*stores=*/true, timed), &reservations_, nullptr, 0, 30} {
    const auto load = &counting_load<Side>;
    const auto store = &counting_store<Side>;
    helpers_ = {{load, load, load, load, load, load, load},
                {store, store, store, store},
                nullptr,
                &loads_,
                &stores_,
                nullptr,
                hot_offsets::kHartFromRegs};
    for (unsigned i = 0; i < kAccessOps; ++i) {
      rv::Insn d;
      d.op = static_cast<uint16_t>(access_is_store(i) ? rv::SB + (i - 7) : kAccessLoadOps[i]);
      d.rd = access_is_store(i) ? 0 : 3;
      d.rs1 = 2;
      d.rs2 = 3;
      d.len = 4;
      insns_.push_back(d);
    }
    rv::Insn back;  // beq x0, x0, the access
    back.op = rv::BEQ;
    back.imm = -4;
    back.len = 4;
    for (const rv::Insn& d : std::vector<rv::Insn>(insns_)) {
      const rv::Insn block[2] = {d, back};
      code_.push_back(translate_block(block, in_loop ? 2 : 1, 0x1000, helpers_, nullptr, nullptr, arena_));
    }
    insns_per_block_ = in_loop ? 2 : 1;
  }
  AccessBlocks(const AccessBlocks&) = delete;
  AccessBlocks& operator=(const AccessBlocks&) = delete;

  bool translated() const {
    for (const TranslatedBlock& c : code_)
      if (!c) return false;
    return true;
  }
  // What running block i on `side` with x2 = va and x3 = value did.
  struct Ran {
    uint64_t status;  // the block's instructions: all of them done
    bool helped;      // it called its helper
    uint64_t x3;
  };
  Ran run(Side& side, unsigned i, uint64_t va, uint64_t value) const {
    uint64_t* const x = static_cast<HartHotState&>(side).s.x;
    std::fill(x, x + 32, 0);
    x[2] = va;
    x[3] = value;
    const unsigned calls = side.helper_calls;
    const uint64_t status = code_[i](x).status;
    return {status, side.helper_calls != calls, x[3]};
  }
  unsigned insns_per_block() const { return insns_per_block_; }

 private:
  unsigned reservations_ = 0;  // no hart holds one
  InlineLoads loads_;
  InlineStores stores_;
  TranslationHelpers helpers_{};
  std::vector<rv::Insn> insns_;
  std::vector<TranslatedBlock> code_;
  unsigned insns_per_block_ = 1;
  CodeArena arena_;
};

}  // namespace avp::test
