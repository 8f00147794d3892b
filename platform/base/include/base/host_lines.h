// Keeping data that different host threads write off each other's cache lines.
// Harts in the parallel quantum schedule run on several host threads, and a
// hart writes its own state, blocks, caches' tags and history all the time;
// when two harts' objects share a host cache line (malloc places them side by
// side), every write moves the line between the cores (false sharing), which
// measured 1.7x slower slices on two host threads. Such objects are aligned to
// kHostLine, and their vectors allocated with HostLineAllocator.
#pragma once
#include <cstddef>
#include <new>

namespace avp {

// Two 64-byte lines: x86 cores also prefetch a line's neighbour in pairs.
inline constexpr std::size_t kHostLine = 128;

// Memory of `bytes` (a multiple of kHostLine) that starts on a host line.
// Small sizes come from per-thread pools of equal cells (base/cell_pool.h):
// an aligned malloc costs hundreds of host instructions, and a hart
// allocates its decoded blocks' vectors all through a boot.
void* take_host_lines(std::size_t bytes);
void give_host_lines(void* p, std::size_t bytes) noexcept;

// Allocations that start on a host line and fill their last one.
template <typename T>
struct HostLineAllocator {
  using value_type = T;
  HostLineAllocator() = default;
  template <typename U>
  HostLineAllocator(const HostLineAllocator<U>&) {}
  static std::size_t bytes(std::size_t n) { return (n * sizeof(T) + kHostLine - 1) / kHostLine * kHostLine; }
  T* allocate(std::size_t n) { return static_cast<T*>(take_host_lines(bytes(n))); }
  void deallocate(T* p, std::size_t n) { give_host_lines(p, bytes(n)); }
  template <typename U>
  bool operator==(const HostLineAllocator<U>&) const { return true; }
  template <typename U>
  bool operator!=(const HostLineAllocator<U>&) const { return false; }
};

}  // namespace avp
