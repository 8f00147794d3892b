// Svpbmt's NC and IO pages bypass the caches (pbmt_timing.c): the
// statistics dumps of the program, 512 reads of 8 lines each through a
// cacheable, an NC and an IO mapping of the same DRAM page, then a loop run
// through a cacheable and an NC mapping of its code.
#include <gtest/gtest.h>

#include <string>

#include "accel_vp_cli.h"

namespace {

using avp::test::read_json;
using avp::test::run_accel_vp;

double counter(const nlohmann::json& units, const char* unit, const char* name) {
  return units[unit]["counters"][name]["value"].get<double>();
}

TEST(PbmtTiming, UncachedPagesBypassTheDataCacheAndReachDramOnEveryRead) {
  const auto r = run_accel_vp(std::string("-o pbmt_out run --elf ") + PBMT_ELF);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("pbmt_timing: 0 traps, sum 43008"), std::string::npos) << r.out;  // 3 x 64 x (0+8+...+56)
  const auto rep = read_json("pbmt_out/report.json");
  ASSERT_EQ(rep["dumps"].size(), 5u);
  const auto& pma = rep["dumps"][0]["units"];
  const double pma_hits = counter(pma, "harts.hart0", "dcache_hits");
  EXPECT_GE(pma_hits, 504);                                   // the 8 lines' first reads miss
  EXPECT_LE(counter(pma, "harts.hart0", "dcache_misses"), 16);
  EXPECT_LE(counter(pma, "bus.dram", "accesses"), 16);
  for (int k = 1; k < 3; ++k) {  // NC, IO: the loop's reads are not cached
    const auto& u = rep["dumps"][k]["units"];
    EXPECT_LT(counter(u, "harts.hart0", "dcache_hits") + counter(u, "harts.hart0", "dcache_misses"), 16) << k;
    EXPECT_GE(counter(u, "bus.dram", "accesses"), 512) << k;
    EXPECT_LE(counter(u, "bus.dram", "accesses"), 512 + 16) << k;
    EXPECT_GE(counter(u, "dram", "reads"), 512) << k;
    // Each uncached read waits for DRAM: the region takes longer than the cached one.
    const double t = rep["dumps"][k]["time_ns"].get<double>() - rep["dumps"][k - 1]["time_ns"].get<double>();
    const double t_pma = rep["dumps"][0]["time_ns"].get<double>() - rep["dumps"][0]["since_ns"].get<double>();
    EXPECT_GT(t, 2 * t_pma) << k;
  }
  // The loop's block entered about 100 times: cached, I-cache hits; NC, a line read from DRAM each time.
  const auto& cached = rep["dumps"][3]["units"];
  const auto& nc = rep["dumps"][4]["units"];
  EXPECT_GE(counter(cached, "harts.hart0", "icache_hits"), 100);
  EXPECT_LE(counter(cached, "bus.dram", "accesses"), 16);
  EXPECT_GE(counter(nc, "bus.dram", "accesses"), 100);
  EXPECT_LT(counter(nc, "harts.hart0", "icache_hits") + counter(nc, "harts.hart0", "icache_misses"), 16);
}

// Memory without DMI: the translated pages the hart keeps for it map the
// program's virtual addresses (TEST_VA, not identity-mapped) to the physical
// page, as a DMI region's do (a kept page once read its virtual address as
// the physical one: 192 reads of unmapped addresses).
TEST(PbmtTiming, PagesKeptWithoutDmiMapToTheirPhysicalPage) {
  const auto r = run_accel_vp(std::string("-o pbmt_nodmi_out --set dram.dmi=false run --elf ") + PBMT_ELF);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("pbmt_timing: 0 traps, sum 43008"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("unmapped address"), std::string::npos) << r.out;
}

}  // namespace
