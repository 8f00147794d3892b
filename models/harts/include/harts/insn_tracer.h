// The `insn` and `mem` categories of the text trace: every instruction a
// selected hart executes (pc, symbol, encoding, disassembly) and every data
// access it makes (R/W, size, address with its symbol, value), at the hart's
// local simulated time.
#pragma once
#include <string>
#include <vector>

#include "harts/hart_tracer.h"

namespace avp {

class HartCluster;

class InsnTracer : public HartTracer {
 public:
  // Attaches itself to the harts the text trace selects (nothing when neither
  // insn nor mem is traced).
  explicit InsnTracer(HartCluster& cluster);
  ~InsnTracer() override;
  void before(Hart& hart, uint64_t pc, const rv::Insn& d) override;
  void after(Hart& hart, uint64_t pc, const rv::Insn& d) override;

 private:
  struct Pending {
    uint64_t addr = 0, store_value = 0, ps = 0;
    unsigned size = 0;
    bool active = false;
  };
  HartCluster& cluster_;
  std::vector<Pending> pending_;  // per hart: the access of the instruction in flight
  std::vector<std::string> units_;  // per hart: "hart<N>"
};

}  // namespace avp
