#include "interconnect/bandwidth_calendar.h"

#include <algorithm>
#include <iterator>

namespace avp {

BandwidthCalendar::Busy::iterator BandwidthCalendar::occupy(uint64_t from, uint64_t to) {
  auto next = busy_.lower_bound(from);
  uint64_t end = to;
  if (next != busy_.end() && next->first == to) {  // touches the following reservation
    end = next->second;
    next = busy_.erase(next);
  }
  if (next != busy_.begin()) {
    const auto before = std::prev(next);
    if (before->second == from) {  // touches the preceding one
      before->second = end;
      return before;
    }
  }
  return busy_.emplace_hint(next, from, end);
}

uint64_t BandwidthCalendar::reserve(uint64_t arrive, uint64_t length) {
  uint64_t t = arrive, left = length;
  auto it = busy_.upper_bound(arrive);  // the first reservation starting after arrive
  if (it != busy_.begin() && std::prev(it)->second > t) t = std::prev(it)->second;  // arrive falls inside one
  // t is free and `it` is the first reservation after it: take the gap up to it, then jump past it.
  while (left > 0) {
    const uint64_t room = it == busy_.end() ? left : std::min(left, it->first - t);
    const auto taken = occupy(t, t + room);
    left -= room;
    if (left == 0) return t + room;
    t = taken->second;
    it = std::next(taken);
  }
  return t;
}

void BandwidthCalendar::forget_before(uint64_t now) {
  while (!busy_.empty() && busy_.begin()->second <= now) busy_.erase(busy_.begin());
}

}  // namespace avp
