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
  // A page's lines are the bits of a word: the claim is a few word
  // operations per hart rather than a step per line (4-hart Linux boot:
  // 122 000 claims, each taking 22 lines on average).
  void claim(unsigned hart, const uint8_t* at, bool write) {
    const uint8_t* page = page_of(at);
    Page& p = pages_[page];
    const uint64_t line = uint64_t{1} << index_of(at);
    // The lines next to it that a speculative claim may take: not held yet
    // (the run goes on only over lines it takes now), and nothing another
    // hart accessed would be withdrawn. Each line's state is its own, so
    // taking the accessed line first changes none of the others'.
    const uint64_t others = Page::others(write ? p.reads : p.writes, hart);
    const uint64_t free = ~Page::bits(write ? p.writes : p.reads, hart) & (~others | ~p.accessed);
    take(hart, page, p, line | runs(free, line), write);
    p.accessed |= line;
  }

 private:
  static constexpr uint64_t kPage = uint64_t{1} << kPageBits;
  static_assert(kLines == 64, "a page's lines are the bits of one word");
  // A page's lines by hart: the lines it holds read and write claims on
  // (bit l: line l; a line has one writer at most, which reads it too),
  // which held() scans a word at a time, and the lines a holder took its
  // claim on for an access (not speculatively).
  struct Page {
    std::vector<uint64_t> reads, writes;
    uint64_t accessed = 0;
    static uint64_t bits(const std::vector<uint64_t>& of, unsigned hart) { return hart < of.size() ? of[hart] : 0; }
    static uint64_t& bits_to_set(std::vector<uint64_t>& of, unsigned hart) {
      if (hart >= of.size()) of.resize(hart + 1);
      return of[hart];
    }
    // The lines any hart but `hart` holds in `of`.
    static uint64_t others(const std::vector<uint64_t>& of, unsigned hart) {
      uint64_t m = 0;
      for (unsigned h = 0; h < of.size(); ++h) m |= h == hart ? 0 : of[h];
      return m;
    }
  };

  // The lines of `free` next to `line` on either side, in unbroken runs.
  static uint64_t runs(uint64_t free, uint64_t line) {
    const uint64_t below = line - 1, above = ~(below | line);
    const uint64_t stop_below = ~free & below, stop_above = ~free & above;
    // Below: the bits above the highest stop; above: the bits below the lowest stop.
    const uint64_t run_below = stop_below ? below & ~((uint64_t{2} << (63 - __builtin_clzll(stop_below))) - 1) : below;
    const uint64_t run_above = stop_above ? above & ((stop_above & -stop_above) - 1) : above;
    return run_below | run_above;
  }

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
    return Page::bits(write ? it->second.writes : it->second.reads, hart);
  }
  // Gives `hart` the claims on `lines` of `page`: a write claim takes the
  // other harts' read claims (a writer's too) and is no longer an access;
  // a read claim takes only another hart's write claim, which then is no
  // longer an access either. What the others lose is withdrawn.
  void take(unsigned hart, const uint8_t* page, Page& p, uint64_t lines, bool write) {
    if (write) {
      lines &= ~Page::bits(p.writes, hart);  // its own already
      for (unsigned other = 0; other < p.reads.size(); ++other)
        if (const uint64_t lost = other == hart ? 0 : p.reads[other] & lines) {
          withdraw(other, page, lost, false);
          p.reads[other] &= ~lost;
        }
      for (unsigned other = 0; other < p.writes.size(); ++other)
        if (other != hart) p.writes[other] &= ~lines;  // a writer read them too: withdrawn above
      p.accessed &= ~lines;
      Page::bits_to_set(p.reads, hart) |= lines;
      Page::bits_to_set(p.writes, hart) |= lines;
      return;
    }
    lines &= ~Page::bits(p.reads, hart);
    for (unsigned other = 0; other < p.writes.size(); ++other)
      if (const uint64_t lost = other == hart ? 0 : p.writes[other] & lines) {
        withdraw(other, page, lost, true);
        p.writes[other] &= ~lost;
        p.accessed &= ~lost;
      }
    Page::bits_to_set(p.reads, hart) |= lines;
  }
  // Withdraws `lines` of `page` from `hart`, a run of lines at a time.
  void withdraw(unsigned hart, const uint8_t* page, uint64_t lines, bool writes_only) {
    while (lines) {
      const unsigned first = static_cast<unsigned>(__builtin_ctzll(lines));
      const uint64_t rest = ~lines >> first;  // its lowest set bit: the first line after the run
      const unsigned n = rest ? static_cast<unsigned>(__builtin_ctzll(rest)) : kLines - first;
      withdraw_(hart, page + (uint64_t{first} << kLineBits), uint64_t{n} << kLineBits, writes_only);
      lines &= n + first >= kLines ? 0 : ~uint64_t{0} << (first + n);
    }
  }

  Withdraw withdraw_;
  std::unordered_map<const uint8_t*, Page> pages_;  // one entry per page a fast region was made on
};

}  // namespace avp
