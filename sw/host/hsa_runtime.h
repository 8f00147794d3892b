// A small HSA-style host runtime over the AQL front end: user-mode queues and
// signals in host memory, kernel descriptors in device memory, dispatch with
// a doorbell, and waits on signals with a condition and a simulated-time
// timeout. Queue rings and signals are host physical addresses; kernel
// objects and kernarg addresses are device addresses (host memory is reached
// from the device at 0x8000_0000_0000 + P).
#pragma once
#include <cstdint>

#include <systemc>

#include "aql/aql_packets.h"

namespace avp {

class PcieRootComplex;

class HsaRuntime {
 public:
  explicit HsaRuntime(PcieRootComplex& rc) : rc_(rc) {}

  struct Queue {
    unsigned index;    // BAR0 registration slot
    uint64_t amd_queue; // host physical address of amd_queue_t
    uint64_t ring;
    uint32_t size;
  };
  // A queue of `size` packets (a power of two) registered in slot `index`.
  Queue create_queue(unsigned index, uint32_t size);
  uint64_t create_signal(int64_t value);  // host physical address of an amd_signal_t
  int64_t signal_value(uint64_t signal);
  // Waits until the signal's value == value; false on timeout (simulated time).
  bool wait_signal_eq(uint64_t signal, int64_t value, const sc_core::sc_time& timeout);
  // Writes a packet (header last) and rings the doorbell. Returns its id.
  uint64_t dispatch(Queue& q, const aql::hsa_kernel_dispatch_packet_t& packet);
  uint64_t barrier(Queue& q, bool is_and, const uint64_t (&deps)[5], uint64_t completion_signal);
  uint32_t queue_error(const Queue& q);

 private:
  uint64_t publish(Queue& q, const void* packet);
  PcieRootComplex& rc_;
};

}  // namespace avp
