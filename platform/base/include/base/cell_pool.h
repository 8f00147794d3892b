// Memory for many equal objects made and dropped one at a time (the
// host-line allocations of base/host_lines.h, one pool per size): cells carved from
// host-line aligned chunks and reused through a free list. An aligned malloc
// per object costs hundreds of host instructions (glibc splits a larger
// chunk for each); a cell costs a few, and one owner's cells share host lines
// with no other owner's objects (base/host_lines.h). The chunks come from a
// ChunkSource: the heap, or regions in huge host pages (HugePageChunks).
// Not thread-safe: an owner allocates from one thread at a time.
#pragma once
#include <cstddef>
#include <new>
#include <stdexcept>
#include <vector>

#include "base/host_lines.h"

namespace avp {

// Where a pool's chunks come from: kHostLine-aligned, given back when the pool goes.
class ChunkSource {
 public:
  virtual std::byte* take_chunk(std::size_t bytes) = 0;
  virtual void give_chunk(std::byte* chunk, std::size_t bytes) noexcept = 0;

 protected:
  ~ChunkSource() = default;
};

// Chunks from the heap (operator new).
class HeapChunks final : public ChunkSource {
 public:
  std::byte* take_chunk(std::size_t bytes) override {
    return static_cast<std::byte*>(::operator new(bytes, std::align_val_t(kHostLine)));
  }
  void give_chunk(std::byte* chunk, std::size_t) noexcept override { ::operator delete(chunk, std::align_val_t(kHostLine)); }
};
HeapChunks& heap_chunks();

// Chunks carved in turn from regions of kRegionBytes aligned to a huge host
// page (2 MiB) that ask for huge pages (madvise, as the guest memory and the
// translation caches do): a decoded block's first touch of a new 4 KiB page
// was a host page fault, about a third of a Linux boot's. The regions are
// kept while the source lives; give_chunk keeps the chunk (its pool's cells
// are the pool's to reuse). Once half of a region is carved, the next one
// is mapped and populated ahead by a helper thread (base/prefault.h).
class HugePageChunks final : public ChunkSource {
 public:
  static constexpr std::size_t kRegionBytes = std::size_t{2} << 20;
  HugePageChunks() = default;
  HugePageChunks(const HugePageChunks&) = delete;
  HugePageChunks& operator=(const HugePageChunks&) = delete;
  ~HugePageChunks();
  // Throws std::bad_alloc when no region can be mapped; bytes above kRegionBytes: std::logic_error.
  std::byte* take_chunk(std::size_t bytes) override;
  void give_chunk(std::byte*, std::size_t) noexcept override {}
  std::size_t regions() const { return regions_.size(); }

 private:
  std::byte* map_region();
  std::vector<std::byte*> regions_;
  std::byte* spare_ = nullptr;  // the next region, populated ahead (base/prefault.h)
  std::byte* next_ = nullptr;
  std::byte* end_ = nullptr;
};

class CellPool {
 public:
  explicit CellPool(ChunkSource& chunks = heap_chunks()) : source_(chunks) {}
  CellPool(const CellPool&) = delete;
  CellPool& operator=(const CellPool&) = delete;
  ~CellPool() {
    for (std::byte* c : chunks_) source_.give_chunk(c, cell_ * kCellsPerChunk);
  }

  // A cell of `bytes` (every call of one pool asks the same size) aligned to `align` (at most kHostLine).
  void* take(std::size_t bytes, std::size_t align) {
    if (cell_ == 0) {
      if (align > kHostLine) throw std::logic_error("CellPool: alignment above a host line");
      cell_ = (bytes + align - 1) / align * align;
    } else if (bytes > cell_) {
      throw std::logic_error("CellPool: cells of different sizes");
    }
    if (free_) {
      void* p = free_;
      free_ = *static_cast<void**>(p);
      return p;
    }
    if (next_ == end_) {
      chunks_.push_back(source_.take_chunk(cell_ * kCellsPerChunk));
      next_ = chunks_.back();
      end_ = next_ + cell_ * kCellsPerChunk;
    }
    void* p = next_;
    next_ += cell_;
    return p;
  }
  void give(void* p) noexcept {
    *static_cast<void**>(p) = free_;
    free_ = p;
  }

 private:
  static constexpr std::size_t kCellsPerChunk = 64;
  ChunkSource& source_;
  std::size_t cell_ = 0;
  std::vector<std::byte*> chunks_;
  std::byte* next_ = nullptr;
  std::byte* end_ = nullptr;
  void* free_ = nullptr;  // each free cell holds the next one's address
};

}  // namespace avp
