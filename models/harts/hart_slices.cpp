#include "harts/hart_slices.h"

#include <algorithm>
#include <chrono>

#include "base/cpu_relax.h"
#include "base/local_time.h"
#include "harts/hart.h"

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
    ++generation_;
  }
  work_cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void HartSlices::run(Hart& h) {
  if (!dispatching_) {
    dispatching_ = true;
    sc_core::sc_spawn([this] { dispatch(); }, "hart_slices");
  }
  ready_.push_back(&h);
  ready_ev_.notify(sc_core::SC_ZERO_TIME);  // the harts asking in this delta cycle go together
  sc_core::wait(h.slice_done());
}

void HartSlices::dispatch() {
  for (;;) {
    if (parked_.empty()) {
      sc_core::wait(ready_ev_);
    } else {
      sc_core::wait(from_ps(parked_.begin()->first - to_ps(sc_core::sc_time_stamp())), ready_ev_);
      if (unpark_due()) continue;
    }
    std::vector<Hart*> batch;
    batch.swap(ready_);
    std::sort(batch.begin(), batch.end(), [](const Hart* a, const Hart* b) { return a->id() < b->id(); });
    run_batch(batch);
    // Immediate: the harts resume in this evaluation phase, in hart order.
    for (Hart* h : batch) {
      if (const uint64_t boundary = h->park_until_grid()) parked_.emplace(boundary, h);
      else h->slice_done().notify();
    }
  }
}

bool HartSlices::unpark_due() {
  const uint64_t now = to_ps(sc_core::sc_time_stamp());
  if (parked_.begin()->first > now) return false;
  // The boundary's first delta cycle, where the harts' threads would wake
  // from sync_to_grid and ask: the batch runs in the next one, as theirs would.
  for (auto it = parked_.begin(); it != parked_.end() && it->first <= now; it = parked_.erase(it)) {
    if (it->second->unpark()) ready_.push_back(it->second);
    else it->second->slice_done().notify();
  }
  if (!ready_.empty()) ready_ev_.notify(sc_core::SC_ZERO_TIME);
  return true;
}

void HartSlices::run_batch(const std::vector<Hart*>& batch) {
  if (threads_.empty() || batch.size() == 1) {
    for (Hart* h : batch) h->run_slice();
    return;
  }
  {
    std::lock_guard<std::mutex> lk(m_);
    batch_ = batch;
    next_ = 0;
    unfinished_ = batch.size();
    ++generation_;
  }
  work_cv_.notify_all();
  while (take_and_run()) {
  }
  while (unfinished_.load(std::memory_order_acquire)) cpu_relax();
}

bool HartSlices::take_and_run() {
  Hart* h = nullptr;
  {
    std::lock_guard<std::mutex> lk(m_);  // a host thread late for one batch may take from the next
    if (next_ < batch_.size()) h = batch_[next_++];
  }
  if (!h) return false;
  h->run_slice();
  unfinished_.fetch_sub(1, std::memory_order_acq_rel);
  return true;
}

void HartSlices::host_thread() {
  uint64_t seen = 0;
  for (;;) {
    // The batch is noticed within one pause (a slice lasts a few microseconds);
    // the clock is read every 64.
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (unsigned i = 1; generation_.load(std::memory_order_acquire) == seen; ++i) {
      cpu_relax();
      if (i % 64 == 0 && std::chrono::steady_clock::now() >= until) break;
    }
    if (generation_.load(std::memory_order_acquire) == seen) {
      std::unique_lock<std::mutex> lk(m_);
      work_cv_.wait(lk, [&] { return generation_.load() != seen; });
    }
    if (quit_) return;
    seen = generation_.load();
    while (take_and_run()) {
    }
  }
}

}  // namespace avp
