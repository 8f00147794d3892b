// The co-simulation checker from the command line: `--rtl-vcd FILE` writes the
// Verilated decoder's pins while the command processor uses it, and the
// checker's statistics reach the summary and the manifest.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "accel_vp_cli.h"
#include "cmdbuf.h"
#include "vcd_reader.h"

namespace {

using avp::test::run_accel_vp;

void write_buffer(const std::string& path) {
  avp::CommandBuffer cb;
  cb.write_reg(3, 0x1234).store_reg(3, 0x4000'1000).finish();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(cb.chunks().data()), cb.size_bytes());
}

}  // namespace

TEST(RtlCli, RtlVcdRecordsTheDecodersPinsAndTheSummaryCountsPackets) {
  write_buffer("rtl_cli.bin");
  std::remove("rtl_cli.vcd");
  const auto r = run_accel_vp("-o rtl_cli --set cmp.decoder=lockstep --rtl-vcd rtl_cli.vcd cmdbuf rtl_cli.bin");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("lockstep         3 packets compared, 0 mismatches, 8 RTL cycles"), std::string::npos) << r.out;
  const auto w = avp::test::read_vcd("rtl_cli.vcd");
  ASSERT_TRUE(w.count("out_opcode") && w.count("in_data")) << "pins missing";
  const auto ops = avp::test::values_of(w.at("out_opcode"));
  // WRITE_REG64, STORE_REG64, FINISH presented in turn (with the reset value 0 first).
  EXPECT_EQ(ops, (std::vector<uint64_t>{0, AVP_CMP_WRITE_REG64, AVP_CMP_STORE_REG64, AVP_CMP_FINISH}));
  std::ifstream mf("rtl_cli/manifest.json");
  const auto m = nlohmann::json::parse(mf);
  EXPECT_EQ(m["statistics"]["cmp.lockstep.packets_compared"]["value"], 3);
  EXPECT_EQ(m["statistics"]["cmp.lockstep.mismatches"]["value"], 0);
  EXPECT_EQ(m["statistics"]["cmp.lockstep.rtl_cycles"]["value"], 8);
}

// One time base: the RTL waveform is in picoseconds of simulated time, its
// times only increase (Verilator warns of nothing), and each command's
// decode lies inside that command's slice of the timeline; the buffer's
// completion interrupt (--vcd) rises after the last decode.
TEST(RtlCli, RtlVcdTimelineAndVcdShareOneTimeBase) {
  write_buffer("rtl_time.bin");
  for (const char* f : {"rtl_time.vcd", "rtl_time_irq.vcd", "rtl_time.json"}) std::remove(f);
  const auto r = run_accel_vp("-o rtl_time --set cmp.decoder=rtl --rtl-vcd rtl_time.vcd --vcd rtl_time_irq.vcd "
                              "--timeline rtl_time.json cmdbuf rtl_time.bin");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("previous dump"), std::string::npos) << r.out;
  std::ifstream vf("rtl_time.vcd");
  const std::string vcd((std::istreambuf_iterator<char>(vf)), std::istreambuf_iterator<char>());
  EXPECT_NE(vcd.find("$timescale 1ps $end"), std::string::npos) << vcd.substr(0, 400);
  uint64_t last = 0;
  bool first = true, increasing = true;
  std::istringstream lines(vcd);
  for (std::string l; std::getline(lines, l);)
    if (!l.empty() && l[0] == '#') {
      const uint64_t t = std::stoull(l.substr(1));
      if (!first && t <= last) increasing = false;
      last = t;
      first = false;
    }
  EXPECT_TRUE(increasing);
  // The time each opcode appeared on out_opcode, against the timeline's cmp slices of that opcode.
  const auto w = avp::test::read_vcd("rtl_time.vcd");
  ASSERT_TRUE(w.count("out_opcode"));
  std::ifstream tf("rtl_time.json");
  const auto tl = nlohmann::json::parse(tf);
  std::map<std::string, unsigned> tids;
  for (const auto& e : tl["traceEvents"])
    if (e.value("ph", "") == "M" && e.value("name", "") == "thread_name") tids[e["args"]["name"]] = e["tid"];
  auto slice_of = [&](const char* name) -> std::pair<double, double> {
    for (const auto& e : tl["traceEvents"])
      if (e.value("ph", "") == "X" && e.value("name", "") == name && e["tid"] == tids["cmp"])
        return {e["ts"].get<double>() * 1e6, (e["ts"].get<double>() + e.value("dur", 0.0)) * 1e6};  // us -> ps
    return {-1, -1};
  };
  const std::pair<uint64_t, const char*> ops[] = {{AVP_CMP_WRITE_REG64, "WRITE_REG64"}, {AVP_CMP_STORE_REG64, "STORE_REG64"},
                                                  {AVP_CMP_FINISH, "FINISH"}};
  uint64_t finish_ps = 0;
  for (const auto& [op, name] : ops) {
    uint64_t at = 0;
    for (const auto& c : w.at("out_opcode"))
      if (c.value == op) {
        at = c.time;
        break;
      }
    const auto [from, to] = slice_of(name);
    EXPECT_GE(static_cast<double>(at), from - 0.5) << name;
    EXPECT_LE(static_cast<double>(at), to + 0.5) << name;
    if (op == AVP_CMP_FINISH) finish_ps = at;
  }
  const auto irq = avp::test::read_vcd("rtl_time_irq.vcd");
  ASSERT_TRUE(irq.count("cmdbuf_done"));
  uint64_t done = 0;
  for (const auto& c : irq.at("cmdbuf_done"))
    if (c.value) {
      done = c.time;
      break;
    }
  EXPECT_GT(done, finish_ps);
}

TEST(RtlCli, RtlVcdWithTheTlmDecoderIsAConfigurationError) {
  write_buffer("rtl_cli_tlm.bin");
  const auto r = run_accel_vp("-o rtl_cli_tlm --rtl-vcd rtl_cli_tlm.vcd cmdbuf rtl_cli_tlm.bin");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("cmp.rtl_vcd"), std::string::npos) << r.out;
}
