// Host memory faulted in ahead of its first use, on a helper thread. The
// translation caches and the pools of decoded blocks fill regions of huge
// host pages (2 MiB) one after another; the first touch of each makes the
// host kernel clear it inside the page fault, on the simulation's thread,
// which in a virtual machine was several percent of a Linux boot's wall time
// (docs/performance.md). Asked for the region after the one filling (once
// that is half used), the helper populates it (MADV_POPULATE_WRITE) while
// the simulation goes on.
// Contents do not change -- fresh anonymous memory reads as zero either way
// -- so nothing simulated depends on it. A host kernel without
// MADV_POPULATE_WRITE (Linux before 5.14) leaves the faults where they were.
#pragma once
#include <cstddef>

namespace avp {

class Prefault {
 public:
  // Populates [p, p + bytes), part of a private anonymous mapping, soon.
  static void ahead(void* p, std::size_t bytes);
  // Returns once what was asked for in [p, p + bytes) is done: before the
  // range is unmapped.
  static void finish(void* p, std::size_t bytes);
};

}  // namespace avp
