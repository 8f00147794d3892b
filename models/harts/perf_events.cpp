#include "harts/perf_events.h"

namespace avp::rv {

PerfEvent perf_event(Op op) {
  switch (op) {
    case LB: case LBU: return kEvLoad1;
    case LH: case LHU: return kEvLoad2;
    case LW: case LWU: case FLW: case LR_W: return kEvLoad4;
    case LD: case FLD: case LR_D: return kEvLoad8;
    case SB: return kEvStore1;
    case SH: return kEvStore2;
    case SW: case FSW: return kEvStore4;
    case SD: case FSD: return kEvStore8;
    default: break;
  }
  if (op >= LR_W && op <= AMOMAXU_D) return op >= LR_D ? kEvStore8 : kEvStore4;  // SC and AMOs
  switch (op_class(op)) {
    case OpClass::Alu: case OpClass::Mul: case OpClass::Div: return kEvInt;
    case OpClass::Fp: case OpClass::FpDiv: return kEvFloat;
    case OpClass::Branch: case OpClass::Jump: return kEvBranch;
    default: return kEvOther;
  }
}

uint64_t event_counter(const uint64_t* e, uint64_t minstret, unsigned id) {
  switch (id) {
    case 3: return e[kEvLoad1];   // READ_BYTE_INSN
    case 4: return e[kEvLoad2];   // READ_SHORT_INSN
    case 5: return e[kEvLoad4];   // READ_WORD_INSN
    case 6: return e[kEvLoad8];   // READ_DOUBLE_INSN
    case 8: return e[kEvLoad1] + e[kEvLoad2] + e[kEvLoad4] + e[kEvLoad8];  // READ_INSN
    case 9: return e[kEvStore1];  // WRITE_BYTE_INSN
    case 10: return e[kEvStore2];
    case 11: return e[kEvStore4];
    case 12: return e[kEvStore8];
    case 14: return e[kEvStore1] + e[kEvStore2] + e[kEvStore4] + e[kEvStore8];  // WRITE_INSN
    case 15: {  // INT_OPS: every instruction counts one class
      uint64_t others = 0;
      for (unsigned c = 0; c < kNumPerfEvents; ++c) others += c == kEvInt ? 0 : e[c];
      return minstret - others;
    }
    case 16: return e[kEvFloat];
    case 17: return e[kEvBranch];
    default: return 0;  // 7 and 13: 16-byte accesses, which RV64GC does not have
  }
}

}  // namespace avp::rv
