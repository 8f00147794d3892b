// Workload "matmul" (the matrix-multiply study): checked results, the work
// independent of the hart count, the time shrinking with more harts, bad sizes.
#include <gtest/gtest.h>

#include "accel_vp_cli.h"

using namespace avp::test;

TEST(MatmulWorkload, ResultsAreCheckedAndTheWorkSpreadsOverTheHarts) {
  const CliResult one = run_accel_vp("-o mm_1 --set platform.cores=1 --set platform.harts_per_core=1 run matmul --args 12");
  if (one.out.find("cross compiler was not found") != std::string::npos) GTEST_SKIP() << "no RISC-V cross compiler";
  ASSERT_EQ(one.code, 0) << one.out;
  EXPECT_NE(one.out.find("matmul: 12x12 on 1 harts: results OK (0 wrong elements)"), std::string::npos) << one.out;
  const CliResult four = run_accel_vp("-o mm_4 --set platform.cores=1 --set platform.harts_per_core=4 run matmul --args 12");
  ASSERT_EQ(four.code, 0) << four.out;
  EXPECT_NE(four.out.find("on 4 harts: results OK"), std::string::npos) << four.out;
  const auto m1 = read_json("mm_1/manifest.json"), m4 = read_json("mm_4/manifest.json");
  EXPECT_EQ(m1["statistics"]["harts.instructions"]["value"], m4["statistics"]["harts.instructions"]["value"]);
  EXPECT_LT(m4["simulated_time_ns"].get<double>(), m1["simulated_time_ns"].get<double>());
}

TEST(MatmulWorkload, ABadMatrixSizeIsAClearError) {
  for (const char* size : {"0", "x", "257", "99999"}) {
    const CliResult r = run_accel_vp(std::string("-o mm_bad run matmul --args ") + size);
    if (r.out.find("cross compiler was not found") != std::string::npos) GTEST_SKIP() << "no RISC-V cross compiler";
    EXPECT_EQ(r.code, 2) << size;
    EXPECT_NE(r.out.find(std::string("matmul: matrix size '") + size + "': expected 1..256"), std::string::npos) << r.out;
  }
}
