// Runs the accel-vp executable (ACCEL_VP, set by CMake) from a test and reads
// what it wrote.
#pragma once
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace avp::test {

struct CliResult {
  int code;
  std::string out;  // stdout and stderr
};

// `prefix` goes before the program (e.g. "env PATH=/nonexistent").
inline CliResult run_accel_vp(const std::string& args, const std::string& prefix = "") {
  const std::string cmd = prefix + " " + ACCEL_VP + " --no-progress " + args + " 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), f)) out.append(buf.data(), n);
  const int st = pclose(f);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

inline std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

inline nlohmann::json read_json(const std::string& path) { return nlohmann::json::parse(read_text(path)); }

}  // namespace avp::test
