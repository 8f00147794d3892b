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
// the host's timing. Accesses outside the fast regions (the hart's thread's
// own, atomics, devices) need no claim: they never run beside a slice.
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
  // A fast region's extent beyond the line it was made for, each way.
  static constexpr uint64_t kMaxReach = uint64_t{4} << kPageBits;
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
    const uint8_t* key = nullptr;  // the page `lines` are of (nullptr: none looked up yet)
    const Lines* lines = nullptr;
    const auto holds = [&](const uint8_t* l) {
      if (page_of(l) != key) {
        key = page_of(l);
        const auto it = pages_.find(key);
        lines = it == pages_.end() ? nullptr : &it->second;
      }
      return lines && (*lines)[index_of(l)].holds(hart, write);
    };
    const uint8_t* line = line_of(at);
    if (!holds(line)) return {};
    Span s{line, line + kLine};
    while (s.from > lo && static_cast<uint64_t>(line - s.from) < kMaxReach && holds(s.from - kLine)) s.from -= kLine;
    while (s.to < hi && static_cast<uint64_t>(s.to - line) < kMaxReach && holds(s.to)) s.to += kLine;
    return {std::max(s.from, lo), std::min(s.to, hi)};  // a memory's lines need not be aligned with its bus pages
  }
  // Gives `hart` the claim on the line holding host byte `at` for an access
  // (from the hart's thread, no slice running), and speculative claims on
  // the lines of its page next to it that no other hart has accessed.
  void claim(unsigned hart, const uint8_t* at, bool write) {
    const uint8_t* page = page_of(at);
    Lines& lines = pages_[page];
    const unsigned line = index_of(at);
    take(hart, page, lines, line, write);
    lines[line].accessed = true;
    for (unsigned l = line; l > 0 && lines[l - 1].free_for(hart, write); --l) take(hart, page, lines, l - 1, write);
    for (unsigned l = line + 1; l < kLines && lines[l].free_for(hart, write); ++l) take(hart, page, lines, l, write);
  }

 private:
  struct Line {
    int32_t writer = -1;            // the hart holding the write claim, -1: none
    bool accessed = false;          // a holder took its claim for an access (not speculatively)
    std::vector<uint32_t> readers;  // the harts holding read claims (the writer among them)
    bool reads(unsigned hart) const { return std::find(readers.begin(), readers.end(), hart) != readers.end(); }
    bool holds(unsigned hart, bool write) const { return write ? writer == static_cast<int32_t>(hart) : reads(hart); }
    // Whether a speculative claim may take it: nothing another hart accessed would be withdrawn.
    bool free_for(unsigned hart, bool write) const {
      if (holds(hart, write)) return false;  // the run goes on only over lines it takes now
      const bool others =
          write ? std::any_of(readers.begin(), readers.end(), [hart](uint32_t r) { return r != hart; }) : writer >= 0;
      return !others || !accessed;
    }
  };
  using Lines = std::array<Line, kLines>;

  static const uint8_t* line_of(const uint8_t* p) {
    return reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(p) & ~uintptr_t{kLine - 1});
  }
  static const uint8_t* page_of(const uint8_t* p) {
    return reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(p) >> kPageBits << kPageBits);
  }
  static unsigned index_of(const uint8_t* p) {
    return static_cast<unsigned>((reinterpret_cast<uintptr_t>(p) >> kLineBits) & (kLines - 1));
  }
  void take(unsigned hart, const uint8_t* page, Lines& lines, unsigned l, bool write) {
    Line& line = lines[l];
    const uint8_t* at = page + (uint64_t{l} << kLineBits);
    if (write) {
      if (line.writer == static_cast<int32_t>(hart)) return;
      for (uint32_t other : line.readers)
        if (other != hart) withdraw_(other, at, kLine, false);
      line.readers.assign(1, hart);
      line.writer = static_cast<int32_t>(hart);
      line.accessed = false;
      return;
    }
    if (line.reads(hart)) return;
    if (line.writer >= 0) {
      withdraw_(static_cast<unsigned>(line.writer), at, kLine, true);
      line.writer = -1;
      line.accessed = false;
    }
    line.readers.push_back(hart);
  }

  Withdraw withdraw_;
  std::unordered_map<const uint8_t*, Lines> pages_;  // one entry per page a fast region was made on
};

}  // namespace avp
