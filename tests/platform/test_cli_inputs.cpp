// Inputs that must be errors: exit status 2 and a line naming what is wrong
// (numbers, YAML, files, command line, command buffers, ELF headers).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "cli_runner.h"

using avp_test::run_accel_vp;
using avp_test::write_text;

namespace {

void expect_error(const std::string& args, const std::string& message) {
  const auto r = run_accel_vp(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
}

}  // namespace

TEST(CliInputs, NumbersThatMeanNothingAreRefusedNamingTheParameter) {
  expect_error("--set dma.bandwidth=nan info", "dma.bandwidth");
  expect_error("--set dma.bandwidth=inf info", "not a finite number");
  expect_error("--set dma.bandwidth=-4 info", "negative");
  expect_error("--set dma.bandwidth=1e999 info", "dma.bandwidth");
  expect_error("--set dram.size=99999999999999999999 info", "dram.size");
  expect_error("--set platform.quantum=1fs info", "time resolution");
  expect_error("--set platform.quantum=-1ns info", "platform.quantum");
  // A derived size is not a parameter: setting it names what defines it.
  expect_error("--set tcdm.size=1MiB info", "platform.cores x platform.tcdm_per_core");
  // Zero needs no unit.
  EXPECT_EQ(run_accel_vp("--set platform.time_limit=0 info").code, 0);
}

TEST(CliInputs, EveryErrorOfAConfigFileIsReportedWithItsLine) {
  write_text("inputs_bad.yaml",
             "platform:\n  seed: 1\n  seed: 2\n  quantum: 1 fs\ndma:\n  bandwidth: nan\n  chanels: 3\n? [a, b]\n: 1\n");
  const auto r = run_accel_vp("--config inputs_bad.yaml info");
  EXPECT_EQ(r.code, 2) << r.out;
  for (const char* m : {"inputs_bad.yaml:3: parameter platform.seed is given twice", "inputs_bad.yaml:4: parameter platform.quantum",
                        "inputs_bad.yaml:6: parameter dma.bandwidth", "inputs_bad.yaml:7: unknown parameter 'dma.chanels'",
                        "did you mean 'dma.channels'?", "inputs_bad.yaml:8: keys are parameter names"})
    EXPECT_NE(r.out.find(m), std::string::npos) << m << "\n" << r.out;
}

TEST(CliInputs, MultiDocumentYamlIsRefused) {
  write_text("inputs_two_docs.yaml", "platform:\n  seed: 3\n---\nplatform:\n  seed: 4\n");
  expect_error("--config inputs_two_docs.yaml info", "inputs_two_docs.yaml:4: a second YAML document");
}

TEST(CliInputs, MisspeltParametersGetASuggestion) {
  expect_error("--set dram.read_latncy=5ns info", "did you mean 'dram.read_latency'?");
}

TEST(CliInputs, DerivedValueErrorsNameTheParameterTheUserSet) {
  expect_error("--set harts.icache.ways=3 info", "harts.icache.ways = 3 was set at --set harts.icache.ways=3");
}

TEST(CliInputs, ImpossibleShapesAreRefusedBeforeAllocation) {
  expect_error("--set platform.harts_per_core=100000 info", "platform.harts_per_core = 100000 was set");
  expect_error("--set platform.cores=0 info", "platform.cores = 0: must be at least 1");
  expect_error("--set dma.channels=100000 info", "dma.channels = 100000: must be 1..64");
}

TEST(CliInputs, CommandLineErrorsExitWithStatus2) {
  expect_error("--no-such-option info", "--no-such-option");
  expect_error("run memcheck extra-argument", "extra-argument");
  expect_error("--gdb 70000 run", "--gdb");
  expect_error("--gdb -1 run", "--gdb");
  expect_error("run memcheck --elf prog.elf", "excludes");
  expect_error("run --elf \"\"", "--elf: an empty name");
  expect_error("sweep --jobs 0", "--jobs: Value 0 not in range 1 to 4096");
}

TEST(CliInputs, InputFilesMustBeRegularFiles) {
  mkdir("inputs_dir", 0755);
  expect_error("--config inputs_dir info", "inputs_dir: configuration file is a directory");
  expect_error("run --elf inputs_dir", "inputs_dir: is a directory");
  unlink("inputs_fifo");
  ASSERT_EQ(mkfifo("inputs_fifo", 0644), 0);
  expect_error("--config inputs_fifo info", "not a regular file");  // would block reading a FIFO
  expect_error("-o inputs_out cmdbuf inputs_fifo", "inputs_fifo: is not a regular file");
  expect_error("-o inputs_out cmdbuf /dev/null", "/dev/null: is not a regular file");
  expect_error("-o inputs_out run --elf inputs_fifo", "not a regular file");
}

TEST(CliInputs, CommandBuffersMustBeWhole8ByteChunks) {
  write_text("inputs_partial.bin", std::string(12, '\0'));
  expect_error("-o inputs_out cmdbuf inputs_partial.bin", "not a whole number of 8-byte chunks (4 trailing bytes)");
}

TEST(CliInputs, CommandBuffersLargerThanDeviceMemoryAreRefused) {
  write_text("inputs_big.bin", std::string(2 << 20, '\0'));
  expect_error("-o inputs_out --set dram.size=2MiB cmdbuf inputs_big.bin", "do not fit");
}

TEST(CliInputs, DumpLengthsAreBoundedAndFailedDumpsExitNonZero) {
  write_text("inputs_end.bin", std::string("\0\x01\0\xC0\0\0\0\0", 8));  // END
  expect_error("-o inputs_out cmdbuf inputs_end.bin --dump 0x40000000:0x100000000", "--dump");
  expect_error("-o inputs_out cmdbuf inputs_end.bin --dump 0x40000000:0x10000000000000000", "--dump length");
  expect_error("-o inputs_out cmdbuf inputs_end.bin --dump 0x30000000:16", "not device memory");
  const auto r = run_accel_vp("-o inputs_out cmdbuf inputs_end.bin --dump 0x40000000:16");
  EXPECT_EQ(r.code, 0) << r.out;
}

namespace {

// A minimal ELF64 header of a RISC-V executable with one program header slot.
std::string elf_header(unsigned char data_encoding, uint16_t phentsize) {
  std::vector<unsigned char> h(64 + 56, 0);
  const unsigned char ident[] = {0x7f, 'E', 'L', 'F', 2, data_encoding, 1};
  std::memcpy(h.data(), ident, sizeof ident);
  auto put16 = [&](size_t at, uint16_t v) {
    h[at] = data_encoding == 1 ? v & 0xFF : v >> 8;
    h[at + 1] = data_encoding == 1 ? v >> 8 : v & 0xFF;
  };
  put16(16, 2);    // ET_EXEC
  put16(18, 243);  // EM_RISCV
  h[data_encoding == 1 ? 20 : 23] = 1;  // EV_CURRENT
  h[data_encoding == 1 ? 32 : 39] = 64;  // e_phoff
  put16(52, 64);                         // e_ehsize
  put16(54, phentsize);
  put16(56, 1);  // e_phnum
  return std::string(h.begin(), h.end());
}

}  // namespace

TEST(CliInputs, ElfHeadersThatCannotBeReadAreNamed) {
  write_text("inputs_be.elf", elf_header(2, 56));
  expect_error("-o inputs_out run --elf inputs_be.elf", "big-endian ELF file");
  write_text("inputs_phent.elf", elf_header(1, 48));
  expect_error("-o inputs_out run --elf inputs_phent.elf", "e_phentsize is 48, not 56");
}

TEST(CliInputs, TheTcdmSizeFollowsTheCoresAndThePerCoreSize) {
  const auto three = run_accel_vp("--set platform.cores=3 info");
  ASSERT_EQ(three.code, 0) << three.out;
  EXPECT_NE(three.out.find("0x000018000000 .. 0x000018bfffff  tcdm "), std::string::npos) << three.out;  // 3 x 4 MiB
  const auto small = run_accel_vp("--set platform.tcdm_per_core=1MiB info");
  ASSERT_EQ(small.code, 0) << small.out;
  EXPECT_NE(small.out.find("0x000018000000 .. 0x0000181fffff  tcdm "), std::string::npos) << small.out;  // 2 x 1 MiB
}

// `boot` checks every input file (regular, and its size against the memory it
// goes to) before reading it: no endless read of /dev/zero, no hang on a FIFO,
// no allocation of a huge sparse file.
TEST(CliInputs, BootInputFilesAreCheckedBeforeTheyAreRead) {
  mkdir("boot_inputs_dir", 0755);
  unlink("boot_inputs_fifo");
  ASSERT_EQ(mkfifo("boot_inputs_fifo", 0644), 0);
  write_text("boot_fw.bin", std::string("\x73\x00\x50\x10", 4));  // wfi: a raw firmware
  {
    std::ofstream sparse("boot_sparse.bin", std::ios::binary);
  }
  ASSERT_EQ(truncate("boot_sparse.bin", 3ll << 30), 0);
  const std::string boot = "-o boot_inputs_out boot ";
  expect_error(boot + "--firmware /dev/zero", "--firmware /dev/zero: is not a regular file");
  expect_error(boot + "--firmware boot_inputs_fifo", "--firmware boot_inputs_fifo: is not a regular file");
  expect_error(boot + "--firmware boot_inputs_dir", "--firmware boot_inputs_dir: is a directory");
  expect_error(boot + "--firmware boot_sparse.bin", "--firmware boot_sparse.bin: 3221225472 bytes at 0x80000000 do not fit");
  expect_error(boot + "--firmware boot_fw.bin --kernel /dev/zero", "--kernel /dev/zero: is not a regular file");
  expect_error(boot + "--firmware boot_fw.bin --kernel boot_sparse.bin", "--kernel boot_sparse.bin: 3221225472 bytes");
  expect_error(boot + "--firmware boot_fw.bin --dtb /dev/zero", "--dtb /dev/zero: is not a regular file");
  expect_error(boot + "--firmware boot_fw.bin --dtb boot_inputs_fifo", "--dtb boot_inputs_fifo: is not a regular file");
  expect_error(boot + "--firmware boot_fw.bin --dtb boot_inputs_dir", "--dtb boot_inputs_dir: is a directory");
  expect_error(boot + "--firmware boot_fw.bin --dtb boot_sparse.bin", "--dtb boot_sparse.bin: 3221225472 bytes");
  expect_error(boot + "--firmware boot_fw.bin --dtb boot_fw.bin", "--dtb boot_fw.bin: not a device-tree blob (4 bytes)");
  EXPECT_TRUE(std::ifstream("boot_inputs_out/manifest.json").good());
  unlink("boot_sparse.bin");
}

// Deep nesting is named as such (yaml-cpp says "bad file"); a huge bad value
// or name is cut in the message, not echoed whole.
TEST(CliInputs, DeepYamlAndHugeValuesGetShortClearErrors) {
  write_text("inputs_deep.yaml", "platform: " + std::string(5000, '['));
  expect_error("--config inputs_deep.yaml info", "inputs_deep.yaml:1: nested more than");
  const std::string huge(60000, '7');  // one argument of a command line holds at most 128 KiB
  auto r = run_accel_vp("--set platform.cores=x" + huge + " info");
  EXPECT_EQ(r.code, 2) << r.out.substr(0, 2000);
  EXPECT_NE(r.out.find("'x777"), std::string::npos) << r.out.substr(0, 2000);
  EXPECT_NE(r.out.find("...' (60001 bytes)"), std::string::npos) << r.out.substr(0, 2000);
  EXPECT_LT(r.out.size(), 4096u);
  r = run_accel_vp("--set no.such" + huge + "=1 info");
  EXPECT_EQ(r.code, 2) << r.out.substr(0, 2000);
  EXPECT_NE(r.out.find("unknown parameter 'no.such777"), std::string::npos) << r.out.substr(0, 2000);
  EXPECT_LT(r.out.size(), 4096u);
}
