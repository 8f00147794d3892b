// Linux perf's map of JIT code (harts.perf_map): /tmp/perf-<pid>.map, one
// line per translated block, "<start> <size> <name>" in hex, so that
// `perf record` of accel-vp attributes samples in translated code to the
// hart and the guest pc of their block (as QEMU's -perfmap does), and the
// routines the blocks share (shared_routines.h) to their names. perf reads
// the file when it reports; a translation cache that is emptied and filled
// again adds new lines for the same addresses.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace avp {

class PerfMap {
 public:
  static PerfMap& instance();  // the process's one map (harts on several host threads add to it)
  // Adds `code`'s `size` bytes as "accel-vp hart<hart> 0x<pc>" (with the
  // privilege, U/S/M, before the pc for blocks of translated or PMP-checked
  // fetches, regime `fetch_key`); false when the file cannot be written
  // (reported once on stderr).
  bool add(const void* code, size_t size, unsigned hart, uint64_t pc, uint8_t fetch_key);
  // Names `code`'s `size` bytes "accel-vp routine <name>" once the map is
  // written (routines are made for the whole process, before or after it is).
  void add_routine(const void* code, size_t size, const char* name);
  static std::string path();  // /tmp/perf-<pid>.map
  ~PerfMap();

 private:
  struct Routine {
    const void* code;
    size_t size;
    const char* name;
  };
  PerfMap() = default;
  bool open();  // with lock_ held
  void write_routine(const Routine& r);
  std::mutex lock_;
  std::vector<Routine> routines_;
  std::FILE* file_ = nullptr;
  bool failed_ = false;
};

}  // namespace avp
