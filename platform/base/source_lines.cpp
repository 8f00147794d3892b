#include "base/source_lines.h"

#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

namespace avp {

struct SourceLines::Image {
  std::string path;
  uint64_t lo = 0, hi = 0, bias = 0;
  bool opened = false;
  int fd = -1;
  Dwarf* dwarf = nullptr;

  ~Image() {
    if (dwarf) dwarf_end(dwarf);
    if (fd >= 0) close(fd);
  }
  // Reads the file's DWARF at the first look-up; false without debug information.
  bool open() {
    if (opened) return dwarf != nullptr;
    opened = true;
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) dwarf = dwarf_begin(fd, DWARF_C_READ);
    return dwarf != nullptr;
  }
  // The line of `addr` (a link address) in the compile unit whose ranges hold it.
  Dwarf_Line* line_of(uint64_t addr) {
    Dwarf_Off off = 0, next = 0;
    size_t header = 0;
    while (dwarf_nextcu(dwarf, off, &next, &header, nullptr, nullptr, nullptr) == 0) {
      Dwarf_Die cu;
      if (dwarf_offdie(dwarf, off + header, &cu) && dwarf_haspc(&cu, addr) == 1)
        if (Dwarf_Line* line = dwarf_getsrc_die(&cu, addr)) return line;
      off = next;
    }
    return nullptr;
  }
};

SourceLines& SourceLines::instance() {
  static SourceLines s;
  return s;
}

SourceLines::~SourceLines() = default;

void SourceLines::add_image(const std::string& path, uint64_t lo, uint64_t hi, uint64_t bias) {
  // A new image replaces the ones whose range it overlaps (as the symbol table does).
  for (auto it = images_.begin(); it != images_.end();)
    it = (*it)->lo < hi && lo < (*it)->hi ? images_.erase(it) : it + 1;
  auto img = std::make_unique<Image>();
  img->path = path;
  img->lo = lo;
  img->hi = hi;
  img->bias = bias;
  images_.push_back(std::move(img));
}

std::string SourceLines::describe(uint64_t addr) {
  for (auto& img : images_) {
    if (addr < img->lo || addr >= img->hi || !img->open()) continue;
    Dwarf_Line* line = img->line_of(addr - img->bias);
    int lineno = 0;
    const char* file = line ? dwarf_linesrc(line, nullptr, nullptr) : nullptr;
    if (!file || dwarf_lineno(line, &lineno) != 0 || lineno <= 0) return {};
    return std::string(file) + ":" + std::to_string(lineno);
  }
  return {};
}

}  // namespace avp
