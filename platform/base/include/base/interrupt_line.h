// The platform's one interrupt mechanism: a source's output line, which whoever
// wires the platform binds to its sink (a hart's interrupt input, a PLIC
// source, the endpoint's INTR register, the PCIe root complex). What a line
// carries is its signal type:
//   LevelLine  a wire's level: the CLINT's MSIP/MTIP and the PLIC's MEIP/SEIP
//              per hart, the UART, PCIe INTx;
//   IntrBits   status bits a front end raises into the endpoint's INTR register
//              (AVP_INTR_*, ACCELDEV_INTR_* in pcie/bar0_regs.h);
//   MsiLine    a PCIe message-signalled interrupt (the message's address and data).
// An unbound line (a model tested on its own) signals nothing.
#pragma once
#include <cstdint>
#include <functional>

namespace avp {

template <typename Signal>
class InterruptLine {
 public:
  using Sink = std::function<void(Signal)>;
  void bind(Sink sink) { sink_ = std::move(sink); }
  void unbind() { sink_ = nullptr; }
  bool bound() const { return static_cast<bool>(sink_); }
  void signal(Signal s) const {
    if (sink_) sink_(s);
  }

 private:
  Sink sink_;
};

struct MsiMessage {
  uint64_t address;
  uint32_t data;
};

using LevelLine = InterruptLine<bool>;
using IntrBits = InterruptLine<uint32_t>;
using MsiLine = InterruptLine<MsiMessage>;

}  // namespace avp
