// Run reports: figures that follow from the configuration, the JSON schema,
// the self-contained HTML page and the timeline trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
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
  for (const char* q : {"cmp", "dma.ch0", "aql.q0"}) {
    const auto& o = r["units"][q]["occupancy"]["queue_occupancy"];
    EXPECT_EQ(o["mean"].get<double>(), 0.0) << q;
    EXPECT_EQ(o["max"], 0) << q;
  }
}

TEST(Report, KernelInstancesAndPerHartFigures) {
  // On the DDR4 default (stalls of 13.75 ns), as on any memory.
  ASSERT_EQ(run("-o rep_harts run vecadd"), 0);
  const auto r = load("rep_harts/report.json");
  const auto& units = r["units"];
  // vecadd runs 1024 instances (one per element) on the harts.
  const auto& inst = units["harts"]["histograms"]["instance_time"];
  EXPECT_EQ(inst["count"], 1024);
  EXPECT_EQ(units["cmp"]["counters"]["instances"]["value"], 1024);
  EXPECT_EQ(units["cmp"]["histograms"]["buffer_latency"]["count"], 1);
  // One buffer: in the CMP's queue from submission to completion.
  const auto& occ = units["cmp"]["occupancy"]["queue_occupancy"];
  EXPECT_EQ(occ["max"], 1);
  EXPECT_EQ(occ["time_at_level_ns"][1][0], 1);
  EXPECT_NEAR(occ["time_at_level_ns"][1][1].get<double>(), units["cmp"]["histograms"]["buffer_latency"]["sum"].get<double>(), 1e-6);
  double busy_sum = 0, instructions = 0;
  for (int h = 0; h < 8; ++h) {
    const auto& g = units["harts.hart" + std::to_string(h)];
    const double busy = g["utilisation"]["busy"]["busy_ns"].get<double>();
    busy_sum += busy;
    instructions += g["counters"]["instructions"]["value"].get<double>();
    // The default clock is 1 GHz: the active cycles are the whole nanoseconds
    // of the busy time (not a sum of rounded intervals).
    const double active = g["counters"]["active_cycles"]["value"].get<double>();
    EXPECT_EQ(active, std::floor(busy + 1e-6)) << h;
    const auto& d = g["derived"];
    EXPECT_DOUBLE_EQ(d["ipc"].get<double>(), g["counters"]["instructions"]["value"].get<double>() / active) << h;
    EXPECT_GE(d["issue_ipc"].get<double>(), d["ipc"].get<double>()) << h;
    double stalls = 0;
    for (const char* c : {"fetch", "memory", "barrier", "wfi", "xintf"}) stalls += d["stall_ns"][c].get<double>();
    EXPECT_GT(d["stall_ns"]["memory"].get<double>(), 0) << h;
    EXPECT_LE(stalls, busy) << h;
    EXPECT_GT(d["dcache_hit_rate"].get<double>(), 0) << h;
  }
  // Each instance keeps its hart busy for exactly its own time.
  EXPECT_DOUBLE_EQ(busy_sum, inst["sum"].get<double>());
  EXPECT_EQ(instructions, units["harts"]["counters"]["instructions"]["value"].get<double>());
}

TEST(Report, AqlQueueFiguresAndDoorbellToCompletionFlows) {
  ASSERT_EQ(run("-o rep_aql --timeline rep_aql/trace.json run aql-vecadd"), 0);
  const auto r = load("rep_aql/report.json");
  const auto& lat = r["units"]["aql"]["histograms"]["dispatch_latency"];
  EXPECT_EQ(lat["count"], 1);
  EXPECT_EQ(r["units"]["aql"]["counters"]["dispatches"]["value"], 1);
  EXPECT_GT(r["units"]["aql"]["utilisation"]["busy"]["busy_ns"].get<double>(), 0);
  EXPECT_EQ(r["units"]["aql.q0"]["occupancy"]["queue_occupancy"]["max"], 1);
  EXPECT_EQ(r["units"]["aql.q1"]["occupancy"]["queue_occupancy"]["max"], 0);
  // The timeline: the dispatch slice on the queue's track, a flow from the doorbell to the completion.
  const auto t = load("rep_aql/trace.json");
  std::map<int, std::string> tracks;
  std::map<uint64_t, std::pair<double, double>> flows;  // id -> (start, end)
  double dispatch_start = -1, dispatch_end = -1;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") tracks[e["tid"].get<int>()] = e["args"]["name"];
    if (e["ph"] == "s") flows[e["id"].get<uint64_t>()].first = e["ts"].get<double>();
    if (e["ph"] == "f") flows[e["id"].get<uint64_t>()].second = e["ts"].get<double>();
    if (e["ph"] == "X" && e["name"] == "dispatch") {
      EXPECT_EQ(tracks[e["tid"].get<int>()], "aql.q0");
      dispatch_start = e["ts"].get<double>();
      dispatch_end = dispatch_start + e["dur"].get<double>();
    }
  }
  ASSERT_EQ(flows.size(), 1u);
  const auto [rung, to] = flows.begin()->second;
  EXPECT_NEAR(to, dispatch_end, 1e-6);
  // The histogram holds the time from the doorbell (or from when the processor
  // found the packet, if it polled it before the doorbell arrived) to completion.
  EXPECT_NEAR((to - std::min(rung, dispatch_start)) * 1000, lat["max"].get<double>(), 1e-3);
  EXPECT_NEAR((dispatch_end - dispatch_start) * 1000, r["units"]["aql"]["utilisation"]["busy"]["busy_ns"].get<double>(), 1e-3);
}

TEST(Report, VcdOfTheInterruptLines) {
  ASSERT_EQ(run("-o rep_vcd --vcd rep_vcd/irq.vcd run vecadd"), 0);
  const std::string v = text("rep_vcd/irq.vcd");
  EXPECT_EQ(v.rfind("$version accel-vp $end\n$timescale 1ps $end\n", 0), 0u);
  for (const char* sig : {" cmdbuf_done $end", " fence_wait $end", " aql_signal $end", " intx $end", " irq $end"})
    EXPECT_NE(v.find(sig), std::string::npos) << sig;
  EXPECT_NE(v.find("$var event 1 "), std::string::npos);  // msi
  EXPECT_EQ(run("-o rep_vcd --vcd /nonexistent-dir/irq.vcd run memcheck"), 2);  // refused before the run
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
  for (const char* track : {"cmp", "cmp.queue", "cmp.dispatch", "dma.ch0", "link.down", "link.up", "harts.hart0", "harts.hart7"})
    EXPECT_TRUE(tracks.count(track)) << track;
  EXPECT_GT(slices, 1000u);
  // The command buffer's flow: doorbell on cmp.queue, completion interrupt on cmp.
  int begins = 0, ends = 0;
  for (const auto& e : t["traceEvents"]) {
    begins += e["ph"] == "s";
    ends += e["ph"] == "f";
  }
  EXPECT_EQ(begins, 1);
  EXPECT_EQ(ends, 1);
}
