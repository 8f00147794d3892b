// The command processor as the host sees it through BAR0 (platform.md section 5).
// Implemented by the CommandProcessor; used by the PCIe endpoint's BAR0 block.
#pragma once
#include <cstdint>
#include <functional>

#include <systemc>

#include "base/interrupt_line.h"

namespace avp {

struct CmpStatusWord {
  bool busy = false;           // a buffer is executing or queued
  uint32_t error_code = 0;     // 0: no error since the last CMP_RESET/read-clear
  uint64_t error_offset = 0;   // byte offset of the failing packet in its buffer
  uint32_t error_info = 0;     // opcode | hart << 8 | ... (layout in cmp_regs.h)
  uint64_t error_pc = 0;
  uint64_t error_cause = 0;
};

class CmpHostInterface {
 public:
  virtual ~CmpHostInterface() = default;
  // Queues a command buffer at a device address. Returns false when the
  // 16-entry queue is full: nothing queued is dropped and CMP_QUEUE_FULL rises.
  virtual bool submit(uint64_t device_addr, uint64_t size) = 0;
  // The same for a buffer run on behalf of an Acceldev context: the CMP's
  // accesses for it, the kernels it launches and the DMA they program carry
  // `context` (base/unit.h). `on_end(finished)` is called once when this
  // buffer ends: true after its FINISH, false when it failed or CMP_RESET
  // dropped it.
  virtual bool submit_for(uint64_t device_addr, uint64_t size, uint32_t context,
                          std::function<void(bool finished)> on_end) = 0;
  virtual unsigned free_slots() const = 0;
  virtual uint64_t completed_count() const = 0;
  virtual CmpStatusWord status() const = 0;
  virtual void reset() = 0;
  // True when no buffer is queued or running; idle_event() fires when that becomes so.
  virtual bool idle() const = 0;
  virtual const sc_core::sc_event& idle_event() const = 0;
  // CMDBUF_DONE, CMP_ERROR and CMP_QUEUE_FULL (AVP_INTR_*, pcie/bar0_regs.h),
  // bound to the endpoint's INTR register.
  IntrBits irq;
};

}  // namespace avp
