#include "base/prefault.h"

#include <sys/mman.h>

#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

namespace avp {

namespace {

struct Range {
  std::uintptr_t lo = 0, hi = 0;
  bool overlaps(const Range& o) const { return lo < o.hi && o.lo < hi; }
};

// The helper thread and its queue, started at the first request. Never
// destroyed: a translation cache may go at exit, after other statics.
class Prefaulter {
 public:
  static Prefaulter& instance() {
    static Prefaulter* p = new Prefaulter;
    return *p;
  }
  void ahead(const Range& r) {
    std::lock_guard<std::mutex> lk(mutex_);
    if (unsupported_) return;
    if (!started_) {
      try {
        std::thread([this] { work(); }).detach();
      } catch (const std::system_error&) {  // no thread to be had: the faults stay where they were
        unsupported_ = true;
        return;
      }
      started_ = true;
    }
    queue_.push_back(r);
    wake_.notify_one();
  }
  void finish(const Range& r) {
    std::unique_lock<std::mutex> lk(mutex_);
    done_.wait(lk, [&] {
      if (busy_ && running_.overlaps(r)) return false;
      for (const Range& q : queue_)
        if (q.overlaps(r)) return false;
      return true;
    });
  }

 private:
  Prefaulter() = default;
  void work() {
    std::unique_lock<std::mutex> lk(mutex_);
    for (;;) {
      wake_.wait(lk, [&] { return !queue_.empty(); });
      running_ = queue_.front();
      queue_.pop_front();
      busy_ = true;
      lk.unlock();
      const bool ok = madvise(reinterpret_cast<void*>(running_.lo), running_.hi - running_.lo, MADV_POPULATE_WRITE) == 0;
      lk.lock();
      busy_ = false;
      if (!ok && errno == EINVAL) {  // an older kernel: the faults stay where they were
        unsupported_ = true;
        queue_.clear();
      }
      done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<Range> queue_;
  Range running_;
  bool busy_ = false, started_ = false, unsupported_ = false;
};

Range range_of(void* p, std::size_t bytes) {
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  return {lo, lo + bytes};
}

}  // namespace

void Prefault::ahead(void* p, std::size_t bytes) {
  if (bytes) Prefaulter::instance().ahead(range_of(p, bytes));
}

void Prefault::finish(void* p, std::size_t bytes) {
  if (bytes) Prefaulter::instance().finish(range_of(p, bytes));
}

}  // namespace avp
