// Which harts' slices may touch which 4 KiB page of memory in the parallel
// quantum schedule (docs/harts.md, "Parallel harts"), so that harts that
// read one another's plain stores within a quantum get the same results on
// any number of host threads. A hart's fast regions there are pages it
// holds a claim on: a read claim, held by any number of harts, or a write
// claim, held by one hart alone (with its read claim). A slice only looks
// the claims up; one that needs a claim it lacks stops before the access,
// and its hart's thread, in hart order, takes the claim, which withdraws
// the other harts' conflicting ones (their pages leave their fast regions).
// Within a batch no page is then written by one slice and touched by
// another, so what each slice reads does not depend on the host's timing.
// Accesses outside the fast regions (the hart's thread's own, atomics,
// devices) need no claim: they never run beside a slice.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace avp {

class PageClaims {
 public:
  // Withdraws hart `hart`'s fast regions on the physical page at `page`:
  // only the writing ones (writes_only) or all of them.
  using Withdraw = std::function<void(unsigned hart, uint64_t page, bool writes_only)>;

  explicit PageClaims(Withdraw withdraw) : withdraw_(std::move(withdraw)) {}

  // Whether `hart` holds the write (or read) claim on the page at `page`
  // (a page-aligned physical address). Slices call it concurrently.
  bool held(unsigned hart, uint64_t page, bool write) const {
    const auto it = pages_.find(page);
    if (it == pages_.end()) return false;
    const Claims& c = it->second;
    return write ? c.writer == static_cast<int64_t>(hart) : c.reads(hart);
  }
  // Gives `hart` the claim (from the hart's thread, no slice running).
  void claim(unsigned hart, uint64_t page, bool write) {
    Claims& c = pages_[page];
    if (write) {
      if (c.writer == static_cast<int64_t>(hart)) return;
      for (unsigned other : c.readers)
        if (other != hart) withdraw_(other, page, false);
      c.readers.assign(1, hart);
      c.writer = hart;
      return;
    }
    if (c.reads(hart)) return;
    if (c.writer >= 0) {
      withdraw_(static_cast<unsigned>(c.writer), page, true);
      c.writer = -1;
    }
    c.readers.push_back(hart);
  }

 private:
  struct Claims {
    int64_t writer = -1;            // the hart holding the write claim, -1: none
    std::vector<unsigned> readers;  // the harts holding read claims (the writer among them)
    bool reads(unsigned hart) const { return std::find(readers.begin(), readers.end(), hart) != readers.end(); }
  };
  Withdraw withdraw_;
  std::unordered_map<uint64_t, Claims> pages_;  // one entry per page of memory a fast region was made for
};

}  // namespace avp
