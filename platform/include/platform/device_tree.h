// The flattened device tree of the platform as firmware sees it (libfdt),
// generated from the resolved parameters: cpus with their ISA and interrupt
// controllers, memory, CLINT, PLIC, UART, the power-off device, chosen and,
// for the host system, the ECAM PCIe host bridge.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace avp {

class Platform;
struct BootMachine;

struct DeviceTreeOptions {
  unsigned harts = 1;     // harts listed (0 .. harts-1)
  std::string bootargs;   // chosen/bootargs (omitted when empty)
  bool htif = false;      // an "ucb,htif0" node (firmware with tohost/fromhost symbols)
  uint64_t initrd_start = 0, initrd_end = 0;  // chosen/linux,initrd-start and -end (omitted when equal)
};

// The blob (throws std::runtime_error when libfdt fails).
std::vector<uint8_t> build_device_tree(const BootMachine& m, const DeviceTreeOptions& o);
// The memory firmware is told about: DRAM from 0x8000_0000 (where RISC-V
// firmware and U-Boot expect memory to start) to its end; the DRAM below
// stays with the accelerator's own work. All of DRAM when it does not
// contain 0x8000_0000.
constexpr uint64_t kFirmwareMemoryBase = 0x80000000;
std::pair<uint64_t, uint64_t> firmware_memory(uint64_t dram_base, uint64_t dram_size);
// Where `boot` places the tree by default: 2 MiB below the end of DRAM (as QEMU's virt machine does).
uint64_t default_dtb_address(uint64_t dram_base, uint64_t dram_size);
uint64_t default_dtb_address(const Platform& p);
// The ISA string of the harts ("rv64imafdc_zicsr_zifencei_svnapot_svpbmt").
const char* hart_isa_string();

}  // namespace avp
