// Placing a parsed code object in device DRAM (the parser itself,
// code_object.cpp, needs no device: it is fuzzed on its own).
#include <sstream>

#include "accel_device.h"
#include "code_object.h"

namespace avp {

namespace {
std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}
}  // namespace

CodeObject load_code_object(AccelDevice& dev, const std::string& path) {
  CodeObject co = parse_code_object(path);
  co.base = dev.alloc(co.size, co.align);
  if (!co.base) throw CodeObjectLoadError(CodeObjectError::kOutOfMemory, path + ": no " + std::to_string(co.size) + " bytes of device DRAM for the image");
  for (const auto& s : co.segments)
    if (!dev.write(co.base + s.offset, s.bytes.data(), s.bytes.size())) {
      dev.free(co.base);
      throw CodeObjectLoadError(CodeObjectError::kDeviceWrite, path + ": writing the image at " + hex(co.base + s.offset) + " failed");
    }
  for (KernelInfo& k : co.kernels) k.kernel_object += co.base;
  std::vector<Symbol> placed = co.symbols;
  for (Symbol& s : placed) s.addr += co.base;
  SymbolTable::instance().add_image(co.base, co.base + co.size, placed);
  return co;
}

}  // namespace avp
