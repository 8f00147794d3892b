// Runs that must end and stay bounded: a program looping forever is stopped by
// --max-insns or platform.time_limit with a clear message (harts.instruction_limit
// bounds the command processor's kernels, not a user's program); a program
// printing without end keeps a bounded number of console lines.
#include <gtest/gtest.h>

#include "cli_runner.h"

using avp_test::read_json;
using avp_test::run_accel_vp;

TEST(RunLimits, MaxInsnsStopsALoopingProgram) {
  const auto r = run_accel_vp("-o limits_insn run --max-insns 200000 --elf " LOOP_ELF);
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("instruction limit of 200000 reached"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(--max-insns)"), std::string::npos) << r.out;
  EXPECT_EQ(read_json("limits_insn/manifest.json")["ending"], "finished");
}

TEST(RunLimits, AnElfProgramHasNoInstructionLimitByDefault) {
  // harts.instruction_limit is for the command processor's kernels: the program runs on to the time limit.
  const auto r = run_accel_vp("-o limits_none --set harts.instruction_limit=1000 --set platform.time_limit=200us run --elf " LOOP_ELF);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_EQ(r.out.find("instruction limit"), std::string::npos) << r.out;
  const auto m = read_json("limits_none/manifest.json");
  EXPECT_EQ(m["ending"], "time_limit");
  EXPECT_GT(m["instructions"].get<uint64_t>(), 1000u);
}

TEST(RunLimits, MaxInsnsNeedsAnElfProgram) {
  const auto r = run_accel_vp("-o limits_bad run --max-insns 5 vecadd");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--max-insns needs --elf"), std::string::npos) << r.out;
}

TEST(RunLimits, TheDefaultInstructionLimitIsTwoHundredMillion) {
  // A few seconds of a looping hart at the ISS's speed (docs/configuration.md).
  const auto r = run_accel_vp("--list-params harts.instruction_limit");
  EXPECT_NE(r.out.find("200000000 "), std::string::npos) << r.out;
}

TEST(RunLimits, TheTimeLimitEndsALoopingProgramWithAClearMessage) {
  const auto r = run_accel_vp("-o limits_time --set platform.time_limit=20us run --elf " LOOP_ELF);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("simulated time limit reached (platform.time_limit = 20 us)"), std::string::npos) << r.out;
  EXPECT_EQ(read_json("limits_time/manifest.json")["ending"], "time_limit");
}

TEST(RunLimits, ConsoleLinesKeptForTheManifestAreCappedAndCounted) {
  const auto r = run_accel_vp("-o limits_print run --elf " PRINT_ELF);
  ASSERT_EQ(r.code, 0) << r.out.substr(r.out.size() > 2000 ? r.out.size() - 2000 : 0);
  EXPECT_NE(r.out.find("line 10099"), std::string::npos);  // stdout has every line
  const auto m = read_json("limits_print/manifest.json");
  EXPECT_EQ(m["console"].size(), 10000u);
  EXPECT_EQ(m["console_dropped"], 100);
}
