// Loads RISC-V ELF executables (EM_RISCV, ELFCLASS64) into device memory and
// reads their symbols. Malformed files give ElfError with a precise message.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/symbols.h"

namespace avp {

struct ElfError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ElfSegment {  // a PT_LOAD segment
  uint64_t addr = 0, memsz = 0;
  uint32_t flags = 0;  // PF_X, PF_W, PF_R
};
struct ElfNote {
  std::string name;  // without the terminating NUL
  uint32_t type = 0;
  std::string desc;
};

struct ElfImage {
  std::string path;  // the file it was read from
  uint64_t entry = 0;
  std::map<std::string, uint64_t> symbols;  // function and object symbols
  std::map<std::string, uint64_t> symbol_sizes;
  std::vector<Symbol> named_symbols;        // for symbolisation (no assembler-local labels)
  std::vector<ElfSegment> segments;
  std::vector<ElfNote> notes;  // of SHT_NOTE sections; a malformed note ends its section's list
  uint64_t lowest = ~0ull, highest = 0;     // loaded address range
};

// `write(addr, data, len)` places bytes in device memory and returns false if
// the range is not backed by memory.
using ElfWriter = std::function<bool(uint64_t addr, const void* data, uint64_t len)>;

ElfImage load_elf(const std::string& path, const ElfWriter& write);

// Makes the image's symbols known to trace lines and error reports
// (SymbolTable) at the addresses the harts see them: link address + bias
// (non-zero for an image placed away from where it was linked).
void register_symbols(const ElfImage& img, uint64_t bias = 0);

}  // namespace avp
