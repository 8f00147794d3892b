// The co-simulation checker from the command line: `--rtl-vcd FILE` writes the
// Verilated decoder's pins while the command processor uses it, and the
// checker's statistics reach the summary and the manifest.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cmdbuf.h"
#include "vcd_reader.h"

namespace {

struct Result {
  int code;
  std::string out;
};

Result run(const std::string& args) {
  const std::string cmd = std::string(ACCEL_VP) + " --no-progress " + args + " 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), f)) out.append(buf.data(), n);
  const int st = pclose(f);
  return {WEXITSTATUS(st), out};
}

void write_buffer(const std::string& path) {
  avp::CommandBuffer cb;
  cb.write_reg(3, 0x1234).store_reg(3, 0x4000'1000).finish();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(cb.chunks().data()), cb.size_bytes());
}

}  // namespace

TEST(RtlCli, RtlVcdRecordsTheDecodersPinsAndTheSummaryCountsPackets) {
  write_buffer("rtl_cli.bin");
  std::remove("rtl_cli.vcd");
  const Result r = run("-o rtl_cli --set cmp.decoder=lockstep --rtl-vcd rtl_cli.vcd cmdbuf rtl_cli.bin");
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

TEST(RtlCli, RtlVcdWithTheTlmDecoderIsAConfigurationError) {
  write_buffer("rtl_cli_tlm.bin");
  const Result r = run("-o rtl_cli_tlm --rtl-vcd rtl_cli_tlm.vcd cmdbuf rtl_cli_tlm.bin");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("cmp.rtl_vcd"), std::string::npos) << r.out;
}
