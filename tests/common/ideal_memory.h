// For tests whose expectations are a closed form of a fixed DRAM latency: the
// ideal memory preset (configs/ideal-memory.yaml: 50 ns, no banks, an
// unlimited DRAM port) instead of the default DDR4-3200. Call it before the
// platform is made; the target defines AVP_IDEAL_MEMORY_CONFIG.
#pragma once
#include "base/params.h"

namespace avp::test {

inline void use_ideal_memory() { ParamRegistry::instance().load_yaml_file(AVP_IDEAL_MEMORY_CONFIG); }

}  // namespace avp::test
