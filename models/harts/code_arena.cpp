#include "harts/code_arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>

#include "base/prefault.h"

namespace avp {

CodeArena::~CodeArena() {
  if (!base_) return;
  Prefault::finish(base_, size_);
  munmap(base_, size_);
}

void* CodeArena::add(const uint8_t* code, size_t n) {
  if (!mapped_) {
    mapped_ = true;  // one attempt: a host that refuses executable memory interprets
    void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      madvise(p, size_, MADV_HUGEPAGE);  // translated code fills it from the start: a fault per 2 MiB
      base_ = static_cast<uint8_t*>(p);
    }
  }
  const size_t at = (used_ + 15) & ~size_t{15};  // 16-byte aligned entries
  if (!base_ || at + n > size_) {
    full_ = base_ != nullptr;
    return nullptr;
  }
  std::memcpy(base_ + at, code, n);
  used_ = at + n;
  // The next huge page made ready while this one fills (base/prefault.h).
  if (used_ + kHugePage > ready_ && ready_ < size_) {
    const size_t from = std::max(ready_, (used_ + kHugePage - 1) / kHugePage * kHugePage);
    ready_ = std::min(size_, from + kHugePage);
    if (ready_ > from) Prefault::ahead(base_ + from, ready_ - from);
  }
  return base_ + at;
}

}  // namespace avp
