#include "shared_routines.h"

#include <cstring>
#include <mutex>

#include "harts/code_arena.h"

namespace avp {

const void* shared_routine(std::vector<uint8_t> (*make)(const void*), const void* layout, size_t bytes) {
  struct Made {
    std::vector<uint8_t> (*make)(const void*);
    std::vector<uint8_t> layout;
    const void* code;
  };
  static std::mutex lock;
  static CodeArena arena(4096);
  static std::vector<Made> made;
  const std::lock_guard<std::mutex> held(lock);
  for (const Made& m : made)
    if (m.make == make && m.layout.size() == bytes && std::memcmp(m.layout.data(), layout, bytes) == 0) return m.code;
  const std::vector<uint8_t> code = make(layout);
  const void* at = arena.add(code.data(), code.size());
  if (at) {
    const auto* first = static_cast<const uint8_t*>(layout);
    made.push_back({make, std::vector<uint8_t>(first, first + bytes), at});
  }
  return at;
}

}  // namespace avp
