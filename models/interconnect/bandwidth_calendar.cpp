#include "interconnect/bandwidth_calendar.h"

#include <algorithm>

namespace avp {

size_t BandwidthCalendar::occupy(uint64_t from, uint64_t to) {
  size_t next = busy_.lower_bound(from);
  uint64_t end = to;
  if (next < busy_.end() && busy_[next].start == to) {  // touches the following reservation
    end = busy_[next].end;
    busy_.erase(next);
  }
  if (next > busy_.first() && busy_[next - 1].end == from) {  // touches the preceding one
    busy_[next - 1].end = end;
    return next - 1;
  }
  busy_.insert(next, Interval{from, end});
  return next;
}

uint64_t BandwidthCalendar::reserve_elsewhere(uint64_t arrive, uint64_t length) {
  uint64_t t = arrive, left = length;
  size_t it = busy_.upper_bound(arrive);  // the first reservation starting after arrive
  if (it > busy_.first() && busy_[it - 1].end > t) t = busy_[it - 1].end;  // arrive falls inside one
  // t is free and `it` is the first reservation after it: take the gap up to it, then jump past it.
  while (left > 0) {
    const uint64_t room = it == busy_.end() ? left : std::min(left, busy_[it].start - t);
    const size_t taken = occupy(t, t + room);
    left -= room;
    if (left == 0) return t + room;
    t = busy_[taken].end;
    it = taken + 1;
  }
  return t;
}

void BandwidthCalendar::forget_ended(uint64_t now) {
  size_t ended = busy_.first();
  while (ended < busy_.end() && busy_[ended].end <= now) ++ended;
  busy_.drop_before(ended);
}

}  // namespace avp
