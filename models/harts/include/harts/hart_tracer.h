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

// The ring of an InsnHistory that recording a block writes, kept where its
// owner puts it (a hart's HartHotState: translated code records blocks too).
// A history of up to kHeld instructions uses the ring held here, which
// translated code indexes by the position's low byte (a load, an add and a
// store per block entered; docs/performance.md). The last entry is the
// block running, which the hart reads there as it takes over from
// translated code (HartHotState::from_code).
struct HistoryRing {
  static constexpr unsigned kHeld = 256;
  const DecodedBlock** ring = nullptr;  // mask + 1 entries: `held`, or the history's own for a longer one
  uint64_t pos = 0;                     // entries recorded so far
  uint64_t mask = 0;
  // The history's length (instructions), which InsnHistory keeps here: code
  // translated for it records a counted loop's passes as only the last
  // entries that hold so many.
  uint64_t length = 0;
  bool kept = true;  // false: a history of no instructions, nothing recorded (the code stores the block running)
  alignas(kHostLine) const DecodedBlock* held[kHeld] = {};
  void record(const DecodedBlock* b) {
    if (kept) ring[pos++ & mask] = b;
  }
  const DecodedBlock* last() const { return ring[(pos - 1) & mask]; }  // the block recorded last (kept, pos > 0)
  bool in_held() const { return ring == held; }
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
  // `r`: where the ring's pointer and position are kept (it outlives the history).
  explicit InsnHistory(HistoryRing& r) : r_(r) { set_length(0); }
  InsnHistory(const InsnHistory&) = delete;  // r_.ring may point into its own ring_
  InsnHistory& operator=(const InsnHistory&) = delete;
  struct Entry {
    uint64_t pc;
    uint32_t raw;  // Insn::raw: 16 bits for compressed instructions
  };
  void set_length(unsigned n) {
    unsigned cap = 1;
    while (cap < n) cap <<= 1;
    if (cap <= HistoryRing::kHeld) {
      cap = HistoryRing::kHeld;
      ring_.clear();
      r_.ring = r_.held;
    } else {
      ring_.assign(cap, nullptr);
      r_.ring = ring_.data();
    }
    std::fill(r_.ring, r_.ring + cap, nullptr);
    early_.assign(cap, Early{});
    r_.mask = cap - 1;
    r_.length = n;
    r_.kept = n != 0;
    clear();
  }
  void clear() {
    r_.pos = from_ = 0;
    std::fill(early_.begin(), early_.end(), Early{});
    frozen_.clear();
  }
  // A block starts: all of its instructions count as executed until end_block_early says otherwise.
  void record_block(const DecodedBlock* b) { r_.record(b); }
  // The block that was recorded last ended after `executed` instructions.
  void end_block_early(uint32_t executed) {
    if (r_.pos > from_) early_[(r_.pos - 1) & r_.mask] = Early{r_.pos - 1, executed};
  }
  // The decoded blocks are about to be dropped: keep what the entries point to.
  void freeze() {
    frozen_ = last();
    from_ = r_.pos;
  }
  // Up to length() entries, oldest first.
  std::vector<Entry> last() const {
    std::vector<Entry> recent;  // newest first
    for (uint64_t i = r_.pos; i > from_ && recent.size() < r_.length && r_.pos - i <= r_.mask; --i) {
      const DecodedBlock& b = *r_.ring[(i - 1) & r_.mask];
      const Early& e = early_[(i - 1) & r_.mask];
      const size_t n = e.entry == i - 1 ? e.executed : b.insns.size();
      uint64_t pc = b.pc;
      std::vector<Entry> run;
      for (size_t k = 0; k < n; ++k) {
        run.push_back(Entry{pc, b.insns[k].raw});
        pc += b.insns[k].len;
      }
      for (auto it = run.rbegin(); it != run.rend() && recent.size() < r_.length; ++it) recent.push_back(*it);
    }
    for (auto it = frozen_.rbegin(); it != frozen_.rend() && recent.size() < r_.length; ++it) recent.push_back(*it);
    return std::vector<Entry>(recent.rbegin(), recent.rend());
  }
  unsigned length() const { return static_cast<unsigned>(r_.length); }

 private:
  struct Early {
    uint64_t entry = ~0ull;  // the ring entry's number (pos_ when it was recorded)
    uint32_t executed = 0;
  };
  std::vector<const DecodedBlock*, HostLineAllocator<const DecodedBlock*>> ring_;  // a ring longer than HistoryRing::kHeld
  std::vector<Early, HostLineAllocator<Early>> early_;
  std::vector<Entry> frozen_;
  HistoryRing& r_;
  uint64_t from_ = 0;  // entries from_ .. r_.pos - 1 are in the ring (if it holds so many)
};

}  // namespace avp
