#include "harts/hart_slices.h"

#include <algorithm>
#include <chrono>

#include "base/cpu_relax.h"
#include "base/local_time.h"
#include "base/run_ahead.h"
#include "harts/hart.h"
#include "harts/wait_loop.h"

namespace avp {
namespace {

// How long a host thread spins for the next batch before it sleeps: slices
// of a quantum follow each other every few microseconds of wall-clock time,
// and a wake-up costs about as much.
constexpr std::chrono::microseconds kSpin(200);

}  // namespace

HartSlices::HartSlices(unsigned host_threads) {
  for (unsigned i = 1; i < host_threads; ++i) threads_.emplace_back([this] { host_thread(); });
}

HartSlices::~HartSlices() {
  quit_ = true;
  {
    std::lock_guard<std::mutex> lk(m_);
    take_ += uint64_t{1} << 32;
  }
  work_cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void HartSlices::run(Hart& h) {
  if (!dispatching_) {
    dispatching_ = true;
    sc_core::sc_spawn([this] { dispatch(); }, "hart_slices");
  }
  ready_.push_back({&h, 0, 0});
  ready_ev_.notify(sc_core::SC_ZERO_TIME);  // the harts asking in this delta cycle go together
  sc_core::wait(h.slice_done());
}

uint64_t HartSlices::next_boundary() const {
  uint64_t b = ~0ull;
  for (const Slice& p : parked_) b = std::min(b, p.park_at);
  return b;
}

void HartSlices::dispatch() {
  for (;;) {
    if (parked_.empty()) {
      sc_core::wait(ready_ev_);
    } else {
      if (run_ahead()) continue;
      sc_core::wait(from_ps(next_boundary() - to_ps(sc_core::sc_time_stamp())), ready_ev_);
      if (unpark_due()) continue;
    }
    batch_.swap(ready_);
    ready_.clear();
    now_ps_ = to_ps(sc_core::sc_time_stamp());
    allow_passing();
    run_batch();
    replay();
    // Immediate: the harts resume in this evaluation phase, in hart order
    // (after a wait where the slice passed boundaries).
    resume(park(), passed_ps_, now_ps_);
  }
}

void HartSlices::resume(const std::vector<Hart*>& go_on, uint64_t boundary, uint64_t now) {
  if (!go_on.empty() && boundary > now) {
    sc_core::wait(from_ps(boundary - now));
    for (Hart* h : go_on) h->systemc_moved(boundary - now);
  }
  for (Hart* h : go_on) h->slice_done().notify();
}

void HartSlices::replay() {
  for (const Slice& s : batch_)
    if (s.replay) s.hart->replay_traffic(s.park_at != 0);
}

std::vector<Hart*> HartSlices::park() {
  std::vector<Hart*> go_on;
  for (const Slice& s : batch_) {
    if (!s.park_at) {
      go_on.push_back(s.hart);
      continue;
    }
    // After the batch, so that no other slice writes meanwhile.
    const uint64_t footprint = s.spin_until ? s.hart->footprint_generation(s.hart->spin_loop()) : ~0ull;
    parked_.push_back({s.hart, 0, s.park_at, false, footprint != ~0ull ? s.spin_until : 0, footprint});
  }
  return go_on;
}

bool HartSlices::unpark_due() {
  const uint64_t now = to_ps(sc_core::sc_time_stamp());
  if (next_boundary() > now) return false;
  // The boundary's first delta cycle, where the harts' threads would wake
  // from sync_to_grid and ask: the batch runs in the next one, as theirs
  // would (a hart with a tracer attached meanwhile: its thread runs the
  // observed loop).
  for (Slice& p : parked_) {
    if (p.park_at > now) continue;
    if (!p.hart->observed()) {
      ready_.push_back({p.hart, now, 0, false, p.spin_until, p.footprint});
      continue;
    }
    p.hart->unpark(now, now);
    p.hart->slice_done().notify();
  }
  parked_.erase(std::remove_if(parked_.begin(), parked_.end(), [now](const Slice& p) { return p.park_at <= now; }),
                parked_.end());
  if (!ready_.empty()) ready_ev_.notify(sc_core::SC_ZERO_TIME);
  return true;
}

bool HartSlices::run_ahead() {
  // Nothing at all pending (run_ahead.h): the wait for the next boundary
  // would only move SystemC time there, where the parked harts, and only
  // they, would run the next batch. So that batch runs now, the harts' local
  // times counted from the boundary; SystemC time catches up (one wait)
  // before any hart's thread resumes, which is where the skipped waits
  // would have left it, and its threads then resume in hart order as they
  // would have.
  const uint64_t now = to_ps(sc_core::sc_time_stamp()), boundary = next_boundary();
  if (!RunAhead::allows(boundary - now)) return false;
  for (const Slice& p : parked_)
    if (p.park_at == boundary && p.hart->observed()) return false;  // its thread runs the observed loop
  batch_.clear();
  for (const Slice& p : parked_)
    if (p.park_at == boundary) batch_.push_back({p.hart, boundary, 0, false, p.spin_until, p.footprint});
  parked_.erase(std::remove_if(parked_.begin(), parked_.end(),
                               [boundary](const Slice& p) { return p.park_at == boundary; }),
                parked_.end());
  now_ps_ = now;
  allow_passing();
  run_batch();
  replay();
  resume(park(), std::max(boundary, passed_ps_), now);
  return true;
}

bool HartSlices::pass_boundary(Hart& h) {
  // Such a batch runs on the simulation thread (run_batch), SystemC time now_ps_.
  if (batch_.size() != 1 || !ready_.empty() || h.observed() || h.parallel_spin_until()) return false;
  const uint64_t boundary = h.grid_boundary_ahead(now_ps_);
  if (!boundary || next_boundary() <= boundary || !RunAhead::allows(boundary - now_ps_)) return false;
  h.pass_boundary(boundary, now_ps_);
  passed_ps_ = boundary;
  return true;
}

void HartSlices::allow_passing() {
  // Up to where no hart outside the batch runs and nothing is due in the
  // simulation (run_ahead.h), while every hart of the batch spins in a loop
  // whose memory nothing wrote since, apart from the others' loops: their
  // slices then do nothing any other hart or process sees, and each hart's
  // skip may pass the quanta in between as its slices would have run them.
  const bool all_spin = std::all_of(batch_.begin(), batch_.end(), [](const Slice& s) { return s.spin_until != 0; });
  uint64_t until = all_spin ? RunAhead::run_on_limit(nullptr, 0) : 0;  // the queue read only when it may matter
  for (const Slice& p : parked_) until = std::min(until, p.park_at);
  for (size_t i = 0; i < batch_.size() && until; ++i) {
    const Slice& s = batch_[i];
    if (!s.spin_until || s.hart->footprint_generation(s.hart->spin_loop()) != s.footprint) until = 0;
    until = std::min(until, s.spin_until);
    for (size_t j = 0; j < i && until; ++j)
      if (loops_touch(s.hart->spin_loop(), batch_[j].hart->spin_loop())) until = 0;
  }
  for (Slice& s : batch_) s.pass_until = until;
}

void HartSlices::run(Slice& s, bool beside_others) {
  // On the thread that runs the slice: the hart's host lines stay in its core's caches.
  s.hart->allow_passing(s.pass_until);
  if (s.unpark_at) s.hart->unpark(s.unpark_at, now_ps_);
  s.hart->run_slice(beside_others, batch_.size() > 1);
  s.spin_until = s.hart->parallel_spin_until();
  s.park_at = s.hart->park_until_grid(now_ps_);
  s.replay = s.hart->traffic_to_replay();
}

void HartSlices::run_batch() {
  passed_ps_ = 0;
  std::sort(batch_.begin(), batch_.end(), [](const Slice& a, const Slice& b) { return a.hart->id() < b.hart->id(); });
  if (threads_.empty() || batch_.size() == 1) {
    for (Slice& s : batch_) run(s, false);  // one after the other on this thread
    return;
  }
  // No slice runs and none can be taken: the previous batch is done.
  unfinished_.store(batch_.size(), std::memory_order_relaxed);
  // A take claims half a thread's share (one slice of a batch of four harts
  // on two threads): fewer compare-and-swaps on take_, each of which moves
  // its host line between the cores, while a thread that ends first still
  // takes over the rest.
  chunk_.store(std::max<size_t>(1, batch_.size() / (2 * (threads_.size() + 1))), std::memory_order_relaxed);
  const uint64_t generation = (take_.load(std::memory_order_relaxed) >> 32) + 1;
  {
    std::lock_guard<std::mutex> lk(m_);  // a host thread about to sleep sees it
    take_.store(generation << 32 | uint64_t{batch_.size()}, std::memory_order_release);
  }
  work_cv_.notify_all();
  take_and_run(false);
  while (unfinished_.load(std::memory_order_acquire)) cpu_relax();
}

bool HartSlices::take_some(bool from_back, size_t& from, size_t& to) {
  uint64_t t = take_.load(std::memory_order_acquire), taken;
  do {
    const uint64_t first = t >> 16 & 0xffff, end = t & 0xffff;
    if (first >= end) return false;
    taken = std::min<uint64_t>(end - first, chunk_.load(std::memory_order_relaxed));
    from = from_back ? end - taken : first;
    to = from + taken;
  } while (!take_.compare_exchange_weak(t, from_back ? t - taken : t + (taken << 16), std::memory_order_acq_rel,
                                        std::memory_order_acquire));
  return true;
}

size_t HartSlices::take_and_run(bool from_back) {
  // The batch stays while any slice taken is unfinished: the next one starts
  // only once every thread has counted down what it ran.
  size_t ran = 0;
  for (size_t from, to; take_some(from_back, from, to);)
    for (; from < to; ++from, ++ran) run(batch_[from], true);
  if (ran) unfinished_.fetch_sub(ran, std::memory_order_acq_rel);
  return ran;
}

void HartSlices::host_thread() {
  uint64_t seen = 0;
  const auto generation = [this] { return take_.load(std::memory_order_acquire) >> 32; };
  for (;;) {
    // The batch is noticed within one pause (a slice lasts a few microseconds);
    // the clock is read every 64.
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (unsigned i = 1; generation() == seen; ++i) {
      cpu_relax();
      if (i % 64 == 0 && std::chrono::steady_clock::now() >= until) break;
    }
    if (generation() == seen) {
      std::unique_lock<std::mutex> lk(m_);
      work_cv_.wait(lk, [&] { return generation() != seen; });
    }
    if (quit_) return;
    seen = generation();
    take_and_run(true);
  }
}

}  // namespace avp
