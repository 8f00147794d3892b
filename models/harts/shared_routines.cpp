#include "shared_routines.h"

#include <cstring>
#include <mutex>

#include "harts/code_arena.h"
#include "perf_map.h"

namespace avp {

const void* shared_routine(const char* name, std::vector<uint8_t> (*make)(const void*), const void* layout,
                           size_t bytes) {
  struct Made {
    std::vector<uint8_t> (*make)(const void*);
    std::vector<uint8_t> layout;
    const void* code;
  };
  static std::recursive_mutex lock;  // a routine's code may use another routine
  static CodeArena arena(64 << 10);  // each routine's few hundred bytes, for every layout a process uses
  static std::vector<Made> made;
  const std::lock_guard<std::recursive_mutex> held(lock);
  for (const Made& m : made)
    if (m.make == make && m.layout.size() == bytes && std::memcmp(m.layout.data(), layout, bytes) == 0) return m.code;
  const std::vector<uint8_t> code = make(layout);
  const void* at = arena.add(code.data(), code.size());
  if (at) {
    PerfMap::instance().add_routine(at, code.size(), name);
    const auto* first = static_cast<const uint8_t*>(layout);
    made.push_back({make, std::vector<uint8_t>(first, first + bytes), at});
  }
  return at;
}

}  // namespace avp
