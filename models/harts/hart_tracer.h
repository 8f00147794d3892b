// Observers of a hart's execution that are not debuggers: the instruction and
// memory trace, and the history of the last instructions kept for error
// reports.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/host_lines.h"
#include "harts/decoded_block.h"
#include "harts/rv_insn.h"

namespace avp {

class Hart;

// Called around every instruction while attached (Hart::set_tracer). A hart
// with neither a tracer nor a debug hook runs blocks through a loop without
// these calls, so tracing costs nothing when off. `after` is not called when
// the instruction traps.
class HartTracer {
 public:
  virtual ~HartTracer() = default;
  virtual void before(Hart& hart, uint64_t pc, const rv::Insn& d) = 0;
  virtual void after(Hart& hart, uint64_t pc, const rv::Insn& d) = 0;
};

// The last instructions a hart executed (pc and encoding), for error reports.
// Recorded per decoded block, not per instruction: one entry, the block, in
// a ring of power-of-two capacity, so the per-instruction loop records
// nothing and entering a block stores one pointer. A block that ended early
// (a trap, a debugger, an abort) notes how many of its instructions ran
// beside the ring, with the entry's number. The entries point to decoded
// blocks; before those are dropped the hart calls freeze(), which keeps the
// instructions as plain (pc, encoding) pairs.
class InsnHistory {
 public:
  InsnHistory() = default;
  InsnHistory(const InsnHistory&) = delete;  // ring_data_ points into its own ring_
  InsnHistory& operator=(const InsnHistory&) = delete;
  struct Entry {
    uint64_t pc;
    uint32_t raw;  // Insn::raw: 16 bits for compressed instructions
  };
  void set_length(unsigned n) {
    length_ = n;
    unsigned cap = 1;
    while (cap < n) cap <<= 1;
    ring_.assign(cap, nullptr);
    ring_data_ = ring_.data();
    early_.assign(cap, Early{});
    mask_ = cap - 1;
    clear();
  }
  void clear() {
    pos_ = from_ = 0;
    std::fill(early_.begin(), early_.end(), Early{});
    frozen_.clear();
  }
  // A block starts: all of its instructions count as executed until end_block_early says otherwise.
  void record_block(const DecodedBlock* b) { ring_data_[pos_++ & mask_] = b; }
  // For translated code, which records a block itself (block_translator.h, InlineEnter).
  const uint64_t* pos_address() const { return &pos_; }
  const uint64_t* mask_address() const { return &mask_; }
  const DecodedBlock* const* const* ring_address() const { return &ring_data_; }
  // The block that was recorded last ended after `executed` instructions.
  void end_block_early(uint32_t executed) {
    if (pos_ > from_) early_[(pos_ - 1) & mask_] = Early{pos_ - 1, executed};
  }
  // The decoded blocks are about to be dropped: keep what the entries point to.
  void freeze() {
    frozen_ = last();
    from_ = pos_;
  }
  // Up to length() entries, oldest first.
  std::vector<Entry> last() const {
    std::vector<Entry> recent;  // newest first
    for (uint64_t i = pos_; i > from_ && recent.size() < length_ && pos_ - i < ring_.size(); --i) {
      const DecodedBlock& b = *ring_[(i - 1) & mask_];
      const Early& e = early_[(i - 1) & mask_];
      const size_t n = e.entry == i - 1 ? e.executed : b.insns.size();
      uint64_t pc = b.pc;
      std::vector<Entry> run;
      for (size_t k = 0; k < n; ++k) {
        run.push_back(Entry{pc, b.insns[k].raw});
        pc += b.insns[k].len;
      }
      for (auto it = run.rbegin(); it != run.rend() && recent.size() < length_; ++it) recent.push_back(*it);
    }
    for (auto it = frozen_.rbegin(); it != frozen_.rend() && recent.size() < length_; ++it) recent.push_back(*it);
    return std::vector<Entry>(recent.rbegin(), recent.rend());
  }
  unsigned length() const { return length_; }

 private:
  struct Early {
    uint64_t entry = ~0ull;  // the ring entry's number (pos_ when it was recorded)
    uint32_t executed = 0;
  };
  std::vector<const DecodedBlock*, HostLineAllocator<const DecodedBlock*>> ring_ =
      std::vector<const DecodedBlock*, HostLineAllocator<const DecodedBlock*>>(1);  // base/host_lines.h
  const DecodedBlock** ring_data_ = ring_.data();
  std::vector<Early, HostLineAllocator<Early>> early_ = std::vector<Early, HostLineAllocator<Early>>(1);
  std::vector<Entry> frozen_;
  uint64_t pos_ = 0, from_ = 0, mask_ = 0;  // entries from_ .. pos_ - 1 are in the ring (if it holds so many)
  unsigned length_ = 0;
};

}  // namespace avp
