// A hart's decoded blocks (decoded_block.h) and their host code: the blocks
// per fetch regime, a direct-mapped slot cache in front of them, the
// physical pages their code lies in, the live blocks of checked fetches, the
// links between blocks and the translation cache (code_arena.h).
//
// The hart decodes and translates blocks (fetching through its Mmu) and
// hands them over; the cache finds them again, drops those whose code was
// written, forgets a fetch regime's blocks and expires the live ones after a
// change of translation. What may drop a block that is running is deferred
// to the next block boundary (pending, catch_up). It tells BlockHolders
// before any block goes. A lookup that hits the slot cache is inline and
// makes no virtual call. docs/harts.md, "Where it lives".
#pragma once
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/host_lines.h"
#include "harts/code_arena.h"
#include "harts/decoded_block.h"

namespace avp {

// What points to decoded blocks outside the cache (the hart's instruction history).
class BlockHolders {
 public:
  virtual void blocks_going() = 0;  // some or all blocks are about to be dropped

 protected:
  ~BlockHolders() = default;
};

class BlockCache {
 public:
  // Fetch regimes (HartHotState::fetch_key): 0 physical and unchecked (the
  // common case), 1 + priv for fetches that are translated or PMP-checked
  // (those are dropped when the PMP changes, and checked again after a
  // change of translation).
  static constexpr unsigned kFetchKeys = 5;
  static constexpr unsigned kSlots = 4096;  // of the direct-mapped cache in front of the blocks

  explicit BlockCache(BlockHolders& holders) : holders_(holders) {}
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // The block at pc decoded for fetch regime `key` (nullptr: none), kept in
  // its slot: the slot cache first, then the regime's blocks.
  const DecodedBlock* find(uint64_t pc, uint8_t key) {
    Slot& slot = slots_[slot_of(pc)];
    if (slot.pc == pc && slot.key == key && slot.block) return slot.block;
    const DecodedBlock* b = decoded(pc, key);
    if (b && pc != return_pc_) slot = {pc, b, key};
    return b;
  }
  // As find, without the slot cache (which it leaves as it is).
  const DecodedBlock* decoded(uint64_t pc, uint8_t key) const {
    const auto it = blocks_[key].find(pc);
    return it == blocks_[key].end() ? nullptr : &it->second;
  }
  // A newly decoded block (of regime b.key, not there yet); a block of a
  // checked fetch is live.
  const DecodedBlock& insert(DecodedBlock&& b);
  // Whether decoded code lies in the physical page `page` (page number), in any regime.
  bool holds_code_page(uint64_t page) const;
  // Counts the changes to the decoded blocks (an insert, a drop, a forget).
  uint64_t epoch() const { return epoch_; }

  // A kernel instance's return address (Hart::start; 1, which no pc is:
  // none): no block links to the blocks there and the slot cache does not
  // hold them while it is set, so translated code, which finds the next
  // block through those, never enters one and need not compare each next
  // pc with it. (The run loop stops there before it would link one:
  // Hart::chain_goes_on comes before Hart::next_block.)
  void set_return_pc(uint64_t pc);

  // b's older link (DecodedBlock::link) now to next (noted in next.linked_from, which drop unlinks),
  // and b's direct jump for next's pc to next.
  static void link(const DecodedBlock& b, const DecodedBlock& next) {
    const unsigned i = b.next_link;
    if (const DecodedBlock* old = b.link[i]) {
      remove(old->linked_from, &b);
      aim_jump(b, old->pc, nullptr);
    }
    b.link_pc[i] = next.pc;
    b.link[i] = &next;
    next.linked_from.push_back(&b);
    b.next_link ^= 1;
    aim_jump(b, next.pc, &next);
  }
  // b has new code: its direct jumps to the blocks it links to, and theirs to it.
  static void translated(const DecodedBlock& b);

  // Drops the blocks, unlinked from the blocks that stay.
  void drop(const std::vector<const DecodedBlock*>& victims);
  // fence.i: drops the blocks of unchecked fetches and the live blocks for
  // which changed(block) is true (the others are checked when next entered).
  template <typename Changed>
  void drop_changed(Changed changed) {
    std::vector<const DecodedBlock*> victims;
    const auto check = [&](const DecodedBlock& b) {
      if (changed(b)) {
        b.dropping = true;
        victims.push_back(&b);
      }
    };
    for (const auto& [pc, b] : blocks_[0]) check(b);
    for (const DecodedBlock* b : live_) check(*b);
    drop(victims);
  }
  void clear();  // every block and its host code; nothing pending

  // Checked fetches: b's pages' translation was checked.
  void make_live(const DecodedBlock& b) {
    b.live = true;
    live_.push_back(&b);
  }
  // What may drop or change a block that is running, deferred to the next
  // block boundary: the blocks with code in the physical range [lo, hi)
  // (the cluster's code map saw it written), in every regime;
  void drop_code(uint64_t lo, uint64_t hi) { code_drops_.push_back({lo, hi}); }
  // every block of regimes 1.. (a PMP write, a start): deferred while one
  // is live (true), else now;
  bool forget_checked();
  // after a change of translation: every live block is checked again at its
  // next entry (its tlb_until 0); true when there is one.
  bool expire_live();
  // Whether any of those waits for catch_up (a full translation cache does
  // not: its code runs until the next block boundary).
  bool pending() const { return forget_checked_ || expire_live_ || !code_drops_.empty(); }
  // At a block boundary: what was deferred, and a full translation cache emptied.
  void catch_up() {
    if (pending() || code_.full()) do_deferred();
  }

  // The translation cache: a block's host code is added here (Hart::translate).
  CodeArena& code() { return code_; }
  bool code_full() const { return code_.full(); }
  // Some blocks lost their host code to a full translation cache: each is
  // translated again at its next entry.
  bool translate_again() const { return translate_again_; }

  // The slot cache's entries: translated code looks its next block up there
  // after an indirect jump (hot_offsets::block_chain, BlockChain::lookup).
  struct Slot {
    uint64_t pc = 0;
    const DecodedBlock* block = nullptr;
    uint8_t key = 0;
  };
  static unsigned slot_of(uint64_t pc) { return (pc >> 1) & (kSlots - 1); }
  const Slot* slots() const { return slots_.data(); }  // kSlots of them, where they stay

 private:
  // b out of v (in any order), if there.
  static void remove(std::vector<const DecodedBlock*>& v, const DecodedBlock* b) {
    const auto it = std::find(v.begin(), v.end(), b);
    if (it != v.end()) {
      *it = v.back();
      v.pop_back();
    }
  }
  void unlink_from(const DecodedBlock& v);  // the blocks linked to v forget the link
  // from's direct jump for next pc `pc` (if its code has one) to `to`'s entry
  // when both are translated, else to from's lookup (DirectJumps).
  static void aim_jump(const DecodedBlock& from, uint64_t pc, const DecodedBlock* to);
  void forget(unsigned key);  // blocks_[key] and its code_pages_, all of them
  void forget_checked_now();
  void expire_live_now();
  void do_deferred();    // catch_up's work
  void drop_written();     // the blocks of code_drops_
  void drop_host_code();   // every block's code goes, the blocks stay

  BlockHolders& holders_;
  uint64_t return_pc_ = 1;  // set_return_pc
  // Nodes from the host-line pools (base/host_lines.h): blocks are decoded and dropped all through a boot.
  std::unordered_map<uint64_t, DecodedBlock, std::hash<uint64_t>, std::equal_to<uint64_t>,
                     HostLineAllocator<std::pair<const uint64_t, DecodedBlock>>>
      blocks_[kFetchKeys];
  // Per fetch regime, the blocks whose code lies in each physical page (by page number).
  std::unordered_map<uint64_t, std::vector<const DecodedBlock*>> code_pages_[kFetchKeys];
  // Direct-mapped, in front of blocks_.
  std::vector<Slot, HostLineAllocator<Slot>> slots_ = std::vector<Slot, HostLineAllocator<Slot>>(kSlots);
  // The blocks of checked fetches decoded or checked since the last change of
  // translation (satp, SFENCE.VMA): those a drop of every such block at each
  // change would have left. The others stay decoded but hold no translation
  // (tlb_until 0): entering one checks its pages again (Hart::translate_fetch_again).
  std::vector<const DecodedBlock*> live_;
  std::vector<std::pair<uint64_t, uint64_t>> code_drops_;  // drop_code's ranges not dropped yet
  bool forget_checked_ = false;  // forget_checked deferred
  bool expire_live_ = false;     // expire_live deferred
  CodeArena code_;               // the translated blocks' code
  bool translate_again_ = false;
  uint64_t epoch_ = 0;
};

}  // namespace avp
