// Host-side helpers of the examples: place a kernel ELF linked for a window
// address into device DRAM, move data, run command buffers on the CMP.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cmdbuf.h"

namespace avp {

class AccelDevice;
class Platform;
struct WorkloadArgs;

struct LoadedKernel {
  uint64_t link_base = 0;  // the window address the ELF was linked for
  uint64_t dram = 0;       // where its bytes live in DRAM (the window target)
  uint64_t size = 0;       // bytes from link_base to the end of the image
  uint64_t entry = 0;
  // RETURN_ADDR: reaching it ends an instance. The TCIM base (from the device's
  // information block): window kernels never execute there.
  uint64_t return_addr = 0;
};

// Loads `elf` (linked at a window address; its first page is the window's
// base) so that its bytes land at `dram`, in at most `capacity` bytes;
// `write(device_addr, data, len)` places them. Throws ElfError.
LoadedKernel load_kernel(const std::string& elf, uint64_t dram, uint64_t capacity,
                         const std::function<bool(uint64_t, const void*, uint64_t)>& write);
// Loads `elf` into a fresh 1 MiB block of device DRAM through BAR2 and sets
// its return address; on failure prints "<who>: <why>" and returns false.
bool load_kernel_into(AccelDevice& dev, const char* elf, const char* who, LoadedKernel& k);
// Appends what makes a loaded kernel runnable: the window onto its image,
// an I-cache sync and the entry, return-address and stack registers.
CommandBuffer& append_kernel_setup(CommandBuffer& cb, const LoadedKernel& k);
// Submits `cb` and waits for the completion interrupt; on failure prints
// "<who>: <why>" and returns the workload's exit code (2 or 1), else 0.
int execute_and_wait(AccelDevice& dev, const CommandBuffer& cb, const char* who);
// Timed host writes/reads through the device interconnect; false on an error response.
bool host_write(Platform& p, uint64_t addr, const void* data, uint64_t len);
bool host_read(Platform& p, uint64_t addr, void* data, uint64_t len);
// Places the buffer at `addr`, submits it and waits until the CMP is idle.
// Returns the CMP error code (0 when the buffer finished).
unsigned run_command_buffer(Platform& p, const CommandBuffer& cb, uint64_t addr);

// The optional first workload argument, in [lo, hi]: false with a message
// ("<workload>: argument ... is not a number in lo..hi") when it is not.
bool arg_in(const WorkloadArgs& args, const char* workload, uint32_t lo, uint32_t hi, uint32_t& value);

}  // namespace avp
