// The firmware boot flow: `accel-vp boot --firmware FW [--kernel IMAGE]`.
#pragma once
#include <cstdint>
#include <string>

namespace avp {

struct BootMachine;
class GdbServer;

struct BootOptions {
  std::string firmware;               // ELF, or a raw binary placed at firmware_addr
  uint64_t firmware_addr = 0x80000000;
  std::string kernel;                 // the next stage: ELF or raw image (optional)
  uint64_t kernel_addr = 0x80200000;  // where OpenSBI's generic fw_jump jumps (FW_JUMP_ADDR)
  std::string initrd;                 // an initramfs placed after the kernel (optional; needs --kernel)
  unsigned harts = 1;
  std::string dtb;                    // a device-tree blob to use instead of the generated one
  uint64_t dtb_addr = 0;              // 0: default_dtb_address()
  std::string bootargs;
  std::string uart = "stdio";         // UART backend: stdio, tcp:PORT, pty
};

// Loads the images and the device tree, starts harts 0..harts-1 at the
// firmware entry in M-mode with a0 = hart id, a1 = device-tree address and
// waits until the firmware powers off (its exit code) or every hart has stopped
// (1); Ctrl-C and SIGTERM stop the session as any run (130, 143). Bad options and files return 2
// with a message on stderr.
int run_boot(BootMachine& m, const BootOptions& o, GdbServer* gdb = nullptr);

}  // namespace avp
