// Runs the accel-vp executable (ACCEL_VP) from tests: exit status and output.
#pragma once
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace avp_test {

struct CliResult {
  int code;
  std::string out;  // stdout and stderr
};

inline CliResult run_accel_vp(const std::string& args) {
  const std::string cmd = std::string(ACCEL_VP) + " --no-progress " + args + " 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), f)) out.append(buf.data(), n);
  const int st = pclose(f);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), out};
}

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream f(path);
  return nlohmann::json::parse(f);
}

inline void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

}  // namespace avp_test
