// Entries sorted by a 64-bit key (a simulated time), inserted mostly near the
// end and dropped from the front, as models record the uses of a resource by
// initiators that run ahead of SystemC time (RowBuffers, BandwidthCalendar).
// A vector whose dropped front is skipped, and compacted once it outweighs
// the live entries: nothing is allocated per entry, and a key after every
// live one is found without a search. Positions are indices, [first(), end())
// live, valid until the next insert, erase or drop_before.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace avp {

template <typename T, uint64_t T::*Key>
class SortedWindow {
 public:
  static constexpr size_t kWorthDropping = 64;
  size_t first() const { return first_; }
  size_t end() const { return items_.size(); }
  size_t size() const { return items_.size() - first_; }
  // Whether dropping the front is worth a search: a drop removes only what
  // no later use can meet, so when it happens changes no result, and while
  // an initiator runs on alone the bound moves every quantum
  // (earliest_arrival_ps in local_time.h), each move finding one or two.
  bool worth_dropping() const { return size() >= kWorthDropping; }
  T& operator[](size_t i) { return items_[i]; }
  const T& operator[](size_t i) const { return items_[i]; }

  // The first live entry whose key is not less than `key` (end() if none).
  size_t lower_bound(uint64_t key) const {
    if (first_ == items_.size() || items_.back().*Key < key) return items_.size();
    return std::lower_bound(items_.begin() + first_, items_.end(), key,
                            [](const T& item, uint64_t k) { return item.*Key < k; }) -
           items_.begin();
  }
  // The first live entry whose key is greater than `key` (end() if none).
  size_t upper_bound(uint64_t key) const {
    if (first_ == items_.size() || items_.back().*Key <= key) return items_.size();
    return std::upper_bound(items_.begin() + first_, items_.end(), key,
                            [](uint64_t k, const T& item) { return k < item.*Key; }) -
           items_.begin();
  }
  // `at` must keep the order (upper_bound(key) puts it after entries of an equal key).
  // An insert at the end, the usual one, is push_back's inlined path rather than insert's call.
  void insert(size_t at, const T& item) {
    if (at == items_.size()) items_.push_back(item);
    else items_.insert(items_.begin() + at, item);
  }
  void erase(size_t at) { items_.erase(items_.begin() + at); }
  // Drops the live entries before position `at`.
  void drop_before(size_t at) {
    first_ = at;
    if (first_ * 2 > items_.size()) {
      items_.erase(items_.begin(), items_.begin() + first_);
      first_ = 0;
    }
  }

 private:
  std::vector<T> items_;
  size_t first_ = 0;
};

}  // namespace avp
