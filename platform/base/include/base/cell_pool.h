// Memory for many equal objects made and dropped one at a time (the
// host-line allocations of base/host_lines.h, one pool per size): cells carved from
// host-line aligned chunks and reused through a free list. An aligned malloc
// per object costs hundreds of host instructions (glibc splits a larger
// chunk for each); a cell costs a few, and one owner's cells share host lines
// with no other owner's objects (base/host_lines.h).
// Not thread-safe: an owner allocates from one thread at a time.
#pragma once
#include <cstddef>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

#include "base/host_lines.h"

namespace avp {

class CellPool {
 public:
  CellPool() = default;
  CellPool(const CellPool&) = delete;
  CellPool& operator=(const CellPool&) = delete;

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
      chunks_.emplace_back(static_cast<std::byte*>(::operator new(cell_ * kCellsPerChunk, std::align_val_t(kHostLine))));
      next_ = chunks_.back().get();
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
  struct FreeChunk {
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t(kHostLine)); }
  };
  std::size_t cell_ = 0;
  std::vector<std::unique_ptr<std::byte, FreeChunk>> chunks_;
  std::byte* next_ = nullptr;
  std::byte* end_ = nullptr;
  void* free_ = nullptr;  // each free cell holds the next one's address
};

}  // namespace avp
