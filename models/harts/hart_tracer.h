// Observers of a hart's execution that are not debuggers: the instruction and
// memory trace, and the history of the last instructions kept for error
// reports.
#pragma once
#include <cstdint>
#include <vector>

#include "base/host_lines.h"
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
// Recorded per decoded block, not per instruction: one entry (the block's
// instructions, its pc, how many ran) in a ring of power-of-two capacity, so
// the per-instruction loop records nothing. The entries point into decoded
// blocks; before those are dropped the hart calls freeze(), which keeps the
// instructions as plain (pc, encoding) pairs.
class InsnHistory {
 public:
  struct Entry {
    uint64_t pc;
    uint32_t raw;  // Insn::raw: 16 bits for compressed instructions
  };
  void set_length(unsigned n) {
    length_ = n;
    unsigned cap = 1;
    while (cap < n) cap <<= 1;
    ring_.assign(cap, Run{});
    mask_ = cap - 1;
    clear();
  }
  void clear() {
    pos_ = 0;
    frozen_.clear();
  }
  // A block starts: all `n` of its instructions count as executed until end_block_early says otherwise.
  void record_block(const rv::Insn* insns, uint64_t pc, uint32_t n) { ring_[pos_++ & mask_] = Run{insns, pc, n}; }
  // The block that was recorded last ended after `executed` instructions (a trap, a debugger, an abort).
  void end_block_early(uint32_t executed) {
    if (pos_) ring_[(pos_ - 1) & mask_].n = executed;
  }
  // The decoded blocks are about to be dropped: keep what the entries point to.
  void freeze() {
    frozen_ = last();
    pos_ = 0;
  }
  // Up to length() entries, oldest first.
  std::vector<Entry> last() const {
    std::vector<Entry> recent;  // newest first
    for (uint64_t i = pos_; i > 0 && recent.size() < length_ && pos_ - i < ring_.size(); --i) {
      const Run& r = ring_[(i - 1) & mask_];
      uint64_t pc = r.pc;
      std::vector<Entry> run;
      for (uint32_t k = 0; k < r.n; ++k) {
        run.push_back(Entry{pc, r.insns[k].raw});
        pc += r.insns[k].len;
      }
      for (auto it = run.rbegin(); it != run.rend() && recent.size() < length_; ++it) recent.push_back(*it);
    }
    for (auto it = frozen_.rbegin(); it != frozen_.rend() && recent.size() < length_; ++it) recent.push_back(*it);
    return std::vector<Entry>(recent.rbegin(), recent.rend());
  }
  unsigned length() const { return length_; }

 private:
  struct Run {
    const rv::Insn* insns = nullptr;
    uint64_t pc = 0;
    uint32_t n = 0;
  };
  std::vector<Run, HostLineAllocator<Run>> ring_ = std::vector<Run, HostLineAllocator<Run>>(1);  // base/host_lines.h
  std::vector<Entry> frozen_;
  uint64_t pos_ = 0, mask_ = 0;
  unsigned length_ = 0;
};

}  // namespace avp
