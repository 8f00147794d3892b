// Symbol table of the code and data loaded on the device, for trace lines and
// error reports ("0x40010018 <kernel_main+0x8>"). Every ELF image the platform
// or host software loads registers its symbols here (load_elf does it); other
// loaders (AQL code objects) call add_image themselves.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace avp {

struct Symbol {
  std::string name;
  uint64_t addr = 0;
  uint64_t size = 0;  // 0: extends to the next symbol or the end of its image
};

class SymbolTable {
 public:
  static SymbolTable& instance();

  // Registers the symbols of an image loaded at [lo, hi): symbols of earlier
  // images inside that range are dropped (the new image replaced their bytes).
  void add_image(uint64_t lo, uint64_t hi, const std::vector<Symbol>& symbols);
  void clear();

  // The symbol holding `addr`, or nullptr. Sized symbols hold [addr, addr+size);
  // unsized ones reach to the next symbol within their image.
  const Symbol* find(uint64_t addr) const;
  // "<name>" or "<name+0x1c>"; empty when no symbol holds `addr`.
  std::string describe(uint64_t addr) const;

 private:
  struct Entry {
    Symbol sym;
    uint64_t image_hi;  // end of the image the symbol came from
  };
  std::multimap<uint64_t, Entry> by_addr_;
};

}  // namespace avp
