// The one interrupt mechanism of the platform: a source's interrupt output,
// bound to the endpoint's INTR register. A source raises bits of that
// register; the bit numbers are defined once, in pcie/bar0_regs.h (AVP_INTR_*).
#pragma once
#include <cstdint>
#include <functional>

namespace avp {

class InterruptOut {
 public:
  using Sink = std::function<void(uint32_t bits)>;
  void bind(Sink sink) { sink_ = std::move(sink); }
  bool bound() const { return static_cast<bool>(sink_); }
  // Unbound (a model tested on its own), a raise goes nowhere.
  void raise(uint32_t bits) const {
    if (sink_) sink_(bits);
  }

 private:
  Sink sink_;
};

}  // namespace avp
