#include "output_paths.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "base/params.h"
#include "platform/session.h"

namespace avp {

namespace fs = std::filesystem;

std::string output_file_problem(const std::string& path) {
  if (path.empty()) return "an empty file name";
  std::error_code ec;
  if (fs::is_directory(path, ec)) return "a directory, not a file";
  const fs::path parent = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  if (!fs::is_directory(parent, ec)) return "in " + parent.string() + ", which is not an existing directory";
  if (access(parent.c_str(), W_OK | X_OK) != 0) return "in " + parent.string() + ", which is not writable";
  if (fs::exists(path, ec) && access(path.c_str(), W_OK) != 0) return "an existing file that is not writable";
  return "";
}

void check_output_paths(const SessionOptions& opt) {
  if (opt.out_dir.empty()) throw ParamError("-o/--out: empty output directory name");
  std::error_code ec;
  if (fs::exists(opt.out_dir, ec) && !fs::is_directory(opt.out_dir, ec))
    throw ParamError("-o/--out " + opt.out_dir + ": exists and is not a directory");
  fs::create_directories(opt.out_dir, ec);
  if (!fs::is_directory(opt.out_dir))
    throw ParamError("-o/--out " + opt.out_dir + ": cannot create the directory (" + ec.message() + ")");
  if (access(opt.out_dir.c_str(), W_OK | X_OK) != 0)
    throw ParamError("-o/--out " + opt.out_dir + ": the directory is not writable");
  const std::pair<const char*, const std::string*> files[] = {
      {"--timeline", &opt.timeline_file}, {"--trace-file", &opt.trace_file}, {"--vcd", &opt.vcd_file}};
  for (const auto& [flag, path] : files) {
    if (path->empty()) continue;  // not asked for (an explicitly empty name is refused by the command line)
    const std::string problem = output_file_problem(*path);
    if (!problem.empty()) throw ParamError(std::string(flag) + " " + *path + ": " + problem);
  }
}

bool write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace avp
