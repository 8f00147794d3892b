// Blocks of one memory (device DRAM, host memory) for several users: first
// fit, each block owned by an owner id (a host program's session, or the
// platform's own drivers), so two owners never get the same bytes and an
// owner's end frees what it held (docs/host-bridge.md, "Device memory").
// Not thread-safe: its users call it from SystemC threads, one at a time.
#pragma once
#include <cstdint>
#include <map>

namespace avp {

class BlockAllocator {
 public:
  // Allocations lie in [base, end).
  BlockAllocator(uint64_t base, uint64_t end) : base_(base), end_(end) {}
  // The address of a new block (alignment 0: 256), or 0 (`error` set to
  // EINVAL for a bad size or alignment, ENOMEM when no gap is large enough).
  uint64_t alloc(uint64_t owner, uint64_t size, uint64_t align, int& error);
  // 0, or EINVAL when `addr` is not a block of `owner`.
  int free(uint64_t owner, uint64_t addr);
  void free_all(uint64_t owner);
  uint64_t bytes_in_use() const { return in_use_; }

 private:
  struct Block {
    uint64_t size, owner;
  };
  uint64_t base_, end_, in_use_ = 0;
  std::map<uint64_t, Block> blocks_;  // by start address
};

}  // namespace avp
