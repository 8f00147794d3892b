// A small HSA-style host runtime over the AQL front end: user-mode queues and
// signals in host memory, code objects loaded into device memory and their
// kernels found by name, dispatch with a doorbell, and waits on signals with
// a condition and a simulated-time timeout. Queue rings and signals are host physical addresses; kernel
// objects and kernarg addresses are device addresses (host memory is reached
// from the device at 0x8000_0000_0000 + P).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "aql/aql_packets.h"
#include "code_object.h"

namespace avp {

class AccelDevice;
class HostPort;

// hsa_signal_condition_t
enum class SignalCondition { kEq = 0, kNe = 1, kLt = 2, kGte = 3 };

class HsaRuntime {
 public:
  explicit HsaRuntime(HostPort& rc) : rc_(rc) {}

  struct Queue {
    unsigned index;    // BAR0 registration slot
    uint64_t amd_queue; // host physical address of amd_queue_t
    uint64_t ring;
    uint32_t size;
  };
  // A queue of `size` packets (a power of two) registered in slot `index`.
  Queue create_queue(unsigned index, uint32_t size);
  // As hsa_amd_profiling_set_profiler_enabled: completion signals get start_ts/end_ts.
  void set_profiling(const Queue& q, bool enable);
  uint64_t create_signal(int64_t value);  // host physical address of an amd_signal_t
  int64_t signal_value(uint64_t signal);
  // Waits until `value(signal) cond value` holds; false on timeout (simulated time).
  bool wait_signal(uint64_t signal, SignalCondition cond, int64_t value, const sc_core::sc_time& timeout);
  bool wait_signal_eq(uint64_t signal, int64_t value, const sc_core::sc_time& timeout) {
    return wait_signal(signal, SignalCondition::kEq, value, timeout);
  }

  // Loads a code object into device DRAM; kNone or the error (message in load_error()).
  CodeObjectError load_code_object(AccelDevice& dev, const std::string& path);
  const std::string& load_error() const { return load_error_; }
  // A kernel of the loaded code objects (the first loaded wins), or null.
  const KernelInfo* find_kernel(const std::string& name) const;
  // Kernel arguments in device memory (kernarg_align, at least 16 bytes),
  // `len` must equal the kernel's kernarg size; 0 when it does not or out of memory.
  uint64_t alloc_kernarg(AccelDevice& dev, const KernelInfo& kernel, const void* args, uint64_t len);
  // A kernel-dispatch packet (barrier bit set) for a `dims`-dimensional grid.
  // Its segment sizes are the dynamic amounts: the processor adds the
  // descriptor's fixed sizes (docs/aql.md, "Processing").
  static aql::hsa_kernel_dispatch_packet_t kernel_packet(const KernelInfo& kernel, unsigned dims, const uint32_t (&grid)[3],
                                                         const uint16_t (&workgroup)[3], uint64_t kernarg, uint64_t completion_signal,
                                                         uint32_t dynamic_group_segment = 0, uint32_t dynamic_private_segment = 0);
  // Writes a packet (header last) and rings the doorbell. Returns its id, or
  // kQueueFull (nothing written) when the ring holds `size` unretired packets.
  static constexpr uint64_t kQueueFull = ~0ull;
  uint64_t dispatch(Queue& q, const aql::hsa_kernel_dispatch_packet_t& packet);
  uint64_t barrier(Queue& q, bool is_and, const uint64_t (&deps)[5], uint64_t completion_signal);
  // An agent-dispatch packet (barrier bit set) of agent function `function`
  // (aql::AgentFunction, docs/aql.md "Agent dispatch").
  uint64_t agent_dispatch(Queue& q, uint16_t function, const uint64_t (&args)[4], uint64_t completion_signal);
  uint32_t queue_error(const Queue& q);

 private:
  uint64_t publish(Queue& q, const void* packet);
  HostPort& rc_;
  std::vector<CodeObject> code_objects_;
  std::string load_error_;
};

}  // namespace avp
