// Host pages in tests of memory populated ahead (base/prefault.h): whether
// the host kernel populates on request, and how many pages of a range are
// resident.
#pragma once
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <vector>

namespace avp::test {

// Whether the host kernel populates on request (MADV_POPULATE_WRITE, Linux 5.14).
inline bool kernel_populates() {
  const long page = sysconf(_SC_PAGESIZE);
  void* p = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  const bool ok = madvise(p, page, MADV_POPULATE_WRITE) == 0 || errno != EINVAL;
  munmap(p, page);
  return ok;
}

// The pages of [p, p + bytes) that are resident.
inline size_t resident_pages(const void* p, size_t bytes) {
  const long page = sysconf(_SC_PAGESIZE);
  std::vector<unsigned char> in(bytes / page);
  EXPECT_EQ(mincore(const_cast<void*>(p), bytes, in.data()), 0);
  size_t n = 0;
  for (unsigned char c : in) n += c & 1;
  return n;
}

}  // namespace avp::test
