// A cache model's fields as translated code sees them (block_translator.h,
// CacheFields), for tests whose fake hart holds them: a way, and the offsets
// of a fake hart's fields named as CacheModel's.
#pragma once
#include <cstddef>
#include <cstdint>

#include "harts/block_translator.h"

namespace avp::test {

struct FakeWay {  // CacheModel's Way as translated code uses it
  uint64_t tag = ~0ull, used = 0;
  bool dirty = false;
};

// `hart` has last_line, prev_line, last_way, prev_way, clock, hits, ways and way_count.
template <typename Hart>
CacheFields fake_cache_fields(const Hart& hart) {
  const auto offset = [&hart](const void* field) {
    return static_cast<int32_t>(static_cast<const char*>(field) - reinterpret_cast<const char*>(&hart));
  };
  return {offset(&hart.last_line),
          offset(&hart.prev_line),
          offset(&hart.last_way),
          offset(&hart.prev_way),
          offset(&hart.clock),
          offset(&hart.hits),
          offset(&hart.ways),
          offset(&hart.way_count),
          static_cast<int32_t>(sizeof(FakeWay)),
          static_cast<int32_t>(offsetof(FakeWay, tag)),
          static_cast<int32_t>(offsetof(FakeWay, used)),
          static_cast<int32_t>(offsetof(FakeWay, dirty))};
}

}  // namespace avp::test
