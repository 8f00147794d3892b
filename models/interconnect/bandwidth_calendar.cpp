#include "interconnect/bandwidth_calendar.h"

#include <algorithm>

namespace avp {

size_t BandwidthCalendar::lower_bound(uint64_t time) const {
  if (first_ == busy_.size() || busy_.back().start < time) return busy_.size();  // the common case: after every one
  return std::lower_bound(busy_.begin() + first_, busy_.end(), time,
                          [](const Interval& i, uint64_t t) { return i.start < t; }) -
         busy_.begin();
}

size_t BandwidthCalendar::upper_bound(uint64_t time) const {
  if (first_ == busy_.size() || busy_.back().start <= time) return busy_.size();
  return std::upper_bound(busy_.begin() + first_, busy_.end(), time,
                          [](uint64_t t, const Interval& i) { return t < i.start; }) -
         busy_.begin();
}

size_t BandwidthCalendar::occupy(uint64_t from, uint64_t to) {
  size_t next = lower_bound(from);
  uint64_t end = to;
  if (next < busy_.size() && busy_[next].start == to) {  // touches the following reservation
    end = busy_[next].end;
    busy_.erase(busy_.begin() + next);
  }
  if (next > first_ && busy_[next - 1].end == from) {  // touches the preceding one
    busy_[next - 1].end = end;
    return next - 1;
  }
  busy_.insert(busy_.begin() + next, Interval{from, end});
  return next;
}

uint64_t BandwidthCalendar::reserve(uint64_t arrive, uint64_t length) {
  uint64_t t = arrive, left = length;
  size_t it = upper_bound(arrive);  // the first reservation starting after arrive
  if (it > first_ && busy_[it - 1].end > t) t = busy_[it - 1].end;  // arrive falls inside one
  // t is free and `it` is the first reservation after it: take the gap up to it, then jump past it.
  while (left > 0) {
    const uint64_t room = it == busy_.size() ? left : std::min(left, busy_[it].start - t);
    const size_t taken = occupy(t, t + room);
    left -= room;
    if (left == 0) return t + room;
    t = busy_[taken].end;
    it = taken + 1;
  }
  return t;
}

void BandwidthCalendar::forget_before(uint64_t now) {
  while (first_ < busy_.size() && busy_[first_].end <= now) ++first_;
  if (first_ * 2 > busy_.size()) {  // compact once the forgotten front outweighs the live reservations
    busy_.erase(busy_.begin(), busy_.begin() + first_);
    first_ = 0;
  }
}

}  // namespace avp
