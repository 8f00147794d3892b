#include "harts/stream_prefetcher.h"

#include <algorithm>
#include <string>

#include "base/params.h"

namespace avp {

void StreamPrefetcher::configure(uint32_t streams, uint32_t depth, unsigned line_bits, const char* what) {
  if (streams > 64 || (streams && (depth < 1 || depth > 64)))
    throw ParamError(std::string(what) + ": at most 64 streams of 1..64 lines each");
  buffers_.assign(streams, Buffer{});
  for (Buffer& b : buffers_) b.lines.reserve(depth);
  depth_ = depth;
  page_shift_ = line_bits < 12 ? 12 - line_bits : 0;
  clear();
}

void StreamPrefetcher::clear() {
  for (Buffer& b : buffers_) {
    b.lines.clear();
    b.next = ~0ull;
  }
  std::fill(std::begin(recent_), std::end(recent_), ~0ull);
  last_ = nullptr;
}

bool StreamPrefetcher::take(uint64_t line, uint64_t& ready_ps) {
  last_ = nullptr;
  for (Buffer& b : buffers_) {
    const auto it = std::find_if(b.lines.begin(), b.lines.end(), [line](const Entry& e) { return e.line == line; });
    if (it == b.lines.end()) continue;
    ready_ps = it->ready_ps;
    b.lines.erase(b.lines.begin(), it + 1);  // the lines before it were passed over
    b.used = ++clock_;
    last_ = &b;
    ++hits_;
    return true;
  }
  return false;
}

void StreamPrefetcher::remember_miss(uint64_t line) {
  recent_[recent_next_] = line;
  recent_next_ = (recent_next_ + 1) % kRecentMisses;
}

bool StreamPrefetcher::missed_recently(uint64_t line) const {
  return std::find(std::begin(recent_), std::end(recent_), line) != std::end(recent_);
}

StreamPrefetcher::Buffer* StreamPrefetcher::allocate(uint64_t line) {
  int64_t step = 0;
  if (line > 0 && missed_recently(line - 1)) step = 1;
  else if (line + 1 != ~0ull && missed_recently(line + 1)) step = -1;
  if (step == 0) return nullptr;
  const uint64_t next = line + static_cast<uint64_t>(step);
  Buffer* b = &*std::min_element(buffers_.begin(), buffers_.end(),
                                 [](const Buffer& x, const Buffer& y) { return x.used < y.used; });
  b->lines.clear();
  b->next = same_page(line, next) ? next : ~0ull;
  b->step = step;
  b->used = ++clock_;
  return b;
}

}  // namespace avp
