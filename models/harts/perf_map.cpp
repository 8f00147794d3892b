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

bool PerfMap::open() {
  if (failed_) return false;
  if (file_) return true;
  file_ = std::fopen(path().c_str(), "w");
  if (!file_) {
    failed_ = true;
    std::cerr << "accel-vp: harts.perf_map: cannot write " << path() << ": " << std::strerror(errno) << "\n";
    return false;
  }
  for (const Routine& r : routines_) write_routine(r);
  return true;
}

void PerfMap::write_routine(const Routine& r) {
  std::fprintf(file_, "%llx %zx accel-vp routine %s\n",
               static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(r.code)), r.size, r.name);
  std::fflush(file_);
}

void PerfMap::add_routine(const void* code, size_t size, const char* name) {
  const std::lock_guard<std::mutex> lk(lock_);
  routines_.push_back({code, size, name});
  if (file_) write_routine(routines_.back());
}

bool PerfMap::add(const void* code, size_t size, unsigned hart, uint64_t pc, uint8_t fetch_key) {
  const std::lock_guard<std::mutex> lk(lock_);
  if (!open()) return false;
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
