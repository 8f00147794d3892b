// Data watchpoints of the GDB server (packets Z2 write, Z3 read, Z4 access)
// and the data access an instruction is about to make. GDB's RISC-V port has
// non-steppable watchpoints: it expects the stop before the access, with the
// pc at the accessing instruction, then steps over it itself (with the
// watchpoints removed) and compares old and new values.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "harts/hart_state.h"
#include "harts/rv_insn.h"

namespace avp {

struct DataAccess {
  uint64_t addr = 0;
  unsigned len = 0;
  bool read = false, write = false;
};

// The memory operand of `insn` with the registers in `s`; false when it
// accesses no data memory (host calls and xintf devices are not watched).
bool data_access(const rv::Insn& insn, const rv::HartState& s, DataAccess& a);

class Watchpoints {
 public:
  enum Kind : unsigned { Write = 2, Read = 3, Access = 4 };  // the Z packet types
  void insert(Kind kind, uint64_t addr, uint64_t len);
  bool remove(Kind kind, uint64_t addr, uint64_t len);
  bool empty() const { return list_.empty(); }
  // The stop-reply field of the first watchpoint `a` triggers ("watch:ADDR;",
  // "rwatch:ADDR;" or "awatch:ADDR;", ADDR inside the watched range), or "".
  std::string hit(const DataAccess& a) const;

 private:
  struct Watch {
    Kind kind;
    uint64_t addr, len;
  };
  std::vector<Watch> list_;
};

}  // namespace avp
