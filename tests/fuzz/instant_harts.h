// Harts for the libFuzzer rigs: each instance ends 10 ns after its launch
// (a misaligned pc traps), so fuzzed work runs fast and deterministically.
#pragma once
#include <systemc>

#include "harts/hart_control.h"

namespace avp {

class InstantHarts : public HartControl {
 public:
  unsigned num_harts() const override { return 4; }
  unsigned num_cores() const override { return 1; }
  bool hart_idle(unsigned h) const override { return !busy_[h]; }
  void launch(unsigned h, const HartLaunch& l, std::function<void(const HartExit&)> done) override;
  const sc_core::sc_event& hart_idle_event() const override { return idle_; }
  void stop(unsigned) override {}  // every instance ends 10 ns after its launch anyway
  uint64_t hart_pc(unsigned) const override { return 0; }
  sc_core::sc_time flush_dcaches() override { return sc_core::SC_ZERO_TIME; }
  sc_core::sc_time invalidate_icaches() override { return sc_core::SC_ZERO_TIME; }

 private:
  bool busy_[4] = {};
  sc_core::sc_event idle_;
};

}  // namespace avp
