#include "base/source_lines.h"

#include <elfutils/libdwfl.h>

#include <cstdio>

namespace avp {

struct SourceLines::Image {
  std::string path;
  uint64_t lo = 0, hi = 0, bias = 0;
  bool opened = false;
  Dwfl* dwfl = nullptr;
  Dwfl_Module* module = nullptr;

  ~Image() {
    if (dwfl) dwfl_end(dwfl);
  }
  // Reads the file's DWARF at the first look-up; false without line information.
  bool open() {
    if (opened) return module != nullptr;
    opened = true;
    static const Dwfl_Callbacks callbacks = {nullptr, dwfl_standard_find_debuginfo, dwfl_offline_section_address, nullptr};
    dwfl = dwfl_begin(&callbacks);
    if (!dwfl) return false;
    module = dwfl_report_offline(dwfl, path.c_str(), path.c_str(), -1);
    dwfl_report_end(dwfl, nullptr, nullptr);
    return module != nullptr;
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
    Dwfl_Line* line = dwfl_module_getsrc(img->module, addr - img->bias);  // executables are reported at their link addresses
    if (!line) return {};
    int lineno = 0;
    const char* file = dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr);
    if (!file || lineno <= 0) return {};
    return std::string(file) + ":" + std::to_string(lineno);
  }
  return {};
}

}  // namespace avp
