#include "base/input_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace avp {

std::string input_file_problem(const std::string& path) {
  if (path.empty()) return "an empty file name";
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return std::string("cannot open (") + std::strerror(errno) + ")";
  if (S_ISDIR(st.st_mode)) return "is a directory, not a file";
  if (!S_ISREG(st.st_mode)) return "is not a regular file (a FIFO, device or socket)";
  if (access(path.c_str(), R_OK) != 0) return "is not readable";
  return "";
}

}  // namespace avp
