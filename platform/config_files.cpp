#include "platform/config_files.h"

#include <climits>
#include <filesystem>
#include <unistd.h>
#include <vector>

namespace avp {

namespace {
std::filesystem::path executable_dir() {
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return {};
  exe[n] = 0;
  return std::filesystem::path(exe).parent_path();
}
}  // namespace

std::string find_config_file(const std::string& name, std::string& searched) {
  std::error_code ec;
  if (name.find('/') != std::string::npos || std::filesystem::exists(name, ec)) return name;
  std::vector<std::filesystem::path> dirs;
  const std::filesystem::path bin = executable_dir();
  if (!bin.empty()) dirs.push_back(bin.parent_path() / "share" / "accel-vp" / "configs");
  dirs.push_back(AVP_SOURCE_CONFIG_DIR);
  searched.clear();
  for (const auto& dir : dirs) {
    searched += (searched.empty() ? "" : ", ") + dir.string();
    for (const std::string& file : {name + ".yaml", name}) {
      const std::filesystem::path p = dir / file;
      if (std::filesystem::is_regular_file(p, ec)) return p.string();
    }
  }
  return {};
}

}  // namespace avp
