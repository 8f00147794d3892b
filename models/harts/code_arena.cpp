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
  // The next huge page made ready once half of this one is filled
  // (base/prefault.h): a run that translates little asks for nothing.
  if (const size_t next = (used_ + kHugePage / 2) / kHugePage * kHugePage; next && next < size_ && next >= ready_) {
    ready_ = std::min(size_, next + kHugePage);
    Prefault::ahead(base_ + next, ready_ - next);
  }
  return base_ + at;
}

}  // namespace avp
