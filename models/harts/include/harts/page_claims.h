// Which harts' slices may touch which 64-byte line of memory in the
// parallel quantum schedule (docs/harts.md, "Parallel harts"), so that harts
// that read one another's plain stores within a quantum get the same results
// on any number of host threads. A hart's fast regions there are runs of
// lines of one 4 KiB page it holds claims on: a read claim, held by any
// number of harts, or a write claim, held by one hart alone (with its read
// claim). A slice only looks the claims up; one that needs a claim it lacks
// stops before the access, and its hart's thread, in hart order, takes the
// claim, which withdraws the other harts' conflicting ones (those lines
// leave their fast regions). Within a batch no line is then written by one
// slice and touched by another, so what each slice reads does not depend on
// the host's timing (an atomic runs in a slice only within its hart's fast
// regions). Accesses outside them (the hart's thread's own, devices) need
// no claim: they never run beside a slice.
//
// Lines, not pages, so that harts working on neighbouring data in one page
// (per-hart arrays that are not page-aligned) do not hand the page back and
// forth: a claim taken for an access also takes the page's lines around it
// that no other hart has accessed (*speculative* claims, withdrawn from
// their holder when another hart's access needs them), so a page one hart
// works on alone is one claim, and neighbours settle on their own lines.
// Lines are keyed by host address: views of one memory at several bus
// addresses are one line, and a core's local memory is not another's.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace avp {

class PageClaims {
 public:
  static constexpr unsigned kPageBits = 12, kLineBits = 6;
  static constexpr unsigned kLines = 1u << (kPageBits - kLineBits);
  static constexpr uint64_t kLine = uint64_t{1} << kLineBits;
  // A fast region's extent beyond the line it was made for, each way: at
  // most 16 page lookups, and a hart's 64 KiB working set in one region.
  static constexpr uint64_t kMaxReach = uint64_t{16} << kPageBits;
  // Withdraws hart `hart`'s fast regions over the host bytes [from, from +
  // bytes): only the writing ones (writes_only) or all of them.
  using Withdraw = std::function<void(unsigned hart, const uint8_t* from, uint64_t bytes, bool writes_only)>;
  struct Span {
    const uint8_t *from = nullptr, *to = nullptr;  // host bytes [from, to); from == to: none
  };

  explicit PageClaims(Withdraw withdraw) : withdraw_(std::move(withdraw)) {}

  // The bytes of the lines around the one holding host byte `at`, within
  // [lo, hi) and kMaxReach, on which `hart` holds write (or read) claims;
  // none if it holds none on that line. Slices call it concurrently.
  Span held(unsigned hart, const uint8_t* at, bool write, const uint8_t* lo, const uint8_t* hi) const {
    const uint8_t* line = line_of(at);
    const uint8_t* page = page_of(line);
    const unsigned i = index_of(line);
    const uint64_t m = lines_held(page, hart, write);
    if (!(m >> i & 1)) return {};
    // The run of held lines through bit i, then on into the pages next to
    // it while it reaches their edge, up to the bounds.
    const uint8_t* from_bound = lo + kMaxReach < line ? line - kMaxReach : lo;
    const uint8_t* to_bound = std::min(hi, line + kMaxReach);
    const uint64_t below = ~m << (kLines - 1 - i), above = ~m >> i;
    Span s{line - (below ? __builtin_clzll(below) - 1 : i) * kLine,
           line + (above ? __builtin_ctzll(above) : kLines - i) * kLine};
    while (s.from > from_bound && s.from == page_of(s.from)) {
      const uint64_t prev = ~lines_held(s.from - kPage, hart, write);
      s.from -= (prev ? __builtin_clzll(prev) : kLines) * kLine;
      if (prev) break;
    }
    while (s.to < to_bound && s.to == page_of(s.to)) {
      const uint64_t next = ~lines_held(s.to, hart, write);
      s.to += (next ? __builtin_ctzll(next) : kLines) * kLine;
      if (next) break;
    }
    // A memory's lines need not be aligned with its bus pages.
    return {std::max(s.from, from_bound), std::min(s.to, to_bound)};
  }
  // Gives `hart` the claim on the line holding host byte `at` for an access
  // (from the hart's thread, no slice running), and speculative claims on
  // the lines of its page next to it that no other hart has accessed. The
  // other harts' claims it takes are withdrawn a run of lines at a time.
  void claim(unsigned hart, const uint8_t* at, bool write) {
    const uint8_t* page = page_of(at);
    Page& p = pages_[page];
    const unsigned line = index_of(at);
    take(hart, page, p, line, write);
    p.lines[line].accessed = true;
    for (unsigned l = line; l > 0 && p.free_for(hart, l - 1, write); --l) take(hart, page, p, l - 1, write);
    for (unsigned l = line + 1; l < kLines && p.free_for(hart, l, write); ++l) take(hart, page, p, l, write);
    withdraw_pending();
  }

 private:
  static constexpr uint64_t kPage = uint64_t{1} << kPageBits;
  struct Line {
    int32_t writer = -1;    // the hart holding the write claim, -1: none
    bool accessed = false;  // a holder took its claim for an access (not speculatively)
  };
  static_assert(kLines == 64, "a page's lines are the bits of one word");
  // A page's lines, and by hart the lines it holds read and write claims on
  // (bit l: line l; the writer reads too), which held() scans a word at a time.
  struct Page {
    std::array<Line, kLines> lines;
    std::vector<uint64_t> reads, writes;
    static bool bit(const std::vector<uint64_t>& bits, unsigned hart, unsigned l) {
      return hart < bits.size() && (bits[hart] >> l & 1);
    }
    static void mark(std::vector<uint64_t>& bits, unsigned hart, unsigned l, bool on) {
      if (hart >= bits.size()) bits.resize(hart + 1);
      bits[hart] = (bits[hart] & ~(uint64_t{1} << l)) | uint64_t{on} << l;
    }
    bool holds(unsigned hart, unsigned l, bool write) const { return bit(write ? writes : reads, hart, l); }
    bool read_by_another(unsigned hart, unsigned l) const {
      for (unsigned h = 0; h < reads.size(); ++h)
        if (h != hart && (reads[h] >> l & 1)) return true;
      return false;
    }
    // Whether a speculative claim may take line l: nothing another hart accessed would be withdrawn.
    bool free_for(unsigned hart, unsigned l, bool write) const {
      if (holds(hart, l, write)) return false;  // the run goes on only over lines it takes now
      const bool others = write ? read_by_another(hart, l) : lines[l].writer >= 0;
      return !others || !lines[l].accessed;
    }
  };

  static const uint8_t* line_of(const uint8_t* p) {
    return reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(p) & ~uintptr_t{kLine - 1});
  }
  static const uint8_t* page_of(const uint8_t* p) {
    return reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(p) >> kPageBits << kPageBits);
  }
  static unsigned index_of(const uint8_t* p) {
    return static_cast<unsigned>((reinterpret_cast<uintptr_t>(p) >> kLineBits) & (kLines - 1));
  }
  uint64_t lines_held(const uint8_t* page, unsigned hart, bool write) const {
    const auto it = pages_.find(page);
    if (it == pages_.end()) return 0;
    const std::vector<uint64_t>& bits = write ? it->second.writes : it->second.reads;
    return hart < bits.size() ? bits[hart] : 0;
  }
  void take(unsigned hart, const uint8_t* page, Page& p, unsigned l, bool write) {
    Line& line = p.lines[l];
    const uint8_t* at = page + (uint64_t{l} << kLineBits);
    if (write) {
      if (line.writer == static_cast<int32_t>(hart)) return;
      for (unsigned other = 0; other < p.reads.size(); ++other)
        if (other != hart && Page::bit(p.reads, other, l)) {
          withdraw(other, at, false);
          Page::mark(p.reads, other, l, false);
        }
      if (line.writer >= 0) Page::mark(p.writes, static_cast<unsigned>(line.writer), l, false);
      line.writer = static_cast<int32_t>(hart);
      line.accessed = false;
      Page::mark(p.reads, hart, l, true);
      Page::mark(p.writes, hart, l, true);
      return;
    }
    if (p.holds(hart, l, false)) return;
    if (line.writer >= 0) {
      withdraw(static_cast<unsigned>(line.writer), at, true);
      Page::mark(p.writes, static_cast<unsigned>(line.writer), l, false);
      line.writer = -1;
      line.accessed = false;
    }
    Page::mark(p.reads, hart, l, true);
  }
  // A line's withdrawal, joined to the pending one it continues (a claim's
  // lines are taken outward from its line, each way in turn).
  void withdraw(unsigned hart, const uint8_t* line, bool writes_only) {
    for (Pending& w : pending_)
      if (w.hart == hart && w.writes_only == writes_only) {
        if (line == w.to) {
          w.to += kLine;
          return;
        }
        if (line + kLine == w.from) {
          w.from = line;
          return;
        }
      }
    pending_.push_back({hart, writes_only, line, line + kLine});
  }
  void withdraw_pending() {
    for (const Pending& w : pending_) withdraw_(w.hart, w.from, static_cast<uint64_t>(w.to - w.from), w.writes_only);
    pending_.clear();
  }

  struct Pending {
    unsigned hart;
    bool writes_only;
    const uint8_t *from, *to;
  };
  std::vector<Pending> pending_;
  Withdraw withdraw_;
  std::unordered_map<const uint8_t*, Page> pages_;  // one entry per page a fast region was made on
};

}  // namespace avp
