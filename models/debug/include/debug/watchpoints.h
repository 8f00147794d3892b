// The debugger's hardware breakpoints (packet Z1) and data watchpoints (Z2
// write, Z3 read, Z4 access), kept where hardware keeps them: in each hart's
// trigger module (Sdtrig, harts/triggers.h) as dmode triggers whose action
// enters Debug Mode. A point takes one trigger on every hart (a chained pair
// for a range that is not a naturally aligned power of two), so there are as
// many as `harts.triggers` allows; firmware cannot change them.
// GDB's RISC-V port has non-steppable watchpoints: it expects the stop before
// the access, with the pc at the accessing instruction, then steps over it
// itself (with the watchpoints removed) and compares old and new values.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "harts/triggers.h"

namespace avp {

class Watchpoints {
 public:
  enum Kind : unsigned { Break = 1, Write = 2, Read = 3, Access = 4 };  // the Z packet types
  // One trigger module per hart, in hart order.
  explicit Watchpoints(std::vector<rv::Triggers*> units) : units_(std::move(units)) {}
  // False when some hart has no free trigger (pair) left: nothing is inserted.
  bool insert(Kind kind, uint64_t addr, uint64_t len);
  bool remove(Kind kind, uint64_t addr, uint64_t len);
  void clear();
  bool empty() const { return list_.empty(); }
  // Whether a point's trigger on hart `unit` fires before `insn` at `pc`
  // (breakpoints only when `execute`). `field` is the stop-reply part of a
  // watchpoint ("watch:ADDR;", "rwatch:ADDR;" or "awatch:ADDR;", ADDR the
  // first watched byte the access touches), empty for a breakpoint.
  bool hit(unsigned unit, const rv::Insn& insn, uint64_t pc, const rv::HartState& s, bool execute, std::string& field);

 private:
  struct Point {
    Kind kind;
    uint64_t addr, len;
    std::vector<int> triggers;  // per unit: the first trigger's index
  };
  std::vector<rv::Triggers*> units_;
  std::vector<Point> list_;
};

}  // namespace avp
