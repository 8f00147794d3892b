// Workload "memcheck": the host writes a pattern into each device memory
// through the interconnect, reads it back and checks it, and reports the
// simulated bandwidth. Exercises decode, latency, contention and the views.
#include <cstdio>
#include <vector>

#include "base/local_time.h"
#include "platform/platform.h"
#include "platform/workload.h"
#include "workloads.h"

namespace avp {

static int memcheck(Platform& p, const WorkloadArgs&) {
  struct Target {
    const char* name;
    uint64_t base;
    uint64_t size;
  };
  const Target targets[] = {{"tcim", p.base_of("tcim"), 16 * 1024}, {"tcdm", p.tcdm_global_base(), 64 * 1024},
                            {"dram", p.dram_base(), 256 * 1024}};
  int failures = 0;
  for (const Target& t : targets) {
    std::vector<uint64_t> chunk(8);
    LocalTime time;  // the host's, ahead of SystemC time until the check ends
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    for (uint64_t off = 0; off < t.size; off += sizeof(uint64_t) * chunk.size()) {
      for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = (t.base + off + i * 8) * 0x9E3779B97F4A7C15ull;
      if (time.annotate([&](sc_core::sc_time& d) { return p.device_port.write(t.base + off, chunk.data(), 64, d); }) !=
          tlm::TLM_OK_RESPONSE)
        ++failures;
    }
    for (uint64_t off = 0; off < t.size; off += sizeof(uint64_t) * chunk.size()) {
      if (time.annotate([&](sc_core::sc_time& d) { return p.device_port.read(t.base + off, chunk.data(), 64, d); }) !=
          tlm::TLM_OK_RESPONSE)
        ++failures;
      for (size_t i = 0; i < chunk.size(); ++i)
        if (chunk[i] != (t.base + off + i * 8) * 0x9E3779B97F4A7C15ull) ++failures;
    }
    time.sync();
    const double ns = (sc_core::sc_time_stamp() - start).to_seconds() * 1e9;
    std::printf("memcheck: %-5s %7llu bytes written and read back in %10.0f ns (%.2f GB/s)\n", t.name,
                static_cast<unsigned long long>(t.size), ns, 2.0 * t.size / ns);
  }
  std::printf("memcheck: %s\n", failures ? "FAILED" : "all memories OK");
  return failures ? 1 : 0;
}

void register_memcheck_workload() {
  register_workload({"memcheck", "host writes, reads back and checks every device memory through the interconnect", memcheck, {}});
}

}  // namespace avp
