#include "base/raw_terminal.h"

#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>

namespace avp {
namespace {

termios g_saved{};
std::atomic<int> g_fd{-1};  // the terminal whose mode is saved, or -1

}  // namespace

bool enter_raw_terminal(int fd) {
  if (g_fd.load() >= 0) return true;
  if (!isatty(fd) || tcgetattr(fd, &g_saved) != 0) return false;
  termios raw = g_saved;
  cfmakeraw(&raw);
  raw.c_oflag |= OPOST;  // "\n" still starts a new line (ONLCR as saved)
  if (tcsetattr(fd, TCSANOW, &raw) != 0) return false;
  static const bool registered = std::atexit(restore_terminal) == 0;
  (void)registered;
  g_fd.store(fd);
  return true;
}

void restore_terminal() {
  const int fd = g_fd.exchange(-1);
  if (fd >= 0) tcsetattr(fd, TCSANOW, &g_saved);
}

bool in_foreground(int fd) {
  // A terminal that is not the controlling one (no foreground group to ask) cannot stop the process.
  const pid_t fg = tcgetpgrp(fd);
  return fg < 0 || fg == getpgrp();
}

bool same_terminal(int a, int b) {
  struct stat sa {}, sb {};
  return isatty(a) && isatty(b) && fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_rdev == sb.st_rdev;
}

}  // namespace avp
