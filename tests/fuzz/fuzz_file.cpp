#include "fuzz_file.h"

#include <unistd.h>

#include <cstdlib>

namespace avp::fuzz {

namespace {
std::string path;
int fd = -1;
void remove_file() {
  if (!path.empty()) unlink(path.c_str());
}
}  // namespace

const std::string& input_as_file(const uint8_t* data, size_t size) {
  if (fd < 0) {
    char name[] = "/tmp/avp_fuzz_XXXXXX";
    fd = mkstemp(name);
    if (fd < 0) std::abort();
    path = name;
    std::atexit(remove_file);
  }
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) std::abort();
  return path;
}

}  // namespace avp::fuzz
