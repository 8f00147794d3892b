// The accel-vp executable: manifest contents, determinism and configuration errors.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace {

struct Result {
  int code;
  std::string out;
};

Result run(const std::string& args) {
  std::string cmd = std::string(ACCEL_VP) + " --no-progress " + args + " 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), f)) out.append(buf.data(), n);
  int st = pclose(f);
  return {WEXITSTATUS(st), out};
}

nlohmann::json manifest(const std::string& dir) {
  std::ifstream f(dir + "/manifest.json");
  return nlohmann::json::parse(f);
}

}  // namespace

TEST(Cli, RunWritesAManifestWithEverythingNeededToReproduce) {
  auto r = run("-o cli_m1 --set platform.seed=7 run memcheck");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("accel-vp summary"), std::string::npos);
  auto m = manifest("cli_m1");
  EXPECT_EQ(m["seed"], 7);
  EXPECT_EQ(m["workload"], "memcheck");
  EXPECT_EQ(m["parameters"]["platform.seed"], 7);
  EXPECT_TRUE(m.contains("version"));
  EXPECT_TRUE(m.contains("config_hash"));
  EXPECT_EQ(m["quantum_ns"], 1000.0);
  EXPECT_GT(m["simulated_time_ns"].get<double>(), 0);
  EXPECT_TRUE(m.contains("wall_time_s"));
  EXPECT_TRUE(m.contains("peak_memory_mib"));
  EXPECT_TRUE(m["statistics"].contains("dram.writes"));
}

TEST(Cli, SameInputsGiveTheSameSimulatedTimes) {
  ASSERT_EQ(run("-o cli_d1 run memcheck").code, 0);
  ASSERT_EQ(run("-o cli_d2 run memcheck").code, 0);
  auto a = manifest("cli_d1"), b = manifest("cli_d2");
  EXPECT_EQ(a["simulated_time_ns"], b["simulated_time_ns"]);
  EXPECT_EQ(a["config_hash"], b["config_hash"]);
  EXPECT_EQ(a["statistics"], b["statistics"]);
}

TEST(Cli, ParameterOverridesChangeTiming) {
  ASSERT_EQ(run("-o cli_l1 run memcheck").code, 0);
  ASSERT_EQ(run("-o cli_l2 --set dram.read_latency=100ns run memcheck").code, 0);
  EXPECT_GT(manifest("cli_l2")["simulated_time_ns"].get<double>(), manifest("cli_l1")["simulated_time_ns"].get<double>());
}

TEST(Cli, ConfigurationErrorsNameTheParameter) {
  auto r = run("--set dram.sizee=1 info");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown parameter 'dram.sizee'"), std::string::npos) << r.out;
  r = run("--set dram.size=big info");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("dram.size"), std::string::npos) << r.out;
  r = run("--set bus.dram.base=0x1000 info");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("overlap"), std::string::npos) << r.out;
}

TEST(Cli, DefaultConfigFileLoadsAndListsParameters) {
  auto r = run(std::string("--config ") + SOURCE_DIR + "/configs/default.yaml --list-params");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("platform.quantum"), std::string::npos);
  EXPECT_NE(r.out.find("bus.dram.base"), std::string::npos);
}

// The default DRAM is the named DDR4-3200 preset: neither the preset nor
// default.yaml changes a DRAM parameter; the ideal memory changes them.
TEST(Cli, TheDefaultDramIsTheDdr43200Preset) {
  const auto defaults = run("--list-params dram");
  ASSERT_EQ(defaults.code, 0) << defaults.out;
  EXPECT_NE(defaults.out.find("dram.row_cycle"), std::string::npos) << defaults.out;
  EXPECT_EQ(defaults.out.find("(default"), std::string::npos) << defaults.out;
  EXPECT_EQ(run("--config ddr4-3200 --list-params dram").out, defaults.out);
  EXPECT_EQ(run(std::string("--config ") + SOURCE_DIR + "/configs/default.yaml --list-params dram").out, defaults.out);
  const auto ideal = run("--config ideal-memory --list-params dram");
  ASSERT_EQ(ideal.code, 0) << ideal.out;
  for (const char* line : {"dram\\.banks +uint32 +0 ", "bus\\.dram\\.bandwidth +double +0 ", "dram\\.read_latency +time +50 ns ",
                           "dram\\.row_cycle +time +0 ns ", "dram\\.refresh_interval +time +0 ns "})
    EXPECT_TRUE(std::regex_search(ideal.out, std::regex(line))) << line << "\n" << ideal.out;
}

TEST(Cli, InfoPrintsTheAddressMap) {
  auto r = run("info");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("0x000040000000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 cores x 4 harts"), std::string::npos) << r.out;
}

TEST(Cli, InfoPrintsHartUnitsZeroPadded) {
  auto r = run("info");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("(units 0x03000000 .. 0x03000007)"), std::string::npos) << r.out;
}

TEST(Cli, AMistypedOptionGetsASuggestion) {
  auto r = run("--timelin t.json run memcheck");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--timelin: did you mean '--timeline'?"), std::string::npos) << r.out;
  r = run("run --elff x.elf");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--elff: did you mean '--elf'?"), std::string::npos) << r.out;
  r = run("--completely-unrelated run memcheck");
  EXPECT_EQ(r.out.find("did you mean"), std::string::npos) << r.out;
}

TEST(Cli, HelpShowsTheListParamsFilterAsOptional) {
  auto r = run("--help");
  EXPECT_NE(r.out.find("--list-params [FILTER]"), std::string::npos) << r.out;
}

TEST(Cli, SummaryTimesAreScaledWithUnitsAndEveryOutputFileIsListed) {
  auto r = run("-o cli_sum --timeline cli_sum/t.json --vcd cli_sum/irq.vcd run memcheck");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("simulated time   [0-9]+(\\.[0-9]{1,3})? (s|ms|us|ns)\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("wall time        [0-9]+(\\.[0-9]{1,3})? (s|ms|us|ns)\n"))) << r.out;
  EXPECT_NE(r.out.find("  timeline         cli_sum/t.json\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  vcd              cli_sum/irq.vcd\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cli_sum/stats.txt"), std::string::npos) << r.out;
  const auto m = manifest("cli_sum");
  EXPECT_EQ(m["outputs"]["timeline"], "cli_sum/t.json");
  EXPECT_EQ(m["outputs"]["vcd"], "cli_sum/irq.vcd");
}

TEST(Cli, ReportHtmlHasAConfigurationSection) {
  auto r = run("-o cli_cfg --set dram.read_latency=40ns run memcheck");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto m = manifest("cli_cfg");
  EXPECT_EQ(m["non_default_parameters"]["dram.read_latency"]["value"], "40 ns");
  std::ifstream f("cli_cfg/report.html");
  const std::string html((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("<h2>Configuration</h2>"), std::string::npos);
  EXPECT_NE(html.find("<h2>Files</h2>"), std::string::npos);
  // The data the section draws from is embedded in the page.
  EXPECT_NE(html.find("\"non_default_parameters\":{\"dram.read_latency\""), std::string::npos);
  EXPECT_NE(html.find("\"sets\":[\"dram.read_latency=40ns\"]"), std::string::npos);
}

TEST(Cli, UnknownWorkloadIsAClearError) {
  auto r = run("run no-such-workload");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown workload"), std::string::npos) << r.out;
}

TEST(Cli, CmdbufRunsBuffersInOrderDumpsMemoryAndReportsErrors) {
  auto header = [](uint64_t op, uint64_t n, uint64_t inl) { return 0xC0000000ull | op << 8 | (2 * n) << 16 | inl << 32; };
  const uint64_t ok[] = {header(2, 1, 0), 0x1234, header(4, 1, 0), 0x40001000, header(1, 0, 0)};
  const uint64_t bad[] = {header(2, 1, 41), 5, header(1, 0, 0)};
  std::ofstream("cb_ok.bin", std::ios::binary).write(reinterpret_cast<const char*>(ok), sizeof ok);
  std::ofstream("cb_bad.bin", std::ios::binary).write(reinterpret_cast<const char*>(bad), sizeof bad);
  auto r = run("-o cli_cb cmdbuf cb_ok.bin --dump 0x40001000:8");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("cb_ok.bin: finished"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("000040001000: 34 12 00 00 00 00 00 00"), std::string::npos) << r.out;
  r = run("-o cli_cb cmdbuf cb_bad.bin cb_ok.bin");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("cb_bad.bin: error 5 (register index >= 40) at offset 0, opcode WRITE_REG64"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cb_ok.bin: finished"), std::string::npos) << r.out;  // the next buffer still runs
  r = run("-o cli_cb cmdbuf no-such-file.bin");
  EXPECT_EQ(r.code, 2) << r.out;
}
