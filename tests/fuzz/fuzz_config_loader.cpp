// libFuzzer target: the configuration loader (platform/base/params) on
// arbitrary YAML text, with parameters of every type. Every text loads or
// gives ParamError (never a crash or another exception); a text that loads
// gives parameters whose values, written with write_yaml (--dump-config),
// load back to the same values.
#include <systemc>

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "base/params.h"

using namespace avp;

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// Parameters as the platform declares them (names from configs/, one of each type).
struct Params {
  Param<uint64_t> dram{"platform.dram_size", 256 << 20, "u64"};
  Param<uint32_t> cores{"platform.cores", 2, "u32"};
  Param<int64_t> offset{"platform.offset", -1, "i64"};
  Param<double> bandwidth{"pcie.bandwidth", 8e9, "double"};
  Param<bool> trace{"platform.trace", false, "bool"};
  Param<std::string> name{"platform.name", "accel", "string"};
  Param<sc_core::sc_time> quantum{"platform.quantum", sc_core::sc_time(1, sc_core::SC_US), "time"};

  std::string values() const {
    std::ostringstream os;
    for (const ParamBase* p : std::initializer_list<const ParamBase*>{&dram, &cores, &offset, &bandwidth, &trace, &name, &quantum})
      os << p->name() << "=" << p->value_string() << "\n";
    return os.str();
  }
};

// Loads `text` as --config does; false when it is rejected.
bool load(const std::string& text, std::unique_ptr<Params>& params) {
  ParamRegistry& reg = ParamRegistry::instance();
  params.reset();
  reg.clear_presets();
  reg.collect_errors();
  try {
    reg.load_yaml_text(text, "fuzz.yaml");
    params = std::make_unique<Params>();
    reg.check_unused_presets();
    return true;
  } catch (const ParamError& e) {
    check(e.what()[0] != 0);
    reg.clear_presets();
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::unique_ptr<Params> params;
  if (!load(text, params)) return 0;
  const std::string first = params->values();
  std::ostringstream dumped;
  ParamRegistry::instance().write_yaml(dumped);
  check(load(dumped.str(), params));  // --dump-config output is always a valid --config
  check(params->values() == first);
  params.reset();
  ParamRegistry::instance().clear_presets();
  return 0;
}

// libsystemc.so refers to sc_main; libFuzzer's main() runs instead.
int sc_main(int, char**) { return 0; }
