// The kernel's flags of a host mapping (/proc/self/smaps), for tests of
// what a model asked of the host's memory (test_cell_pool.cpp,
// test_memory_backing.cpp): " hg" after MADV_HUGEPAGE, " nh" after
// MADV_NOHUGEPAGE.
#pragma once
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

namespace avp::test {

// The VmFlags line of the mapping holding p, empty when none is found.
inline std::string vm_flags_of(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2)  // a mapping's first line (fields are "Name: ...")
      inside = lo <= a && a < hi;
    else if (inside && line.rfind("VmFlags:", 0) == 0)
      return line;
  }
  return {};
}

}  // namespace avp::test
