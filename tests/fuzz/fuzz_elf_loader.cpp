// libFuzzer target: the ELF loader (platform/base/elf_loader) on arbitrary
// files. Every file either loads or gives ElfError (never a crash, another
// exception or an allocation beyond the input's reach); a loaded image
// writes only inside its reported address range.
#include <cstdint>
#include <exception>
#include <vector>

#include "fuzz_file.h"
#include "base/elf_loader.h"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// Device memory as the loader sees it: 16 MiB at 0x40000000.
constexpr uint64_t kBase = 0x40000000, kSize = 16 << 20;

struct Write {
  uint64_t addr, len;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = avp::fuzz::input_as_file(data, size);
  std::vector<Write> writes;
  try {
    const avp::ElfImage img = avp::load_elf(path, [&](uint64_t addr, const void* bytes, uint64_t len) {
      if (addr < kBase || len > kSize || addr - kBase > kSize - len) return false;
      check(len == 0 || bytes != nullptr);
      writes.push_back({addr, len});
      return true;
    });
    for (const Write& w : writes) check(w.len == 0 || (w.addr >= img.lowest && w.addr + w.len <= img.highest));
    for (const avp::ElfSegment& s : img.segments) check(s.memsz == 0 || (s.addr >= img.lowest && s.addr + s.memsz <= img.highest));
  } catch (const avp::ElfError& e) {
    check(e.what()[0] != 0);
  }
  return 0;
}
