#include "base/run_ahead.h"

#include <algorithm>
#include <cstdint>

#include "base/local_time.h"

namespace avp {
namespace {

// Where the simulation loop's sc_start stops (ps); 0: no loop has said so.
uint64_t stop_ps = 0;

// SystemC keeps its timed notifications in a private priority queue, which
// RunAhead reads (never writes) to see whether two are due at one time. A
// pointer to a private member may be named in an explicit instantiation
// (C++17 [temp.explicit]/14), which is how Exposed hands these three out.
template <class Tag, typename Tag::type Member>
struct Exposed {
  friend typename Tag::type member(Tag) { return Member; }
};
struct TimedEvents {
  using type = sc_core::sc_ppq<sc_core::sc_event_timed*>* sc_core::sc_simcontext::*;
  friend type member(TimedEvents);
};
struct HeapSlots {
  using type = void** sc_core::sc_ppq_base::*;
  friend type member(HeapSlots);
};
struct DueTime {
  using type = sc_core::sc_time sc_core::sc_event_timed::*;
  friend type member(DueTime);
};
template struct Exposed<TimedEvents, &sc_core::sc_simcontext::m_timed_events>;
template struct Exposed<HeapSlots, &sc_core::sc_ppq_base::m_heap>;
template struct Exposed<DueTime, &sc_core::sc_event_timed::m_notify_time>;

// The due times (sc_time values) of SystemC's timed notifications, sorted
// (cancelled ones included: they keep their place until they reach the top),
// into `due`; -1 when there are more than RunAhead::kMostTimed.
int timed_notifications(uint64_t (&due)[RunAhead::kMostTimed]) {
  const sc_core::sc_ppq_base& queue = *(sc_core::sc_get_curr_simcontext()->*member(TimedEvents{}));
  const int n = queue.size();
  if (n > RunAhead::kMostTimed) return -1;
  void* const* heap = queue.*member(HeapSlots{});
  for (int i = 0; i < n; ++i)  // the heap's slots are 1 .. n
    due[i] = (static_cast<const sc_core::sc_event_timed*>(heap[i + 1])->*member(DueTime{})).value();
  std::sort(due, due + n);
  return n;
}

// Whether no two timed notifications in SystemC's queue are due at one time.
bool timed_notifications_distinct() {
  uint64_t due[RunAhead::kMostTimed];
  const int n = timed_notifications(due);
  return n >= 0 && std::adjacent_find(due, due + n) == due + n;
}

}  // namespace

void RunAhead::bound(const sc_core::sc_time& chunk) { stop_ps = (sc_core::sc_time_stamp() + chunk).value(); }

bool RunAhead::allows(uint64_t offset_ps) {
  const uint64_t to = systemc_ps() + offset_ps;
  if (to >= stop_ps || sc_core::sc_pending_activity_at_current_time()) return false;
  sc_core::sc_time next;  // the earliest timed notification that is not cancelled
  if (!sc_core::sc_get_curr_simcontext()->next_time(next)) return true;  // nothing pending at all
  return to < next.value() && timed_notifications_distinct();
}

void RunAhead::running_alone_from(uint64_t from_ps) {
  alone_ = {sc_core::sc_get_current_process_b(), sc_core::sc_delta_count(), systemc_ps(), from_ps};
}

uint64_t RunAhead::run_on_limit(const Passable* passable, unsigned n) {
  if (sc_core::sc_pending_activity_at_current_time()) return 0;
  uint64_t due[kMostTimed];
  const int m = timed_notifications(due);
  if (m < 0 || std::adjacent_find(due, due + m) != due + m) return 0;
  uint64_t limit = stop_ps;
  for (int i = 0; i < m; ++i) {
    uint64_t until = due[i];  // distinct: at most one of the passable is due then
    for (unsigned j = 0; j < n; ++j)
      if (passable[j].due_ps == due[i]) until = std::max(until, passable[j].before_ps);
    limit = std::min(limit, until);
  }
  return limit;
}

}  // namespace avp
