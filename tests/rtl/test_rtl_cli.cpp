// The co-simulation checker from the command line: `--rtl-vcd FILE` writes the
// Verilated decoder's pins while the command processor uses it, and the
// checker's statistics reach the summary and the manifest.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
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

// The shorthand sets cmp.rtl_vcd after every --set: a --set of it that
// disagrees, before or after, is a usage error naming both (not overridden unseen).
TEST(RtlCli, RtlVcdAndADisagreeingSetOfItsParameterIsAUsageError) {
  write_buffer("rtl_cli_both.bin");
  for (const std::string order : {"--rtl-vcd a.vcd --set cmp.rtl_vcd=b.vcd", "--set cmp.rtl_vcd=b.vcd --rtl-vcd a.vcd"}) {
    const auto r = run_accel_vp("-o rtl_cli_both --set cmp.decoder=rtl " + order + " cmdbuf rtl_cli_both.bin");
    EXPECT_EQ(r.code, 2) << order << ": " << r.out;
    EXPECT_NE(r.out.find("--rtl-vcd a.vcd: conflicts with --set cmp.rtl_vcd=b.vcd (it sets cmp.rtl_vcd=a.vcd)"),
              std::string::npos)
        << order << ": " << r.out;
  }
}

namespace {

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// The report's line that starts with `label` (after its indentation).
std::string report_line(const std::string& report, const std::string& label) {
  std::istringstream lines(report);
  for (std::string l; std::getline(lines, l);)
    if (l.find(label) != std::string::npos) return l;
  return "";
}

// The count of the user coverage point `name` in a Verilator .dat (-1: absent).
long long user_point(const std::string& dat, const std::string& name) {
  std::istringstream lines(read_text(dat));
  for (std::string l; std::getline(lines, l);)
    if (l.find("v_user") != std::string::npos && l.find(std::string("\2") + name + "\1") != std::string::npos)
      return std::stoll(l.substr(l.rfind('\'') + 1));
  return -1;
}

// verilator_coverage's exit status and output on `args`.
std::pair<int, std::string> verilator_coverage(const std::string& args) {
  FILE* p = popen(("verilator_coverage " + args + " 2>&1").c_str(), "r");
  std::string out;
  std::array<char, 512> buf{};
  while (p && std::fgets(buf.data(), buf.size(), p)) out += buf.data();
  const int status = p ? pclose(p) : -1;
  return {status, out};
}

}  // namespace

// --rtl-coverage: the coverage build of the decoder writes a .dat that
// verilator_coverage reads; the report beside it names the opcodes the
// buffer never used (COPY_MEM64) and not those it did (WRITE_REG64).
TEST(RtlCli, RtlCoverageWritesAVerilatorDatAndTheUnexercisedOpcodes) {
  write_buffer("rtl_cov.bin");
  for (const char* f : {"rtl_cov.dat", "rtl_cov.dat.txt"}) std::remove(f);
  const auto r = run_accel_vp("-o rtl_cov --set cmp.decoder=rtl --rtl-coverage rtl_cov.dat cmdbuf rtl_cov.bin");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto [status, out] = verilator_coverage("--annotate rtl_cov_annotated rtl_cov.dat");
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("Total coverage"), std::string::npos) << out;
  EXPECT_EQ(user_point("rtl_cov.dat", "cov_op_WRITE_REG64"), 1);
  EXPECT_EQ(user_point("rtl_cov.dat", "cov_op_COPY_MEM64"), 0);
  const std::string report = read_text("rtl_cov.dat.txt");
  const std::string never = report_line(report, "opcodes never decoded");
  EXPECT_NE(never.find("COPY_MEM64"), std::string::npos) << report;
  EXPECT_EQ(never.find("WRITE_REG64"), std::string::npos) << report;
  EXPECT_NE(report_line(report, "opcodes decoded").find("STORE_REG64"), std::string::npos) << report;
  EXPECT_NE(report_line(report, "error paths never taken").find("BAD_HEADER"), std::string::npos) << report;
  // The summary says the same at the end of the run.
  EXPECT_NE(report_line(r.out, "opcodes never decoded").find("COPY_MEM64"), std::string::npos) << r.out;
  std::ifstream mf("rtl_cov/manifest.json");
  const auto m = nlohmann::json::parse(mf);
  EXPECT_EQ(m["outputs"]["rtl_coverage"], "rtl_cov.dat");
  EXPECT_GT(m["rtl_coverage"]["toggle_points_hit"].get<unsigned>(), 0u);
}

TEST(RtlCli, RtlCoverageWithTheTlmDecoderOrAnUnwritableFileIsAnError) {
  write_buffer("rtl_cov_tlm.bin");
  auto r = run_accel_vp("-o rtl_cov_tlm --rtl-coverage rtl_cov_tlm.dat cmdbuf rtl_cov_tlm.bin");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("cmp.rtl_coverage (--rtl-coverage): needs cmp.decoder=rtl or lockstep"), std::string::npos) << r.out;
  r = run_accel_vp("-o rtl_cov_tlm --set cmp.decoder=rtl --rtl-coverage no_such_dir/x.dat cmdbuf rtl_cov_tlm.bin");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("no_such_dir/x.dat: cannot write the RTL coverage file"), std::string::npos) << r.out;
}

// A sweep gives each point its own .dat and sums them into FILE.
TEST(RtlCli, RtlCoverageOfASweepMergesItsPoints) {
  std::filesystem::remove_all("rtl_cov_sweep");
  std::remove("rtl_cov_sweep.dat");
  const auto r = run_accel_vp("-o rtl_cov_sweep --set cmp.decoder=rtl --rtl-coverage rtl_cov_sweep.dat sweep --jobs 1 "
                              "--param cmp.launch_latency=20ns,40ns --metrics simulated_time_ns");
  ASSERT_EQ(r.code, 0) << r.out;
  std::vector<std::string> points;
  for (const auto& e : std::filesystem::recursive_directory_iterator("rtl_cov_sweep"))
    if (e.path().filename() == "rtl_coverage.dat") points.push_back(e.path().string());
  ASSERT_EQ(points.size(), 2u) << r.out;
  const long long one = user_point(points[0], "cov_op_FINISH");
  ASSERT_GT(one, 0);
  EXPECT_EQ(user_point("rtl_cov_sweep.dat", "cov_op_FINISH"), one + user_point(points[1], "cov_op_FINISH"));
  EXPECT_EQ(verilator_coverage("--annotate rtl_cov_sweep_annotated rtl_cov_sweep.dat").first, 0);
  EXPECT_NE(r.out.find("rtl coverage of 2 points: rtl_cov_sweep.dat"), std::string::npos) << r.out;
  EXPECT_NE(report_line(read_text("rtl_cov_sweep.dat.txt"), "opcodes never decoded"), "");
}
