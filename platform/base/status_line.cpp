#include "base/status_line.h"

#include <cstdio>

namespace avp {
namespace {
bool g_shown = false;
}

void status_line_show(const std::string& text) {
  std::fprintf(stderr, "\r%s\033[K", text.c_str());
  std::fflush(stderr);
  g_shown = true;
}

void status_line_end() {
  if (!g_shown) return;
  std::fputc('\n', stderr);
  std::fflush(stderr);
  g_shown = false;
}

}  // namespace avp
