// Reservations of a port's bandwidth over simulated time, for initiators that
// run ahead of SystemC time (temporal decoupling). A transfer uses the port's
// free time from its arrival on, in the gaps that transfers simulated before
// it left, until it has had its length: so the queueing it sees depends on
// the simulated times of the others, not on the order in which the
// simulation thread issued them, and the port never idles while a transfer
// waits (a gap shorter than a transfer is used, not lost). Issued in time
// order, it is the classic first-come first-served queue.
#pragma once
#include <cstddef>
#include <cstdint>

#include "base/sorted_window.h"

namespace avp {

class BandwidthCalendar {
 public:
  // Reserves `length` of port time from `arrive` on; returns when the
  // transfer ends (units: the caller's; arrive + length on an idle port).
  // Inline, the common cases of a cache miss's transfer (initiators run
  // ahead in order): it arrives inside or at the end of the last
  // reservation and is queued behind it, or after it on an idle port.
  uint64_t reserve(uint64_t arrive, uint64_t length) {
    if (length > 0 && (busy_.size() == 0 || busy_[busy_.end() - 1].start <= arrive)) {
      if (busy_.size() > 0) {
        Interval& last = busy_[busy_.end() - 1];
        if (last.end >= arrive) return last.end += length;
      }
      busy_.insert(busy_.end(), Interval{arrive, arrive + length});
      return arrive + length;
    }
    return reserve_elsewhere(arrive, length);
  }
  // Drops reservations that ended by `now`: no transfer can arrive before it.
  void forget_before(uint64_t now) {
    if (busy_.size() > 0 && busy_[busy_.first()].end <= now) forget_ended(now);
  }
  size_t intervals() const { return busy_.size(); }
  bool worth_forgetting() const { return busy_.worth_dropping(); }  // SortedWindow::worth_dropping

 private:
  struct Interval {
    uint64_t start, end;
  };
  uint64_t reserve_elsewhere(uint64_t arrive, uint64_t length);  // reserve() past its common cases
  void forget_ended(uint64_t now);                                // forget_before() when the first has ended
  size_t occupy(uint64_t from, uint64_t to);  // [from, to) was free; the position of the reservation holding it
  SortedWindow<Interval, &Interval::start> busy_;  // disjoint, touching ones merged
};

}  // namespace avp
