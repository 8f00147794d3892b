// libFuzzer target: the HSA code-object parser (platform/host_software/code_object*) on
// arbitrary files. Every file parses or gives CodeObjectLoadError with a
// code and a message; a parsed object's segments and kernel descriptors lie
// inside its image and its kernel arguments inside their kernarg segment.
#include <cstdint>

#include "code_object.h"
#include "fuzz_file.h"

namespace {
void check(bool ok) {
  if (!ok) __builtin_trap();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = avp::fuzz::input_as_file(data, size);
  try {
    const avp::CodeObject co = avp::parse_code_object(path);
    check(co.size > 0 && co.align > 0 && (co.align & (co.align - 1)) == 0);
    for (const auto& s : co.segments) check(s.offset <= co.size && s.bytes.size() <= co.size - s.offset);
    for (const avp::KernelInfo& k : co.kernels) {
      check(!k.name.empty() && k.kernel_object % 64 == 0 && k.kernel_object + 64 <= co.size);
      check(co.find(k.name) != nullptr);
      for (const avp::KernelArg& a : k.args) check(a.offset <= k.kernarg_size && a.size <= k.kernarg_size - a.offset);
    }
  } catch (const avp::CodeObjectLoadError& e) {
    check(e.code != avp::CodeObjectError::kNone && e.what()[0] != 0);
  }
  return 0;
}
