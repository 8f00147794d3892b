// Output paths, the manifest (atomic, never stale, says how the run ended) and
// the configuration round trip (--dump-config, --list-params).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "cli_runner.h"

using avp_test::read_json;
using avp_test::run_accel_vp;
using avp_test::write_text;

TEST(CliOutputs, BadOutputPathsAreErrorsBeforeTheRun) {
  for (const char* args : {"-o \"\" run memcheck", "--timeline \"\" run memcheck", "--trace insn --trace-file \"\" run memcheck"}) {
    const auto r = run_accel_vp(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("an empty name"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("accel-vp summary"), std::string::npos) << r.out;
  }
  write_text("outputs_file", "x");
  auto r = run_accel_vp("-o outputs_file run memcheck");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("-o/--out outputs_file: exists and is not a directory"), std::string::npos) << r.out;
  r = run_accel_vp("-o outputs_ok --timeline outputs_no_dir/t.json run memcheck");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--timeline outputs_no_dir/t.json: in outputs_no_dir, which is not an existing directory"), std::string::npos)
      << r.out;
  std::filesystem::create_directories("outputs_dir_as_file");
  r = run_accel_vp("-o outputs_ok --trace insn --trace-file outputs_dir_as_file run memcheck");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("a directory, not a file"), std::string::npos) << r.out;
  if (geteuid() != 0) {  // root writes anywhere
    std::filesystem::create_directories("outputs_ro");
    chmod("outputs_ro", 0555);
    r = run_accel_vp("-o outputs_ro run memcheck");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("not writable"), std::string::npos) << r.out;
  }
}

TEST(CliOutputs, ManifestSaysHowTheRunEndedAndNoStaleOneSurvives) {
  std::filesystem::create_directories("outputs_m");
  write_text("outputs_m/manifest.json", "{\"workload\": \"stale\"}");
  write_text("outputs_m/report.json", "{}");
  auto r = run_accel_vp("-o outputs_m cmdbuf outputs_no_such_buffer.bin");
  EXPECT_EQ(r.code, 2) << r.out;
  auto m = read_json("outputs_m/manifest.json");
  EXPECT_EQ(m["workload"], "cmdbuf");
  EXPECT_EQ(m["exit_code"], 2);
  EXPECT_EQ(m["ending"], "finished");
  EXPECT_TRUE(m.contains("peak_memory_mib"));

  r = run_accel_vp("-o outputs_m --set platform.time_limit=2us run memcheck");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("platform.time_limit = 2 us"), std::string::npos) << r.out;
  m = read_json("outputs_m/manifest.json");
  EXPECT_EQ(m["ending"], "time_limit");
  EXPECT_NE(m["ending_message"].get<std::string>().find("time limit"), std::string::npos);
  for (const auto& e : std::filesystem::directory_iterator("outputs_m"))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

TEST(CliOutputs, DumpConfigReadsBackToTheSameConfigHash) {
  auto r = run_accel_vp("--set dma.bandwidth=12.3456789012 --set dram.read_latency=7ns --set platform.time_limit=0 "
                        "--dump-config outputs_cfg.yaml -o outputs_c1 run memcheck");
  ASSERT_EQ(r.code, 0) << r.out;
  r = run_accel_vp("--config outputs_cfg.yaml -o outputs_c2 run memcheck");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto a = read_json("outputs_c1/manifest.json"), b = read_json("outputs_c2/manifest.json");
  EXPECT_EQ(a["config_hash"], b["config_hash"]);
  EXPECT_EQ(b["parameters"]["dma.bandwidth"], 12.3456789012);
  EXPECT_EQ(a["simulated_time_ns"], b["simulated_time_ns"]);
}

TEST(CliOutputs, ListParamsTakesAFilterAndAlignsColumns) {
  const auto r = run_accel_vp("--list-params dma.");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("dma.channels"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("platform.seed"), std::string::npos) << r.out;
  // Every row's type column starts at the same position.
  std::istringstream lines(r.out);
  size_t column = std::string::npos;
  for (std::string line; std::getline(lines, line);) {
    const size_t at = line.find_first_not_of(' ', line.find(' ', 2));
    if (column == std::string::npos) column = at;
    EXPECT_EQ(at, column) << line;
  }
}

// The generated device tree grows with the harts it lists, up to the
// platform's largest shape (it was a fixed 64 KiB: FDT_ERR_NOSPACE above ~192).
TEST(CliOutputs, TheDeviceTreeHoldsEveryHartThePlatformCanHave) {
  const auto r = run_accel_vp("--set platform.cores=4 --set platform.harts_per_core=256 -o outputs_dtb dtb --harts 1024 "
                              "-o outputs_1024.dtb --bootargs " + std::string(3000, 'a'));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("1024 hart(s), written to outputs_1024.dtb"), std::string::npos) << r.out;
  EXPECT_GT(std::filesystem::file_size("outputs_1024.dtb"), 64u * 1024);
}
