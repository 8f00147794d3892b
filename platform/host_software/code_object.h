// HSA code objects (docs/aql.md, "Code objects"): EM_RISCV ELF files with a
// 64-byte `<kernel>.kd` descriptor per kernel and a note (name "ACCELVP",
// type 10) holding YAML metadata. parse_code_object reads and checks one
// without touching the device; load_code_object places it in device DRAM.
// Every defect gives a CodeObjectLoadError with a code and a precise message.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/symbols.h"

namespace avp {

class AccelDevice;

enum class CodeObjectError {
  kNone = 0,
  kElf,                   // unreadable, truncated, not RV64 EM_RISCV ET_EXEC, no loadable segment
  kNoMetadata,            // no ACCELVP note of type 10
  kBadMetadata,           // not YAML, or not the schema (missing/mistyped key, wrong version, no kernels)
  kDuplicateKernel,       // two kernels with one name
  kMissingDescriptor,     // SymbolName not in the symbol table, not 64 bytes, or not in a loaded segment
  kMisalignedDescriptor,  // descriptor not 64-byte aligned
  kUnlistedDescriptor,    // a `.kd` symbol that the metadata does not list
  kDescriptorMismatch,    // descriptor segment/kernarg sizes differ from the metadata, unknown properties
  kBadEntry,              // entry not inside an executable segment or not 2-byte aligned
  kBadArguments,          // argument layout: alignment, overlap, outside the kernarg segment, unknown kind/type
  kOutOfMemory,           // no device DRAM for the image
  kDeviceWrite,           // writing the image through BAR2 failed
};
const char* to_string(CodeObjectError e);

struct CodeObjectLoadError : std::runtime_error {
  CodeObjectLoadError(CodeObjectError c, const std::string& msg) : std::runtime_error(msg), code(c) {}
  CodeObjectError code;
};

struct KernelArg {
  std::string name, value_kind, value_type;
  uint32_t size = 0, align = 0, offset = 0;
};

struct KernelInfo {
  std::string name, symbol;
  uint64_t kernel_object = 0;  // device address of the descriptor (image offset before loading)
  uint32_t kernarg_size = 0, kernarg_align = 0, group_segment_size = 0, private_segment_size = 0;
  uint32_t max_flat_workgroup_size = 0;  // metadata MaxFlatWorkgroupSize (0: not given)
  std::vector<KernelArg> args;
};

struct CodeObject {
  struct Segment {
    uint64_t offset;  // from the image base
    std::vector<uint8_t> bytes;  // memsz bytes (the bss part zero)
  };
  uint64_t base = 0;  // device address once loaded
  uint64_t size = 0, align = 64;
  std::vector<Segment> segments;
  std::vector<KernelInfo> kernels;
  std::vector<Symbol> symbols;  // image offsets; registered at base + offset once loaded (trace, error reports)
  const KernelInfo* find(const std::string& name) const;
};

CodeObject parse_code_object(const std::string& path);
// Parses, allocates DRAM with `dev.alloc`, writes the image and rebases the kernel objects.
CodeObject load_code_object(AccelDevice& dev, const std::string& path);

}  // namespace avp
