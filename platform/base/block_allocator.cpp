#include "base/block_allocator.h"

#include <cerrno>

namespace avp {

uint64_t BlockAllocator::alloc(uint64_t owner, uint64_t size, uint64_t align, int& error) {
  if (align == 0) align = 256;
  if (size == 0 || (align & (align - 1)) || align > end_ - base_ || size > end_ - base_) {
    error = EINVAL;
    return 0;
  }
  uint64_t at = base_;
  for (auto it = blocks_.begin();; ++it) {
    const uint64_t limit = it == blocks_.end() ? end_ : it->first;
    const uint64_t aligned = (at + align - 1) & ~(align - 1);
    if (aligned >= at && aligned <= limit && limit - aligned >= size) {
      blocks_.emplace(aligned, Block{size, owner});
      in_use_ += size;
      return aligned;
    }
    if (it == blocks_.end()) break;
    at = it->first + it->second.size;
  }
  error = ENOMEM;
  return 0;
}

int BlockAllocator::free(uint64_t owner, uint64_t addr) {
  auto it = blocks_.find(addr);
  if (it == blocks_.end() || it->second.owner != owner) return EINVAL;
  in_use_ -= it->second.size;
  blocks_.erase(it);
  return 0;
}

void BlockAllocator::free_all(uint64_t owner) {
  for (auto it = blocks_.begin(); it != blocks_.end();) {
    if (it->second.owner == owner) {
      in_use_ -= it->second.size;
      it = blocks_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace avp
