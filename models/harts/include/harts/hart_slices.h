// The parallel quantum schedule of the harts (docs/harts.md, "Parallel
// harts"): harts that reach a quantum boundary at the same simulated time
// run their next slice (Hart::run_slice: blocks until the quantum is used or
// something needs the SystemC kernel) together, on the simulation thread and
// host_threads - 1 host threads, while the simulation thread waits for all of
// them. Each hart's thread then finishes its slice serially, in hart order.
// A hart whose slice only used its quantum is parked instead: its thread
// would only wait for the next quantum boundary and ask again, so it sleeps
// on, and the dispatcher itself runs the hart's next slice at that boundary
// (two SystemC thread switches less per hart and quantum, in the part of a
// quantum that host threads cannot share). When nothing else at all is
// pending in the simulation, the dispatcher runs ahead: it runs the next
// boundary's batch without waiting for SystemC time to get there, and
// catches up before any hart's thread resumes (run_ahead.h); a slice that
// runs alone and would be that batch by itself passes the boundary without
// leaving its blocks (pass_boundary).
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include <systemc>

#include "base/host_lines.h"

namespace avp {

class Hart;

class HartSlices {
 public:
  explicit HartSlices(unsigned host_threads);
  ~HartSlices();
  HartSlices(const HartSlices&) = delete;
  HartSlices& operator=(const HartSlices&) = delete;

  // From hart h's SystemC thread: runs h.run_slice() with the other harts that
  // ask in the same delta cycle; returns once it has run.
  void run(Hart& h);
  // From h's slice, its quantum used at a block boundary: when the slice is
  // its batch's only one and the run-ahead would run it alone at the
  // boundary it would park at (nothing else at all pending in the
  // simulation before it, no other parked hart due by then, no wait loop
  // to pass quanta in), the hart parks there and is unparked at once, as
  // that batch would do, and true: the slice goes on. (Alone in its batch,
  // the slice has no traffic to replay: SliceState::defers_traffic.)
  bool pass_boundary(Hart& h);

 private:
  // A hart's slice in a batch: `unpark_at` is the boundary it was parked
  // until (0: its thread asked); `park_at` the boundary it parks until after
  // the slice (0: its thread goes on) and `replay` whether it left traffic
  // to replay, written by the host thread that ran it (so that the
  // simulation thread reads the batch, not the harts' own host lines).
  // `spin_until`: after the slice, where the hart stays in the wait loop it
  // skipped in (Hart::parallel_spin_until; 0: none), and once parked the
  // write generation of the memory that loop reads and writes (`footprint`).
  // `pass_until`: where the slice's skips may pass quanta to (allow_passing),
  // handed to the hart by the thread that runs it.
  struct Slice {
    Hart* hart;
    uint64_t unpark_at, park_at;
    bool replay = false;
    uint64_t spin_until = 0, footprint = 0;
    uint64_t pass_until = 0;
  };

  void dispatch();  // SystemC thread: one batch per delta cycle with requests
  uint64_t next_boundary() const;  // the earliest a parked hart waits for
  bool unpark_due();  // the parked harts whose boundary is now ask for their slices; false: none
  bool run_ahead();   // the next boundary's batch before SystemC time gets there; false: not allowed
  // After a batch: the harts whose threads go on resume, SystemC time first
  // moved from now to `boundary` where a run-ahead left it behind.
  void resume(const std::vector<Hart*>& go_on, uint64_t boundary, uint64_t now);
  // Before a batch: whether, and up to where, its slices' skips may pass
  // whole quanta (Hart::allow_passing).
  void allow_passing();
  void run_batch();   // batch_ by hart id, SystemC time now_ps_
  void run(Slice& s, bool beside_others);
  // Runs slices of the batch until none is left to take (from the back:
  // a host thread's); returns how many.
  size_t take_and_run(bool from_back);
  void replay();  // after a batch, in hart order: the traffic its slices left to replay (Hart::replay_traffic)
  std::vector<Hart*> park();  // after a batch: the harts whose threads go on, in hart order
  void host_thread();
  // Slices [from, to) of the batch, not taken yet, at most chunk_ of them; false: none left.
  bool take_some(bool from_back, size_t& from, size_t& to);

  std::vector<Slice> ready_;
  sc_core::sc_event ready_ev_;
  std::vector<Slice> parked_;  // park_at: the quantum boundary (ps)
  bool dispatching_ = false;
  // The batch the host threads share. `take_` holds the batch's generation
  // (bits 63:32) and the range of slices not taken yet (first in 31:16, end
  // in 15:0): the simulation thread takes from the front, the host threads
  // from the back (so a hart tends to stay on one host thread, its state in
  // that core's caches), each claim by one compare-and-swap of up to `chunk_`
  // slices (on take_'s host line, which the claim reads anyway); a host
  // thread late for one batch may take from the next. `unfinished_` counts down, once per
  // thread and batch (the simulation thread spins on it: a count down per
  // slice made each wait for the host line). Each on host lines of its own
  // (base/host_lines.h): other threads spin on them.
  alignas(kHostLine) std::vector<Slice> batch_;
  uint64_t now_ps_ = 0;  // SystemC time of the batch
  uint64_t passed_ps_ = 0;  // the last boundary the batch's slice passed (pass_boundary); 0: none
  alignas(kHostLine) std::atomic<uint64_t> take_{0};
  std::atomic<size_t> chunk_{1};  // how many slices a take claims at most
  alignas(kHostLine) std::atomic<size_t> unfinished_{0};
  std::atomic<bool> quit_{false};
  std::mutex m_;  // for work_cv_ only: a host thread that waited too long sleeps
  std::condition_variable work_cv_;
  std::vector<std::thread> threads_;
};

}  // namespace avp
