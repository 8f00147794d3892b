#include "perf_map.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

namespace avp {

PerfMap& PerfMap::instance() {
  static PerfMap map;
  return map;
}

std::string PerfMap::path() { return "/tmp/perf-" + std::to_string(getpid()) + ".map"; }

bool PerfMap::add(const void* code, size_t size, unsigned hart, uint64_t pc, uint8_t fetch_key) {
  const std::lock_guard<std::mutex> lk(lock_);
  if (failed_) return false;
  if (!file_) {
    file_ = std::fopen(path().c_str(), "w");
    if (!file_) {
      failed_ = true;
      std::cerr << "accel-vp: harts.perf_map: cannot write " << path() << ": " << std::strerror(errno) << "\n";
      return false;
    }
  }
  // Blocks of translated or PMP-checked fetches (fetch regime 1 + privilege) name their privilege.
  static constexpr char kPriv[] = "USHM";
  const std::string regime = fetch_key > 0 && fetch_key <= 4 ? std::string(1, kPriv[fetch_key - 1]) + " " : "";
  std::fprintf(file_, "%llx %zx accel-vp hart%u %s0x%llx\n",
               static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(code)), size, hart, regime.c_str(),
               static_cast<unsigned long long>(pc));
  std::fflush(file_);  // a run that ends in a crash keeps what it translated
  return true;
}

PerfMap::~PerfMap() {
  if (file_) std::fclose(file_);
}

}  // namespace avp
