// `accel-vp boot --initrd`: where the initramfs lands (a raw M-mode firmware
// reads its first word at the expected address and writes it to the power-off
// device, so the exit status is that word's code) and the errors; and
// `boot --system host` (docs/full-system.md): a raw firmware on a host hart
// reads the endpoint's device id through the ECAM window.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "pcie/bar0_regs.h"
#include "sysdev/host_system_map.h"
#include "sysdev/sysdev_regs.h"

using avp_test::run_accel_vp;

namespace {

void write_words(const std::string& path, const std::vector<uint32_t>& words) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(words.data()), static_cast<std::streamsize>(words.size() * 4));
}

// lui t0, addr; zero-extend; lw t1, 0(t0); sw t1 to the power-off register; j .
std::vector<uint32_t> firmware_reading(uint32_t addr) {
  return {(addr & 0xFFFFF000u) | 0x2B7u, 0x02029293u, 0x0202D293u, 0x0002A303u,
          (AVP_POWEROFF_BASE & 0xFFFFF000u) | 0x3B7u, 0x0063A023u, 0x0000006Fu};
}

// A raw kernel of `bytes` bytes; with `image_size`, a RISC-V Linux Image header saying so.
void write_kernel(const std::string& path, size_t bytes, uint64_t image_size = 0) {
  std::vector<uint8_t> k(bytes, 0);
  if (image_size) {
    std::memcpy(k.data() + 16, &image_size, 8);
    std::memcpy(k.data() + 48, "RISCV\0\0\0", 8);
    std::memcpy(k.data() + 56, "RSC\x05", 4);
  }
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(k.data()), static_cast<std::streamsize>(k.size()));
}

void expect_error(const std::string& args, const std::string& message) {
  const auto r = run_accel_vp(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
}

}  // namespace

TEST(BootInitrd, LandsAtTheFirstTwoMiBBoundaryAfterTheKernel) {
  write_words("initrd_42.bin", {(42u << 16) | AVP_POWEROFF_FAIL, 0});
  // 3 MiB + 1 byte at 0x8020_0000 ends at 0x8050_0001: the initrd goes at 0x8060_0000.
  write_kernel("kernel_raw.bin", (3u << 20) + 1);
  write_words("fw_806.bin", firmware_reading(0x80600000u));
  auto r = run_accel_vp("boot --firmware fw_806.bin --kernel kernel_raw.bin --initrd initrd_42.bin");
  EXPECT_EQ(r.code, 42) << r.out;
  // An Image header's image_size (the kernel with its bss) counts, not the file's size.
  write_kernel("kernel_image.bin", 4096, 5u << 20);
  write_words("fw_808.bin", firmware_reading(0x80800000u));
  r = run_accel_vp("boot --firmware fw_808.bin --kernel kernel_image.bin --initrd initrd_42.bin");
  EXPECT_EQ(r.code, 42) << r.out;
}

// Files of its own: ctest may run it beside the test above, in the same directory.
TEST(BootInitrd, BadUsesAreErrors) {
  write_words("bad_fw_806.bin", firmware_reading(0x80600000u));
  write_kernel("bad_kernel_raw.bin", 4096);
  write_words("bad_initrd_42.bin", {(42u << 16) | AVP_POWEROFF_FAIL, 0});
  std::ofstream("bad_initrd_empty.bin").close();
  expect_error("boot --firmware bad_fw_806.bin --initrd bad_initrd_42.bin", "--initrd bad_initrd_42.bin: needs --kernel");
  expect_error("boot --firmware bad_fw_806.bin --kernel bad_kernel_raw.bin --initrd no_such_initrd", "--initrd no_such_initrd: cannot open");
  expect_error("boot --firmware bad_fw_806.bin --kernel bad_kernel_raw.bin --initrd bad_initrd_empty.bin", "the file is empty");
  expect_error("boot --firmware bad_fw_806.bin --kernel bad_kernel_raw.bin --initrd bad_initrd_42.bin --dtb bad_initrd_42.bin",
               "needs the generated device tree");
  // A kernel just below the device tree (2 MiB below the end of the 2 GiB DRAM): no room after it.
  expect_error("boot --firmware bad_fw_806.bin --kernel bad_kernel_raw.bin --kernel-addr 0xbfc00000 --initrd bad_initrd_42.bin",
               "do not fit in memory below the device tree");
}

// lui t0, ECAM; lhu t1, 2(t0) (the device id of bus 0 device 0 function 0);
// t1 = t1 << 16 | FAIL; sw t1 to the host's power-off device; j .
TEST(BootHostSystem, AHostHartReadsTheDeviceIdThroughEcam) {
  static_assert(AVP_HOST_ECAM_BASE == 0x30000000u && AVP_HOST_POWEROFF_BASE == 0x00100000u, "the encodings below");
  write_words("host_ecam.bin", {0x300002B7u, 0x0022D303u, 0x01031313u, 0x000033B7u, 0x33338393u, 0x00736333u,
                                0x001002B7u, 0x0062A023u, 0x0000006Fu});
  const auto r = run_accel_vp("boot --system host --firmware host_ecam.bin");
  EXPECT_EQ(r.code, AVP_PCI_DEVICE_ID) << r.out;
}

// The host system is built with the platform, so presets and --set reach its
// parameters: a slower host clock makes the same firmware take longer.
TEST(BootHostSystem, ItsParametersTakeSet) {
  write_words("host_ecam_set.bin", {0x300002B7u, 0x0022D303u, 0x01031313u, 0x000033B7u, 0x33338393u, 0x00736333u,
                                    0x001002B7u, 0x0062A023u, 0x0000006Fu});
  const auto fast = run_accel_vp("-o host_set_fast boot --system host --firmware host_ecam_set.bin");
  const auto slow =
      run_accel_vp("-o host_set_slow --set host_system.harts.clock_period=5ns boot --system host --firmware host_ecam_set.bin");
  ASSERT_EQ(fast.code, AVP_PCI_DEVICE_ID) << fast.out;
  ASSERT_EQ(slow.code, AVP_PCI_DEVICE_ID) << slow.out;
  const auto ns = [](const std::string& dir) {
    return avp_test::read_json(dir + "/manifest.json")["simulated_time_ns"].get<double>();
  };
  EXPECT_GT(ns("host_set_slow"), ns("host_set_fast"));
  expect_error("--set host_system.harts.no_such_parameter=1 boot --system host --firmware host_ecam_set.bin",
               "unknown parameter 'host_system.harts.no_such_parameter'");
}

TEST(BootHostSystem, BadUsesAreErrors) {
  write_words("host_bad.bin", {0x0000006Fu});
  expect_error("boot --system host --harts 0 --firmware host_bad.bin", "--harts 0: the host system has 1 to 1024 harts");
  // Host DRAM is the root complex's 1 GiB at 0x8000_0000.
  expect_error("boot --system host --firmware host_bad.bin --kernel host_bad.bin --kernel-addr 0xc0000000",
               "do not fit in memory");
  expect_error("-S boot --system host --firmware host_bad.bin", "needs --gdb PORT or -g");
  expect_error("boot --gdb-device 0 --firmware host_bad.bin", "--gdb-device needs --system host");
  const auto r = run_accel_vp("boot --system guest --firmware host_bad.bin");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--system"), std::string::npos) << r.out;
}
