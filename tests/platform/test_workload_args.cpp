// Workload arguments from the command line: described by `run --list`,
// checked before the platform is built (one-line error, exit status 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "accel_vp_cli.h"

namespace {

using avp::test::run_accel_vp;

size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(WorkloadArgs, ListShowsEachArgumentWithItsRangeAndDefault) {
  const auto r = run_accel_vp("run --list");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("vecadd\t"), std::string::npos);
  EXPECT_NE(r.out.find("    n (1..1048576, default 1024): elements per vector"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    n (1..256, default 32)"), std::string::npos) << r.out;                        // matmul
  EXPECT_NE(r.out.find("    block (8..131072, multiple of 8, default 1024)"), std::string::npos) << r.out;  // stream
  EXPECT_NE(r.out.find("    code_object (file, default the SDK's aql_kernels.co)"), std::string::npos) << r.out;
}

TEST(WorkloadArgs, BadValuesGiveOneLineAndStatus2) {
  struct Case {
    const char* args;
    const char* message;
  } cases[] = {
      {"run vecadd --args 0", "run vecadd: n 0 is out of range 1..1048576"},
      {"run vecadd --args 4294967297", "run vecadd: n 4294967297 is out of range 1..1048576"},  // no wrap-around to 1
      {"run vecadd --args 99999999999999999999999", "is not a number (expected 1..1048576)"},
      {"run vecadd --args -5", "run vecadd: n '-5' is not a number"},
      {"run vecadd --args 12abc", "run vecadd: n '12abc' is not a number"},
      {"run vecadd --args 1 2", "run vecadd: expected at most 1 argument(s) [n], got 2"},
      {"run matmul --args 257", "run matmul: n 257 is out of range 1..256"},
      {"run stream-dma --args 12", "run stream-dma: block 12 is not a multiple of 8"},
      {"run memcheck --args 3", "run memcheck: takes no arguments, got 1"},
      {"run aql-vecadd --args 64 /nonexistent.co", "run aql-vecadd: code_object '/nonexistent.co': no such file"},
  };
  for (const auto& c : cases) {
    const auto r = run_accel_vp(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
    EXPECT_EQ(lines(r.out), 1u) << c.args << "\n" << r.out;
    EXPECT_EQ(r.out.find("terminate"), std::string::npos) << r.out;
  }
}

TEST(WorkloadArgs, GoodValuesRun) {
  const auto r = run_accel_vp("-o wa_ok run matmul --args 4");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("accel-vp summary: matmul"), std::string::npos);
}

}  // namespace
