#include "code_object_metadata.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

namespace avp {
namespace {

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw CodeObjectLoadError(CodeObjectError::kBadMetadata, "metadata: " + where + ": " + what);
}

const YAML::Node required(const YAML::Node& map, const char* key, const std::string& where) {
  const YAML::Node n = map[key];
  if (!n) bad(where, std::string("missing required key \"") + key + "\"");
  return n;
}

std::string text(const YAML::Node& map, const char* key, const std::string& where) {
  const YAML::Node n = required(map, key, where);
  if (!n.IsScalar() || n.Scalar().empty()) bad(where, std::string("\"") + key + "\" is not a string");
  return n.Scalar();
}

uint32_t integer(const YAML::Node& map, const char* key, const std::string& where) {
  const YAML::Node n = required(map, key, where);
  uint64_t v = 0;
  if (!n.IsScalar() || !YAML::convert<uint64_t>::decode(n, v) || v > UINT32_MAX)
    bad(where, std::string("\"") + key + "\" is not an integer in 0..2^32-1");
  return static_cast<uint32_t>(v);
}

bool power_of_two(uint32_t v) { return v && !(v & (v - 1)); }

[[noreturn]] void bad_arg(const std::string& where, const std::string& what) {
  throw CodeObjectLoadError(CodeObjectError::kBadArguments, "metadata: " + where + ": " + what);
}

KernelArg parse_arg(const YAML::Node& a, const std::string& where) {
  if (!a.IsMap()) bad(where, "not a mapping");
  KernelArg arg;
  arg.name = a["Name"] && a["Name"].IsScalar() ? a["Name"].Scalar() : "";
  arg.size = integer(a, "Size", where);
  arg.align = integer(a, "Align", where);
  arg.value_kind = text(a, "ValueKind", where);
  arg.value_type = text(a, "ValueType", where);
  arg.offset = integer(a, "accelvp.Offset", where);
  static const std::set<std::string> kinds{"ByValue", "GlobalBuffer"};
  static const std::set<std::string> types{"Struct", "I8", "U8", "I16", "U16", "F16", "I32", "U32", "F32", "I64", "U64", "F64"};
  if (!kinds.count(arg.value_kind)) bad_arg(where, "ValueKind " + arg.value_kind + " is not supported (ByValue, GlobalBuffer)");
  if (!types.count(arg.value_type)) bad_arg(where, "unknown ValueType " + arg.value_type);
  if (arg.size == 0) bad_arg(where, "Size is 0");
  if (!power_of_two(arg.align)) bad_arg(where, "Align " + std::to_string(arg.align) + " is not a power of two");
  if (arg.value_kind == "GlobalBuffer" && arg.size != 8) bad_arg(where, "a GlobalBuffer is an 8-byte pointer");
  return arg;
}

// The arguments are laid out in order, each at the next offset aligned to its
// Align (HSA kernarg layout); accelvp.Offset must agree and everything must fit.
void check_layout(const KernelInfo& k, const std::string& where) {
  if (!power_of_two(k.kernarg_align)) bad_arg(where, "KernargSegmentAlign " + std::to_string(k.kernarg_align) + " is not a power of two");
  uint64_t next = 0;
  for (size_t i = 0; i < k.args.size(); ++i) {
    const KernelArg& a = k.args[i];
    const std::string at = where + ".Arguments[" + std::to_string(i) + "]";
    const uint64_t expected = (next + a.align - 1) / a.align * a.align;
    if (a.offset != expected)
      bad_arg(at, "accelvp.Offset " + std::to_string(a.offset) + " is not the laid-out offset " + std::to_string(expected));
    if (a.align > k.kernarg_align)
      bad_arg(at, "Align " + std::to_string(a.align) + " exceeds KernargSegmentAlign " + std::to_string(k.kernarg_align));
    next = uint64_t{a.offset} + a.size;
    if (next > k.kernarg_size)
      bad_arg(at, "ends at byte " + std::to_string(next) + ", beyond KernargSegmentSize " + std::to_string(k.kernarg_size));
  }
}

}  // namespace

std::vector<KernelInfo> parse_code_object_metadata(const std::string& yaml) {
  YAML::Node doc;
  try {
    doc = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    throw CodeObjectLoadError(CodeObjectError::kBadMetadata, std::string("metadata: not YAML: ") + e.what());
  }
  if (!doc.IsMap()) bad("document", "not a mapping");
  const YAML::Node version = required(doc, "Version", "document");
  if (!version.IsSequence() || version.size() != 2 || version[0].as<std::string>("") != "1")
    bad("Version", "expected [ 1, minor ] (this loader reads version 1)");
  const YAML::Node kernels = required(doc, "Kernels", "document");
  if (!kernels.IsSequence() || kernels.size() == 0) bad("Kernels", "not a non-empty sequence");
  std::vector<KernelInfo> out;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const YAML::Node k = kernels[i];
    std::string where = "Kernels[" + std::to_string(i) + "]";
    if (!k.IsMap()) bad(where, "not a mapping");
    KernelInfo info;
    info.name = text(k, "Name", where);
    where += " (" + info.name + ")";
    info.symbol = text(k, "SymbolName", where);
    const YAML::Node props = required(k, "CodeProps", where);
    if (!props.IsMap()) bad(where, "CodeProps is not a mapping");
    const std::string pw = where + ".CodeProps";
    info.kernarg_size = integer(props, "KernargSegmentSize", pw);
    info.group_segment_size = integer(props, "GroupSegmentFixedSize", pw);
    info.private_segment_size = integer(props, "PrivateSegmentFixedSize", pw);
    info.kernarg_align = integer(props, "KernargSegmentAlign", pw);
    if (props["MaxFlatWorkgroupSize"]) info.max_flat_workgroup_size = integer(props, "MaxFlatWorkgroupSize", pw);
    if (!power_of_two(integer(props, "WavefrontSize", pw))) bad(pw, "WavefrontSize is not a power of two");
    if (const YAML::Node args = k["Arguments"]) {
      if (!args.IsSequence()) bad(where, "Arguments is not a sequence");
      for (size_t j = 0; j < args.size(); ++j)
        info.args.push_back(parse_arg(args[j], where + ".Arguments[" + std::to_string(j) + "]"));
    }
    check_layout(info, where);
    if (std::any_of(out.begin(), out.end(), [&](const KernelInfo& o) { return o.name == info.name; }))
      throw CodeObjectLoadError(CodeObjectError::kDuplicateKernel, "metadata: kernel " + info.name + " is listed twice");
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace avp
