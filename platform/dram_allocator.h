// Device DRAM for the host programs of one server (docs/host-bridge.md,
// "Device memory"): one allocator per device, first fit, each block owned by
// the session that allocated it, so two programs (or two device handles of
// one) never get the same bytes and a session's end frees what it held.
// Requests are served one at a time by the bridge's SystemC threads.
#pragma once
#include <cstdint>
#include <map>

namespace avp {

class DramAllocator {
 public:
  // Allocations lie in [base, end).
  DramAllocator(uint64_t base, uint64_t end) : base_(base), end_(end) {}
  // The device address of a new block, or 0 (`error` set to EINVAL for a bad
  // size or alignment, ENOMEM when no gap is large enough).
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
