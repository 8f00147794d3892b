#include "base/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

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

uint64_t input_file_size(const std::string& path) {
  const std::string problem = input_file_problem(path);
  if (!problem.empty()) throw std::runtime_error(problem);
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) throw std::runtime_error(std::string("cannot open (") + std::strerror(errno) + ")");
  return static_cast<uint64_t>(st.st_size);
}

namespace {

// Up to `max_bytes`, and one byte more when there is one (to tell a file that grew).
std::vector<uint8_t> read_checked(const std::string& path, uint64_t max_bytes, bool one_more) {
  const uint64_t size = input_file_size(path);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw std::runtime_error(std::string("cannot open (") + std::strerror(errno) + ")");
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {  // replaced since it was looked at
    close(fd);
    throw std::runtime_error("is not a regular file (a FIFO, device or socket)");
  }
  const uint64_t want = std::min(size, max_bytes) + (one_more ? 1 : 0);
  std::vector<uint8_t> data(want);
  uint64_t got = 0;
  while (got < want) {
    const ssize_t n = read(fd, data.data() + got, want - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      close(fd);
      throw std::runtime_error(std::string("cannot read (") + std::strerror(e) + ")");
    }
    if (n == 0) break;
    got += static_cast<uint64_t>(n);
  }
  close(fd);
  data.resize(got);
  return data;
}

}  // namespace

std::vector<uint8_t> read_input_prefix(const std::string& path, uint64_t max_bytes) {
  return read_checked(path, max_bytes, false);
}

std::vector<uint8_t> read_input_file(const std::string& path, uint64_t max_bytes) {
  const uint64_t size = input_file_size(path);
  const std::string limit = " bytes, more than the " + std::to_string(max_bytes) + " bytes of memory it goes to";
  if (size > max_bytes) throw std::runtime_error("is " + std::to_string(size) + limit);
  std::vector<uint8_t> data = read_checked(path, max_bytes, true);
  if (data.size() > max_bytes) throw std::runtime_error("grew past " + std::to_string(max_bytes) + " bytes while it was read");
  return data;
}

}  // namespace avp
