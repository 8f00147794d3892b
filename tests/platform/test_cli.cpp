// The accel-vp executable: manifest contents, determinism and configuration errors.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
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

TEST(Cli, InfoPrintsTheAddressMap) {
  auto r = run("info");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("0x000040000000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 cores x 4 harts"), std::string::npos) << r.out;
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
