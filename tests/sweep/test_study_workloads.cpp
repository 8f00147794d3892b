// The workloads of the studies: "matmul" (checked results, the work
// independent of the hart count, the time shrinking with more harts) and
// "stream-dma" / "stream-direct" (the same result through DMA double
// buffering or direct DRAM access), and their errors for bad arguments.
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
    EXPECT_NE(r.out.find("run matmul: n "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1..256"), std::string::npos) << r.out;
  }
}

TEST(StreamWorkloads, DmaDoubleBufferingAndDirectAccessComputeTheSameWords) {
  const CliResult dma = run_accel_vp("-o stream_dma run stream-dma --args 512");
  if (dma.out.find("cross compiler was not found") != std::string::npos) GTEST_SKIP() << "no RISC-V cross compiler";
  ASSERT_EQ(dma.code, 0) << dma.out;
  EXPECT_NE(dma.out.find("stream-dma: 32768 bytes in 512-byte blocks on 8 harts: results OK (0 wrong words)"),
            std::string::npos) << dma.out;
  const CliResult direct = run_accel_vp("-o stream_direct run stream-direct --args 512");
  ASSERT_EQ(direct.code, 0) << direct.out;
  EXPECT_NE(direct.out.find("results OK (0 wrong words)"), std::string::npos) << direct.out;
  // Every byte in and out of TCDM by DMA; none when the harts access DRAM.
  EXPECT_EQ(read_json("stream_dma/manifest.json")["statistics"]["dma.bytes"]["value"], 2 * 32768);
  EXPECT_EQ(read_json("stream_direct/manifest.json")["statistics"]["dma.bytes"]["value"], 0);
}

TEST(StreamWorkloads, ABadBlockSizeIsAClearError) {
  for (const char* size : {"0", "12", "abc"}) {
    const CliResult r = run_accel_vp(std::string("-o stream_bad run stream-direct --args ") + size);
    EXPECT_EQ(r.code, 2) << size;
    EXPECT_NE(r.out.find("run stream-direct: block "), std::string::npos) << r.out;
    const bool explained = r.out.find("8..131072") != std::string::npos || r.out.find("not a multiple of 8") != std::string::npos;
    EXPECT_TRUE(explained) << r.out;
  }
  const CliResult big = run_accel_vp("-o stream_bad --set platform.tcdm_per_core=64K run stream-dma --args 8192");
  EXPECT_EQ(big.code, 2);
  EXPECT_NE(big.out.find("do not fit the lower half of a hart's 16384-byte TCDM slice"), std::string::npos) << big.out;
}
