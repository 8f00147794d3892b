// The code-object parser on aql_kernels.co and on corrupted variants of it:
// each defect gives its documented CodeObjectError, never a crash.
#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>

#include "aql/aql_packets.h"
#include "code_object.h"

using namespace avp;

namespace {

using Bytes = std::string;

Bytes original() {
  std::ifstream f(AVP_AQL_KERNELS_CO, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(f), {});
}

// Writes the bytes to a file and parses it; kNone when it parses.
CodeObjectError parse(const Bytes& bytes, std::string* message = nullptr) {
  const std::string path = ::testing::TempDir() + "corrupt_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".co";
  std::ofstream(path, std::ios::binary) << bytes;
  try {
    parse_code_object(path);
  } catch (const CodeObjectLoadError& e) {
    if (message) *message = e.what();
    return e.code;
  }
  return CodeObjectError::kNone;
}

// The note's YAML: its descriptor follows the name "ACCELVP\0"; descsz is 8 bytes before the name.
size_t yaml_offset(const Bytes& b) { return b.find(std::string("ACCELVP\0", 8)) + 8; }
uint32_t yaml_capacity(const Bytes& b) {
  uint32_t descsz;
  std::memcpy(&descsz, b.data() + yaml_offset(b) - 16, 4);
  return descsz;
}
std::string yaml(const Bytes& b) { return std::string(b.c_str() + yaml_offset(b)); }
// Replaces the YAML (NUL padded, descsz unchanged).
Bytes with_yaml(Bytes b, const std::string& y) {
  EXPECT_LT(y.size(), yaml_capacity(b));
  b.replace(yaml_offset(b), yaml_capacity(b), y + std::string(yaml_capacity(b) - y.size(), '\0'));
  return b;
}
Bytes edit_yaml(const Bytes& b, const std::string& from, const std::string& to) {
  std::string y = yaml(b);
  const size_t at = y.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return with_yaml(b, y.replace(at, from.size(), to));
}

// The symbol table entry of `name` (file offset of its Elf64_Sym).
size_t symbol_entry(const Bytes& b, const std::string& name) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, b.data(), sizeof eh);
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh, str;
    std::memcpy(&sh, b.data() + eh.e_shoff + i * sizeof sh, sizeof sh);
    if (sh.sh_type != SHT_SYMTAB) continue;
    std::memcpy(&str, b.data() + eh.e_shoff + sh.sh_link * sizeof str, sizeof str);
    for (size_t off = sh.sh_offset; off < sh.sh_offset + sh.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, b.data() + off, sizeof sym);
      if (name == b.c_str() + str.sh_offset + sym.st_name) return off;
    }
  }
  ADD_FAILURE() << name << " not found";
  return 0;
}
Bytes move_symbol(Bytes b, const std::string& name, int64_t delta) {
  Elf64_Sym sym;
  const size_t at = symbol_entry(b, name);
  std::memcpy(&sym, b.data() + at, sizeof sym);
  sym.st_value += delta;
  std::memcpy(&b[at], &sym, sizeof sym);
  return b;
}
// Edits the kernel descriptor of `kernel` in the file (the image is linked at 0 in one segment).
Bytes edit_descriptor(Bytes b, const std::string& kernel, const std::function<void(aql::kernel_descriptor_t&)>& edit) {
  Elf64_Ehdr eh;
  Elf64_Phdr ph;
  Elf64_Sym sym;
  std::memcpy(&eh, b.data(), sizeof eh);
  std::memcpy(&sym, b.data() + symbol_entry(b, kernel + ".kd"), sizeof sym);
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    std::memcpy(&ph, b.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
    if (ph.p_type != PT_LOAD || sym.st_value < ph.p_vaddr || sym.st_value + 64 > ph.p_vaddr + ph.p_filesz) continue;
    aql::kernel_descriptor_t kd;
    char* at = &b[ph.p_offset + (sym.st_value - ph.p_vaddr)];
    std::memcpy(&kd, at, sizeof kd);
    edit(kd);
    std::memcpy(at, &kd, sizeof kd);
    return b;
  }
  ADD_FAILURE() << "descriptor of " << kernel << " not in a segment";
  return b;
}

}  // namespace

TEST(CodeObject, ParsesKernelsArgumentsAndDescriptors) {
  const CodeObject co = parse_code_object(AVP_AQL_KERNELS_CO);
  ASSERT_EQ(co.kernels.size(), 2u);
  const KernelInfo* k = co.find("vecadd");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->symbol, "vecadd.kd");
  EXPECT_EQ(k->kernel_object % 64, 0u);
  EXPECT_EQ(k->kernarg_size, 32u);
  EXPECT_EQ(k->kernarg_align, 8u);
  EXPECT_EQ(k->group_segment_size, 0u);
  ASSERT_EQ(k->args.size(), 5u);
  const uint32_t offsets[5] = {0, 8, 16, 24, 28};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(k->args[i].offset, offsets[i]) << i;
  EXPECT_EQ(k->args[2].name, "out");
  EXPECT_EQ(k->args[2].value_kind, "GlobalBuffer");
  EXPECT_EQ(k->args[3].value_type, "U32");
  EXPECT_EQ(co.find("affine")->kernarg_size, 32u);
  EXPECT_EQ(co.find("affine")->args[2].value_type, "I32");
  EXPECT_EQ(parse(original()), CodeObjectError::kNone);
}

TEST(CodeObject, ElfDefects) {
  const Bytes b = original();
  std::string msg;
  EXPECT_EQ(parse(b.substr(0, 200)), CodeObjectError::kElf);
  EXPECT_EQ(parse(b.substr(0, b.size() / 2)), CodeObjectError::kElf);
  EXPECT_EQ(parse(b.substr(0, 10)), CodeObjectError::kElf);
  EXPECT_EQ(parse(""), CodeObjectError::kElf);
  Bytes machine = b;
  machine[18] = 62;  // EM_X86_64
  EXPECT_EQ(parse(machine, &msg), CodeObjectError::kElf);
  EXPECT_NE(msg.find("is not RISC-V"), std::string::npos) << msg;
  Bytes cls = b;
  cls[EI_CLASS] = ELFCLASS32;
  EXPECT_EQ(parse(cls), CodeObjectError::kElf);
}

TEST(CodeObject, MissingOrForeignNote) {
  const Bytes b = original();
  Bytes renamed = b;
  renamed[b.find("ACCELVP")] = 'X';
  EXPECT_EQ(parse(renamed), CodeObjectError::kNoMetadata);
  Bytes type = b;
  type[yaml_offset(b) - 12] = 11;  // n_type
  EXPECT_EQ(parse(type), CodeObjectError::kNoMetadata);
}

TEST(CodeObject, MetadataDefects) {
  const Bytes b = original();
  std::string msg;
  EXPECT_EQ(parse(edit_yaml(b, "Version: [ 1, 0 ]", "Version: [ 1, 0 }"), &msg), CodeObjectError::kBadMetadata);
  EXPECT_NE(msg.find("not YAML"), std::string::npos) << msg;
  EXPECT_EQ(parse(edit_yaml(b, "Version: [ 1, 0 ]", "Version: [ 2, 0 ]")), CodeObjectError::kBadMetadata);
  EXPECT_EQ(parse(with_yaml(b, "just a string")), CodeObjectError::kBadMetadata);
  EXPECT_EQ(parse(with_yaml(b, "Version: [ 1, 0 ]\nKernels: []\n")), CodeObjectError::kBadMetadata);
  EXPECT_EQ(parse(edit_yaml(b, "KernargSegmentSize", "KernargSegmentSizX"), &msg), CodeObjectError::kBadMetadata);
  EXPECT_NE(msg.find("missing required key \"KernargSegmentSize\""), std::string::npos) << msg;
  EXPECT_EQ(parse(edit_yaml(b, "GroupSegmentFixedSize: 0", "GroupSegmentFixedSize: x")), CodeObjectError::kBadMetadata);
  EXPECT_EQ(parse(edit_yaml(b, "Name: affine", "Name: vecadd")), CodeObjectError::kDuplicateKernel);
}

TEST(CodeObject, ArgumentDefects) {
  const Bytes b = original();
  std::string msg;
  EXPECT_EQ(parse(edit_yaml(b, "accelvp.Offset: 8", "accelvp.Offset: 9"), &msg), CodeObjectError::kBadArguments);
  EXPECT_NE(msg.find("not the laid-out offset 8"), std::string::npos) << msg;
  EXPECT_EQ(parse(edit_yaml(b, "ValueKind: ByValue", "ValueKind: Pipe")), CodeObjectError::kBadArguments);
  EXPECT_EQ(parse(edit_yaml(b, "ValueType: U32", "ValueType: Q32")), CodeObjectError::kBadArguments);
  EXPECT_EQ(parse(edit_yaml(b, "Align: 4", "Align: 3")), CodeObjectError::kBadArguments);
  EXPECT_EQ(parse(edit_yaml(b, "KernargSegmentAlign: 8", "KernargSegmentAlign: 4")), CodeObjectError::kBadArguments);
}

TEST(CodeObject, DescriptorDefects) {
  const Bytes b = original();
  std::string msg;
  EXPECT_EQ(parse(edit_yaml(b, "SymbolName: vecadd.kd", "SymbolName: vecadd.kx"), &msg), CodeObjectError::kMissingDescriptor);
  EXPECT_NE(msg.find("vecadd.kx is not in the symbol table"), std::string::npos) << msg;
  EXPECT_EQ(parse(move_symbol(b, "vecadd.kd", 8), &msg), CodeObjectError::kMisalignedDescriptor);
  EXPECT_NE(msg.find("is not 64-byte aligned"), std::string::npos) << msg;
  EXPECT_EQ(parse(move_symbol(b, "vecadd.kd", 0x100000)), CodeObjectError::kMissingDescriptor);
  EXPECT_EQ(parse(edit_yaml(b, "MaxFlatWorkgroupSize: 1024", "MaxFlatWorkgroupSize: 256"), &msg),
            CodeObjectError::kDescriptorMismatch);
  EXPECT_NE(msg.find("max_flat_workgroup_size is 1024 in the descriptor but 256 in the metadata"), std::string::npos) << msg;
  EXPECT_EQ(parse(edit_descriptor(b, "vecadd", [](auto& kd) { kd.code_flags = 1u << 2; }), &msg),
            CodeObjectError::kDescriptorMismatch);  // bit 98: reserved
  EXPECT_NE(msg.find("reserved bits of the descriptor are set"), std::string::npos) << msg;
  EXPECT_EQ(parse(edit_descriptor(b, "vecadd", [](auto& kd) { kd.reserved1[20] = 1; })), CodeObjectError::kDescriptorMismatch);
  EXPECT_EQ(parse(edit_descriptor(b, "vecadd", [](auto& kd) { kd.code_flags = aql::kKdIsXnackEnabled; })), CodeObjectError::kNone);
  EXPECT_EQ(parse(edit_descriptor(b, "vecadd", [](auto& kd) { kd.group_segment_fixed_size = 256; })), CodeObjectError::kDescriptorMismatch);
  EXPECT_EQ(parse(edit_descriptor(b, "vecadd", [](auto& kd) { kd.kernel_code_properties = 0; })), CodeObjectError::kDescriptorMismatch);
  EXPECT_EQ(parse(edit_descriptor(b, "vecadd", [](auto& kd) { kd.kernel_code_properties |= 0x100; })), CodeObjectError::kDescriptorMismatch);
  EXPECT_EQ(parse(edit_descriptor(b, "vecadd", [](auto& kd) { kd.kernel_code_entry_byte_offset = 0x10000; })), CodeObjectError::kBadEntry);
  EXPECT_EQ(parse(edit_descriptor(b, "vecadd", [](auto& kd) { kd.kernel_code_entry_byte_offset += 1; })), CodeObjectError::kBadEntry);
  // A descriptor the metadata does not list: drop the second kernel (sorted by name) from the YAML.
  const std::string y = yaml(b);
  EXPECT_EQ(parse(with_yaml(b, y.substr(0, y.find("  - Name: vecadd"))), &msg), CodeObjectError::kUnlistedDescriptor);
  EXPECT_NE(msg.find("descriptor vecadd.kd is not listed"), std::string::npos) << msg;
}

// Single-byte corruptions (every byte of the ELF and program headers, then a
// stride through the file) parse or give an error, never a crash.
TEST(CodeObject, ByteCorruptionsNeverCrash) {
  const Bytes b = original();
  unsigned rejected = 0, variants = 0;
  for (size_t at = 0; at < b.size(); at += at < 256 ? 1 : 61)
    for (unsigned char flip : {0xffu, 0x80u}) {
      if (at < 256 && flip == 0x80u) continue;
      Bytes v = b;
      v[at] = static_cast<char>(v[at] ^ flip);
      rejected += parse(v) != CodeObjectError::kNone;
      ++variants;
    }
  EXPECT_GT(rejected, 0u);
  RecordProperty("variants", variants);
}
