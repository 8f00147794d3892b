#include "code_object.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <sstream>

#include "aql/aql_packets.h"
#include "code_object_metadata.h"
#include "base/elf_loader.h"

namespace avp {
namespace {

// Code objects are linked at 0 (ld/code_object.ld) and span at most 16 MiB.
constexpr uint64_t kMaxImage = 0x100'0000;
constexpr uint64_t kLoadAlign = 4096;
constexpr uint32_t kNoteType = 10;
constexpr uint16_t kKnownProperties = 0x7f;  // kernel_code_properties bits 0..6

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

[[noreturn]] void fail(CodeObjectError code, const std::string& path, const std::string& what) {
  throw CodeObjectLoadError(code, path + ": " + what);
}

// The bytes of [addr, addr + len) if one segment holds them all.
const uint8_t* image_bytes(const CodeObject& co, uint64_t addr, uint64_t len) {
  for (const auto& s : co.segments)
    if (addr >= s.offset && addr - s.offset <= s.bytes.size() && len <= s.bytes.size() - (addr - s.offset))
      return s.bytes.data() + (addr - s.offset);
  return nullptr;
}

void check_kernel(const std::string& path, const ElfImage& img, const CodeObject& co, KernelInfo& k) {
  const auto sym = img.symbols.find(k.symbol);
  const std::string who = "kernel " + k.name + ": descriptor " + k.symbol;
  if (sym == img.symbols.end()) fail(CodeObjectError::kMissingDescriptor, path, who + " is not in the symbol table");
  if (img.symbol_sizes.at(k.symbol) != sizeof(aql::kernel_descriptor_t))
    fail(CodeObjectError::kMissingDescriptor, path, who + " is " + std::to_string(img.symbol_sizes.at(k.symbol)) + " bytes, not 64");
  if (sym->second % 64)
    fail(CodeObjectError::kMisalignedDescriptor, path, who + " at " + hex(sym->second) + " is not 64-byte aligned");
  const uint8_t* raw = image_bytes(co, sym->second, sizeof(aql::kernel_descriptor_t));
  if (!raw) fail(CodeObjectError::kMissingDescriptor, path, who + " at " + hex(sym->second) + " is not in a loaded segment");
  aql::kernel_descriptor_t kd;
  std::memcpy(&kd, raw, sizeof kd);
  auto mismatch = [&](const char* field, uint64_t desc, uint64_t meta) {
    if (desc != meta)
      fail(CodeObjectError::kDescriptorMismatch, path,
           who + ": " + field + " is " + std::to_string(desc) + " in the descriptor but " + std::to_string(meta) + " in the metadata");
  };
  if (k.max_flat_workgroup_size) mismatch("max_flat_workgroup_size", kd.max_flat_workgroup_size, k.max_flat_workgroup_size);
  static const uint8_t zeros[24] = {};
  if ((kd.code_flags & aql::kKdCodeFlagsReserved) || std::memcmp(kd.reserved1, zeros, sizeof kd.reserved1) ||
      std::memcmp(kd.reserved2, zeros, sizeof kd.reserved2))
    fail(CodeObjectError::kDescriptorMismatch, path, who + ": reserved bits of the descriptor are set");
  mismatch("group_segment_fixed_size", kd.group_segment_fixed_size, k.group_segment_size);
  mismatch("private_segment_fixed_size", kd.private_segment_fixed_size, k.private_segment_size);
  if (kd.kernel_code_properties & ~kKnownProperties)
    fail(CodeObjectError::kDescriptorMismatch, path, who + ": unknown kernel_code_properties bits " + hex(kd.kernel_code_properties));
  if (k.kernarg_size && !(kd.kernel_code_properties & aql::kEnableKernargSegmentPtr))
    fail(CodeObjectError::kDescriptorMismatch, path, who + ": the kernel has arguments but does not enable the kernarg segment pointer");
  const uint64_t entry = sym->second + static_cast<uint64_t>(kd.kernel_code_entry_byte_offset);
  const bool in_text = std::any_of(img.segments.begin(), img.segments.end(), [&](const ElfSegment& s) {
    return (s.flags & PF_X) && entry >= s.addr && entry - s.addr + 4 <= s.memsz;
  });
  if (!in_text || entry % 2)
    fail(CodeObjectError::kBadEntry, path,
         who + ": entry " + hex(entry) + " (offset " + std::to_string(kd.kernel_code_entry_byte_offset) +
             ") is not an aligned address inside an executable segment");
  k.kernel_object = sym->second;
}

}  // namespace

const char* to_string(CodeObjectError e) {
  switch (e) {
    case CodeObjectError::kNone: return "none";
    case CodeObjectError::kElf: return "bad ELF file";
    case CodeObjectError::kNoMetadata: return "no ACCELVP metadata note";
    case CodeObjectError::kBadMetadata: return "bad metadata";
    case CodeObjectError::kDuplicateKernel: return "duplicate kernel";
    case CodeObjectError::kMissingDescriptor: return "missing kernel descriptor";
    case CodeObjectError::kMisalignedDescriptor: return "misaligned kernel descriptor";
    case CodeObjectError::kUnlistedDescriptor: return "kernel descriptor without metadata";
    case CodeObjectError::kDescriptorMismatch: return "descriptor does not match the metadata";
    case CodeObjectError::kBadEntry: return "bad kernel entry";
    case CodeObjectError::kBadArguments: return "bad kernel arguments";
    case CodeObjectError::kOutOfMemory: return "out of device memory";
    case CodeObjectError::kDeviceWrite: return "device write failed";
  }
  return "unknown";
}

const KernelInfo* CodeObject::find(const std::string& name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

CodeObject parse_code_object(const std::string& path) {
  CodeObject co;
  uint64_t outside = ~0ull;
  ElfImage img;
  try {
    img = load_elf(path, [&](uint64_t addr, const void* data, uint64_t len) {
      if (addr >= kMaxImage || len > kMaxImage - addr) {
        outside = addr;
        return false;
      }
      const auto* b = static_cast<const uint8_t*>(data);
      if (co.segments.empty() || co.segments.back().offset + co.segments.back().bytes.size() != addr)
        co.segments.push_back({addr, {}});
      co.segments.back().bytes.insert(co.segments.back().bytes.end(), b, b + len);
      return true;
    });
  } catch (const ElfError& e) {
    if (outside != ~0ull)
      fail(CodeObjectError::kElf, path, "segment at " + hex(outside) + " is outside the code object range [0, " + hex(kMaxImage) + ")");
    throw CodeObjectLoadError(CodeObjectError::kElf, e.what());
  }
  const auto note = std::find_if(img.notes.begin(), img.notes.end(),
                                 [](const ElfNote& n) { return n.name == "ACCELVP" && n.type == kNoteType; });
  if (note == img.notes.end()) fail(CodeObjectError::kNoMetadata, path, "no note \"ACCELVP\" of type 10 (the kernel metadata)");
  std::vector<KernelInfo> kernels;
  try {
    kernels = parse_code_object_metadata(note->desc.substr(0, note->desc.find('\0')));
  } catch (const CodeObjectLoadError& e) {
    fail(e.code, path, e.what());
  }
  for (KernelInfo& k : kernels) check_kernel(path, img, co, k);
  for (const auto& symbol : img.symbols) {
    const std::string& name = symbol.first;  // not a structured binding: clang's C++17 cannot capture one
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".kd") == 0 &&
        std::none_of(kernels.begin(), kernels.end(), [&](const KernelInfo& k) { return k.symbol == name; }))
      fail(CodeObjectError::kUnlistedDescriptor, path, "descriptor " + name + " is not listed in the metadata");
  }
  co.kernels = std::move(kernels);
  co.symbols = img.named_symbols;
  co.size = img.highest;
  co.align = kLoadAlign;
  return co;
}

}  // namespace avp
