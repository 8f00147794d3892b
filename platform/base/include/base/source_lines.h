// Source file:line of device code addresses, from the DWARF line tables of
// the ELF images loaded on the device (read with elfutils' libdw), for error
// reports. Images are registered as they are loaded (register_symbols does
// it); their debug information is read at the first look-up only.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace avp {

class SourceLines {
 public:
  static SourceLines& instance();
  ~SourceLines();

  // The ELF file `path` was loaded at [lo, hi) with its link addresses moved by `bias`.
  void add_image(const std::string& path, uint64_t lo, uint64_t hi, uint64_t bias);
  // "file.c:42" (the file as the compiler named it), or "" when no image with
  // line information holds `addr`.
  std::string describe(uint64_t addr);

 private:
  struct Image;
  std::vector<std::unique_ptr<Image>> images_;
};

}  // namespace avp
