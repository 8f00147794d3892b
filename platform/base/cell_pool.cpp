#include "base/cell_pool.h"

#include <sys/mman.h>

#include <cstdint>

#include "base/prefault.h"

namespace avp {

HeapChunks& heap_chunks() {
  static HeapChunks chunks;
  return chunks;
}

HugePageChunks::~HugePageChunks() {
  if (spare_) regions_.push_back(spare_);
  for (std::byte* r : regions_) {
    Prefault::finish(r, kRegionBytes);
    munmap(r, kRegionBytes);
  }
}

std::byte* HugePageChunks::map_region() {
  // Twice the size, then the aligned region kept and the rest unmapped.
  void* m = mmap(nullptr, 2 * kRegionBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(m);
  const std::uintptr_t aligned = (start + kRegionBytes - 1) / kRegionBytes * kRegionBytes;
  if (aligned > start) munmap(m, aligned - start);
  if (const std::uintptr_t tail = start + 2 * kRegionBytes - (aligned + kRegionBytes))
    munmap(reinterpret_cast<void*>(aligned + kRegionBytes), tail);
  auto* region = reinterpret_cast<std::byte*>(aligned);
  madvise(region, kRegionBytes, MADV_HUGEPAGE);  // without huge pages it stays ordinary memory
  return region;
}

std::byte* HugePageChunks::take_chunk(std::size_t bytes) {
  bytes = (bytes + kHostLine - 1) / kHostLine * kHostLine;
  if (bytes > kRegionBytes) throw std::logic_error("HugePageChunks: a chunk larger than a region");
  if (static_cast<std::size_t>(end_ - next_) < bytes) {
    // The spare region made ready while the last one filled, if any.
    std::byte* region = spare_ ? spare_ : map_region();
    spare_ = nullptr;
    regions_.push_back(region);
    next_ = region;
    end_ = region + kRegionBytes;
  }
  std::byte* chunk = next_;
  next_ += bytes;
  // The next region is mapped and populated ahead once half of this one is
  // carved: a thread that allocates little asks for nothing more.
  if (!spare_ && static_cast<std::size_t>(end_ - next_) < kRegionBytes / 2) {
    spare_ = map_region();
    Prefault::ahead(spare_, kRegionBytes);
  }
  return chunk;
}

}  // namespace avp
