#include "base/host_lines.h"

#include "base/cell_pool.h"

namespace avp {

namespace {
// Sizes up to this many lines are pooled, one pool per size.
constexpr std::size_t kPooledLines = 32;

// This thread's pools, their chunks in huge host pages. Never destroyed:
// memory a thread took may be given back after it ended (by another thread,
// into that thread's pools).
CellPool* thread_pools() {
  thread_local CellPool* pools = [] {
    auto* chunks = new HugePageChunks;
    auto* p = static_cast<CellPool*>(::operator new(sizeof(CellPool) * kPooledLines));
    for (std::size_t i = 0; i < kPooledLines; ++i) new (p + i) CellPool(*chunks);
    return p;
  }();
  return pools;
}
}  // namespace

void* take_host_lines(std::size_t bytes) {
  const std::size_t lines = bytes / kHostLine;
  if (lines == 0 || lines > kPooledLines) return ::operator new(bytes, std::align_val_t(kHostLine));
  return thread_pools()[lines - 1].take(bytes, kHostLine);
}

void give_host_lines(void* p, std::size_t bytes) noexcept {
  const std::size_t lines = bytes / kHostLine;
  if (lines == 0 || lines > kPooledLines) ::operator delete(p, std::align_val_t(kHostLine));
  else thread_pools()[lines - 1].give(p);
}

}  // namespace avp
