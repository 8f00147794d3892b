// A memory (host memory, device DRAM) shared with programs as an operating
// system shares it: page by page, only what a program was given
// (docs/host-bridge.md, "Host memory" and "Device memory"). A grant moves
// pages of the memory into a memfd of their own, mapped at their place in the
// simulator's memory and passed to one client, which can map nothing else; a
// revoke puts the memory's own pages back (they read zero), so the client's
// mapping no longer reaches the simulator.
#pragma once
#include <cstdint>
#include <vector>

namespace avp {

class Memory;

class MemoryGrants {
 public:
  static constexpr uint64_t kPage = 4096;
  // `mem` is shared (Memory::share): its storage is a memfd mapped at data().
  explicit MemoryGrants(Memory& mem);
  // A sealed memfd holding `pages` (page-aligned offsets in the memory, in
  // file order) with their current bytes, which the memory now maps
  // at their places; the caller owns the descriptor. -errno on failure
  // (nothing changed).
  int grant(const std::vector<uint64_t>& pages);
  // Pages [addr, addr + bytes) of one block (bytes a multiple of kPage).
  int grant(uint64_t addr, uint64_t bytes);
  // The memory's own pages back at `pages` (zero-filled).
  void revoke(const std::vector<uint64_t>& pages);
  void revoke_block(uint64_t addr, uint64_t bytes);

 private:
  Memory& mem_;
  int mem_fd_;
};

}  // namespace avp
