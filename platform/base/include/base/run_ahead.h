// Run-ahead past a quantum's end (docs/platform.md, "Run-ahead"). An
// initiator that has used its quantum syncs so that the other processes can
// run up to its local time. When nothing can run before that time -- no
// process runnable, no event notified now, every timed notification due
// later -- that wait would only move SystemC time to the initiator's local
// time and come straight back: the initiator may go on instead. Nothing else
// can happen until it does something other processes see, and there it
// first waits to where its last skipped wait would have left SystemC time
// (catch_up in LocalTime), so every process runs at the same simulated time
// and in the same order as without run-ahead. SystemC orders notifications
// due at one time by the history of its event queue (a binary heap); a
// skipped wait is an insert and extraction of the queue's earliest entry,
// which leaves a heap with no two entries due at one time as it was, so the
// queue must hold no such pair.
//
// Beside waits that cannot matter: a caller that knows some timed
// notifications to be waits of processes that do nothing another process
// sees before some time (harts spinning in wait loops, docs/harts.md
// "Beside spinning harts") may pass over them up to that time. The queue's
// history then differs from a run without run-ahead (those processes
// resume later, after fewer operations on it), which leaves the order of
// distinct due times as it was.
//
// sc_start(duration) stops at a time that no event marks, so run-ahead is
// only allowed inside a simulation loop that says where its sc_start will
// stop (bound()); without one (a test that calls sc_start itself)
// initiators sync at every quantum's end as before.
#pragma once
#include <cstdint>

#include <systemc>

namespace avp {

class RunAhead {
 public:
  // Timed notifications read at most: beyond that, a wait rather than a sort per quantum.
  static constexpr int kMostTimed = 64;
  // Before each sc_start(chunk) of the simulation loop.
  static void bound(const sc_core::sc_time& chunk);
  // Whether an initiator `offset_ps` ahead of SystemC time may go on instead
  // of syncing. In ps, as initiators keep their offsets (local_time.h): at
  // every quantum's end, where an sc_time's making was a library call.
  static bool allows(uint64_t offset_ps);
  // A timed notification due at due_ps that an initiator running on to a
  // time before before_ps may pass over.
  struct Passable {
    uint64_t due_ps, before_ps;
  };
  // The time (ps) before which an initiator may run on, passing over the `n`
  // notifications in `passable` (0: not at all). It holds while SystemC's
  // time and delta cycle stay as they are (no other process runs).
  static uint64_t run_on_limit(const Passable* passable, unsigned n);

  // An initiator that allows() let go on runs from `from_ps` (its local
  // time): until it waits, no other process runs, and none is due before
  // that time (LocalTime::run_on; earliest_arrival_ps in local_time.h).
  static void running_alone_from(uint64_t from_ps);
  struct Alone {
    const sc_core::sc_process_b* process;
    uint64_t delta, systemc_ps, from_ps;  // SystemC's delta cycle and time then; where it runs from
  };
  static const Alone& alone() { return alone_; }

 private:
  static inline Alone alone_{nullptr, ~0ull, 0, 0};
};

}  // namespace avp
