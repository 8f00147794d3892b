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
// quantum that host threads cannot share).
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
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

 private:
  void dispatch();  // SystemC thread: one batch per delta cycle with requests
  bool unpark_due();  // the parked harts whose boundary is now ask for their slices; false: none
  void run_batch(const std::vector<Hart*>& batch);
  void host_thread();
  bool take_and_run();  // runs one hart of the batch; false when none is left

  std::vector<Hart*> ready_;
  sc_core::sc_event ready_ev_;
  std::multimap<uint64_t, Hart*> parked_;  // quantum boundary (ps) -> hart
  bool dispatching_ = false;
  // The batch the host threads share (taken under m_); `generation_`
  // announces a new batch (spun on, then waited for), `unfinished_` counts down.
  // Each on host lines of its own (base/host_lines.h): other threads spin on them.
  alignas(kHostLine) std::vector<Hart*> batch_;
  size_t next_ = 0;
  alignas(kHostLine) std::atomic<size_t> unfinished_{0};
  alignas(kHostLine) std::atomic<uint64_t> generation_{0};
  std::atomic<bool> quit_{false};
  std::mutex m_;
  std::condition_variable work_cv_;
  std::vector<std::thread> threads_;
};

}  // namespace avp
