// Region-of-interest statistics (gem5 m5-op style) from a bare-metal program:
// ECALL and perf-register dumps become sections of report.json and stats.txt.
#include <gtest/gtest.h>

#include <string>

#include "accel_vp_cli.h"

namespace {

using avp::test::read_json;
using avp::test::read_text;
using avp::test::run_accel_vp;

double hart0_instructions(const nlohmann::json& units) {
  return units["harts.hart0"]["counters"]["instructions"]["value"].get<double>();
}

TEST(RoiStats, DumpsAreSectionsOfTheReportCoveringOnlyTheRegion) {
  const auto r = run_accel_vp(std::string("-o roi_out run --elf ") + ROI_ELF);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("dumps 2"), std::string::npos) << r.out;  // the register counts the dumps
  const auto rep = read_json("roi_out/report.json");
  ASSERT_EQ(rep["dumps"].size(), 2u);
  const auto& d0 = rep["dumps"][0];
  const auto& d1 = rep["dumps"][1];
  EXPECT_EQ(d0["label"], "hart0 ecall");
  EXPECT_EQ(d1["label"], "harts.hart0 perf register");
  // Dump 0: reset, then 10000 x 2 loop instructions plus the calls around them.
  const double i0 = hart0_instructions(d0["units"]);
  EXPECT_GE(i0, 20000);
  EXPECT_LT(i0, 20100);
  // Dump 1 was not reset after dump 0: it holds both loops.
  const double i1 = hart0_instructions(d1["units"]);
  EXPECT_GE(i1, 80000);
  EXPECT_LT(i1, 80200);
  EXPECT_GT(d1["time_ns"].get<double>(), d0["time_ns"].get<double>());
  EXPECT_EQ(d0["since_ns"], d1["since_ns"]);
  EXPECT_GT(d0["since_ns"].get<double>(), 0);
  // The run's own section starts at the last reset: the 100-iteration tail and the exit.
  const double tail = hart0_instructions(rep["units"]);
  EXPECT_GE(tail, 200);
  EXPECT_LT(tail, 2000);
  EXPECT_DOUBLE_EQ(rep["statistics_since_ns"].get<double>(), d1["time_ns"].get<double>());
  // Busy fractions are of the region's time, not of the whole run.
  const double busy = d0["units"]["harts.hart0"]["utilisation"]["busy"]["fraction"].get<double>();
  EXPECT_GT(busy, 0.99);
  EXPECT_LE(busy, 1.0);

  // stats.txt: the same three sections in gem5's style.
  const std::string txt = read_text("roi_out/stats.txt");
  size_t sections = 0;
  for (size_t at = txt.find("---------- Begin Simulation Statistics"); at != std::string::npos;
       at = txt.find("---------- Begin Simulation Statistics", at + 1))
    ++sections;
  EXPECT_EQ(sections, 3u) << txt.substr(0, 2000);
  EXPECT_NE(txt.find("# dump 0 by hart0 ecall"), std::string::npos);
  EXPECT_NE(txt.find("# end of the run"), std::string::npos);
  const size_t line = txt.find("\nharts.hart0.instructions ");
  ASSERT_NE(line, std::string::npos);
  EXPECT_NE(txt.substr(line, 200).find("# "), std::string::npos);  // value then description
  EXPECT_NE(txt.find("::p99"), std::string::npos);
}

TEST(RoiStats, WithoutDumpsTheReportHasNoSectionsAndStatsTxtOne) {
  const auto r = run_accel_vp("-o roi_none run memcheck");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rep = read_json("roi_none/report.json");
  EXPECT_TRUE(rep["dumps"].empty());
  EXPECT_EQ(rep["statistics_since_ns"], 0);
  const std::string txt = read_text("roi_none/stats.txt");
  EXPECT_NE(txt.find("# end of the run"), std::string::npos);
  EXPECT_EQ(txt.find("# dump"), std::string::npos);
}

}  // namespace
