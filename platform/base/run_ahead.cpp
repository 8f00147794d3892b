#include "base/run_ahead.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace avp {
namespace {

// Where the simulation loop's sc_start stops (ps); 0: no loop has said so.
uint64_t stop_ps = 0;

// SystemC keeps its timed notifications in a private priority queue, which
// RunAhead reads (never writes) to see whether two are due at one time. A
// pointer to a private member may be named in an explicit instantiation
// (C++17 [temp.explicit]/14), which is how Exposed hands these two out.
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
template struct Exposed<TimedEvents, &sc_core::sc_simcontext::m_timed_events>;
template struct Exposed<HeapSlots, &sc_core::sc_ppq_base::m_heap>;

// Whether no two timed notifications in SystemC's queue (cancelled ones
// included: they keep their place until they reach the top) are due at one time.
bool timed_notifications_sorted_distinct() {
  const sc_core::sc_ppq_base& queue = *(sc_core::sc_get_curr_simcontext()->*member(TimedEvents{}));
  constexpr int kMost = 64;  // beyond that, a wait rather than a sort per quantum
  const int n = queue.size();
  if (n > kMost) return false;
  void* due[kMost];
  void** heap = queue.*member(HeapSlots{});
  std::copy(heap + 1, heap + 1 + n, due);  // the heap's slots are 1 .. n
  // sc_notify_time_compare(a, b) > 0: a is due first.
  std::sort(due, due + n, [](void* a, void* b) { return sc_core::sc_notify_time_compare(a, b) > 0; });
  for (int i = 1; i < n; ++i)
    if (sc_core::sc_notify_time_compare(due[i - 1], due[i]) == 0) return false;
  return true;
}

// The same, sorted once per delta cycle and queue size: while an initiator
// runs ahead no process runs, and another initiator's wait in the same delta
// cycle adds an entry (next_time only takes cancelled entries off the top,
// which cannot make two entries due together).
bool timed_notifications_distinct() {
  static std::pair<sc_dt::uint64, int> looked_at{~sc_dt::uint64{0}, 0};
  static bool distinct = false;
  const std::pair<sc_dt::uint64, int> now{sc_core::sc_delta_count(),
                                          (sc_core::sc_get_curr_simcontext()->*member(TimedEvents{}))->size()};
  if (now != looked_at) {
    looked_at = now;
    distinct = timed_notifications_sorted_distinct();
  }
  return distinct;
}

}  // namespace

void RunAhead::bound(const sc_core::sc_time& chunk) { stop_ps = (sc_core::sc_time_stamp() + chunk).value(); }

bool RunAhead::allows(const sc_core::sc_time& offset) {
  const sc_core::sc_time to = sc_core::sc_time_stamp() + offset;
  if (to.value() >= stop_ps || sc_core::sc_pending_activity_at_current_time()) return false;
  sc_core::sc_time next;  // the earliest timed notification that is not cancelled
  if (!sc_core::sc_get_curr_simcontext()->next_time(next)) return true;  // nothing pending at all
  return to < next && timed_notifications_distinct();
}

}  // namespace avp
