// Run reports: figures that follow from the configuration, the JSON schema,
// the self-contained HTML page and the timeline trace.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <set>
#include <string>

namespace {

int run(const std::string& args) {
  std::string cmd = std::string(ACCEL_VP) + " --no-progress " + args + " > /dev/null 2>&1";
  return WEXITSTATUS(std::system(cmd.c_str()));
}

nlohmann::json load(const std::string& path) {
  std::ifstream f(path);
  return nlohmann::json::parse(f);
}

std::string text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

TEST(Report, PortUtilisationFollowsFromTheConfiguredBandwidth) {
  // memcheck moves 256 KiB into DRAM and back in 64-byte bursts: at 1 byte/ns
  // the DRAM port is busy 524288 ns.
  ASSERT_EQ(run("-o rep_bw --set bus.dram.bandwidth=1 run memcheck"), 0);
  const auto r = load("rep_bw/report.json");
  const auto& busy = r["units"]["bus.dram"]["utilisation"]["busy"];
  EXPECT_DOUBLE_EQ(busy["busy_ns"].get<double>(), 524288.0);
  const double sim = r["run"]["simulated_time_ns"].get<double>();
  EXPECT_NEAR(busy["fraction"].get<double>(), 524288.0 / sim, 1e-9);
}

TEST(Report, AnIdleUnitHasZeroUtilisationAndTheSchemaIsComplete) {
  ASSERT_EQ(run("-o rep_idle run memcheck"), 0);
  const auto r = load("rep_idle/report.json");
  EXPECT_EQ(r["schema"], "accel-vp-report/1");
  for (const char* k : {"workload", "seed", "simulated_time_ns", "wall_time_s", "config_hash"}) EXPECT_TRUE(r["run"].contains(k)) << k;
  EXPECT_EQ(r["units"]["dma.ch0"]["utilisation"]["busy"]["fraction"].get<double>(), 0.0);
  EXPECT_EQ(r["units"]["cmp"]["histograms"]["command_latency"]["count"].get<int>(), 0);
  EXPECT_TRUE(r["units"]["dram"]["counters"].contains("writes"));
}

TEST(Report, HtmlIsSelfContainedAndCarriesTheData) {
  ASSERT_EQ(run("-o rep_html --timeline rep_html/trace.json run vecadd"), 0);
  const std::string html = text("rep_html/report.html");
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // the SVG namespace is the only URL
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_NE(html.find("\"schema\":\"accel-vp-report/1\""), std::string::npos);
  EXPECT_NE(html.find("instance 0"), std::string::npos);  // a hart's kernel instance on the timeline
}

TEST(Report, TraceHasATrackPerUnitAndSlices) {
  ASSERT_EQ(run("-o rep_trace --timeline rep_trace/trace.json run vecadd"), 0);
  const auto t = load("rep_trace/trace.json");
  std::set<std::string> tracks;
  size_t slices = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") tracks.insert(e["args"]["name"]);
    slices += e["ph"] == "X";
  }
  for (const char* track : {"cmp", "cmp.dispatch", "link.down", "link.up", "harts.hart0", "harts.hart7"})
    EXPECT_TRUE(tracks.count(track)) << track;
  EXPECT_GT(slices, 1000u);
}
