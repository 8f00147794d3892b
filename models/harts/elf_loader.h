// Loads RISC-V ELF executables (EM_RISCV, ELFCLASS64) into device memory and
// reads their symbols, which it also registers with the SymbolTable (trace
// lines and error reports name them). Malformed files give ElfError with a precise message.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

namespace avp {

struct ElfError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ElfImage {
  uint64_t entry = 0;
  std::map<std::string, uint64_t> symbols;  // function and object symbols
  uint64_t lowest = ~0ull, highest = 0;     // loaded address range
};

// `write(addr, data, len)` places bytes in device memory and returns false if
// the range is not backed by memory.
using ElfWriter = std::function<bool(uint64_t addr, const void* data, uint64_t len)>;

ElfImage load_elf(const std::string& path, const ElfWriter& write);

}  // namespace avp
