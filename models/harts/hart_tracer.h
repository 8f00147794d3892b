// Observers of a hart's execution that are not debuggers: the instruction and
// memory trace, and the history of the last instructions kept for error
// reports.
#pragma once
#include <cstdint>
#include <vector>

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

// The last instructions a hart executed (pc and encoding), in a ring whose
// capacity is a power of two: recording is two stores and an increment.
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
    ring_.assign(cap, Entry{0, 0});
    mask_ = cap - 1;
    pos_ = 0;
  }
  void clear() { pos_ = 0; }
  void record(uint64_t pc, uint32_t raw) { ring_[pos_++ & mask_] = Entry{pc, raw}; }
  // Up to length() entries, oldest first.
  std::vector<Entry> last() const {
    const uint64_t n = pos_ < length_ ? pos_ : length_;
    std::vector<Entry> out;
    for (uint64_t i = pos_ - n; i < pos_; ++i) out.push_back(ring_[i & mask_]);
    return out;
  }
  unsigned length() const { return length_; }

 private:
  std::vector<Entry> ring_ = std::vector<Entry>(1);
  uint64_t pos_ = 0, mask_ = 0;
  unsigned length_ = 0;
};

}  // namespace avp
