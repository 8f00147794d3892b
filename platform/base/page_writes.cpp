#include "base/page_writes.h"

#include <sys/mman.h>

#include <new>

namespace avp {

namespace {
uint64_t counter_bytes(uint64_t size) { return ((size + (1ull << PageWrites::kPageBits) - 1) >> PageWrites::kPageBits) * sizeof(uint64_t); }
}  // namespace

void PageWrites::cover(const uint8_t* storage, uint64_t size) {
  void* p = mmap(nullptr, counter_bytes(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  if (count_) munmap(count_, counter_bytes(size_));
  storage_ = storage;
  size_ = size;
  count_ = static_cast<uint64_t*>(p);
}

PageWrites::~PageWrites() {
  if (count_) munmap(count_, counter_bytes(size_));
}

}  // namespace avp
