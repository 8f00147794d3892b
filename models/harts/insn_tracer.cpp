#include "harts/insn_tracer.h"

#include <cinttypes>
#include <cstdio>

#include "base/symbols.h"
#include "base/text_trace.h"
#include "harts/hart_cluster.h"
#include "harts/rv_disasm.h"

namespace avp {

using namespace rv;

namespace {

// Bytes a load/store/atomic accesses; 0 for other instructions.
unsigned access_size(Op op) {
  switch (op) {
    case LB: case LBU: case SB: return 1;
    case LH: case LHU: case SH: return 2;
    case LW: case LWU: case SW: case FLW: case FSW: return 4;
    case LD: case SD: case FLD: case FSD: return 8;
    default:
      if (op >= LR_W && op <= AMOMAXU_W) return 4;
      if (op >= LR_D && op <= AMOMAXU_D) return 8;
      return 0;
  }
}

uint64_t mask(uint64_t v, unsigned size) { return size == 8 ? v : v & ((1ull << (8 * size)) - 1); }

void mem_line(uint64_t ps, const std::string& unit, char rw, unsigned size, uint64_t addr, uint64_t value) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "mem %c %u 0x%" PRIx64, rw, size, addr);
  std::string s = buf;
  const std::string sym = SymbolTable::instance().describe(addr);
  if (!sym.empty()) s += " " + sym;
  std::snprintf(buf, sizeof buf, " = 0x%0*" PRIx64, static_cast<int>(2 * size), mask(value, size));
  TextTrace::instance().line(ps, unit, s + buf);
}

}  // namespace

InsnTracer::InsnTracer(HartCluster& cluster) : cluster_(cluster), pending_(cluster.num_harts()) {
  for (unsigned h = 0; h < cluster.num_harts(); ++h) units_.push_back("hart" + std::to_string(h));
  const TextTrace& t = TextTrace::instance();
  if (!t.on(kTraceInsn) && !t.on(kTraceMem)) return;
  for (unsigned h = 0; h < cluster.num_harts(); ++h)
    if (t.hart_selected(h)) cluster.hart(h).set_tracer(this);
}

InsnTracer::~InsnTracer() {
  for (unsigned h = 0; h < cluster_.num_harts(); ++h) cluster_.hart(h).set_tracer(nullptr);
}

void InsnTracer::before(Hart& hart, uint64_t pc, const Insn& d) {
  TextTrace& t = TextTrace::instance();
  Pending& p = pending_[hart.id()];
  p.active = false;
  const uint64_t ps = to_ps(sc_core::sc_time_stamp()) + to_ps(hart.local_time());
  if (ps >= t.window_end_ps()) {
    hart.set_tracer(nullptr);  // past the window: back to full speed
    return;
  }
  if (!t.in_window(ps)) return;
  const std::string& unit = units_[hart.id()];
  if (t.on(kTraceInsn)) t.line(ps, unit, "insn " + describe_insn(pc, d));
  const Op op = static_cast<Op>(d.op);
  const unsigned size = access_size(op);
  if (!size || !t.on(kTraceMem)) return;
  const HartState& s = hart.state();
  p = Pending{s.x[d.rs1] + (op >= LR_W && op <= AMOMAXU_D ? 0 : d.imm), 0, ps, size, true};
  p.store_value = (op == FSW || op == FSD) ? s.f[d.rs2] : s.x[d.rs2];
}

void InsnTracer::after(Hart& hart, uint64_t, const Insn& d) {
  Pending& p = pending_[hart.id()];
  if (!p.active) return;
  p.active = false;
  const std::string& unit = units_[hart.id()];
  const Op op = static_cast<Op>(d.op);
  const HartState& s = hart.state();
  const OpClass cls = static_cast<OpClass>(d.cls);
  if (cls == OpClass::Load) {
    mem_line(p.ps, unit, 'R', p.size, p.addr, (op == FLW || op == FLD) ? s.f[d.rd] : s.x[d.rd]);
  } else if (cls == OpClass::Store) {
    mem_line(p.ps, unit, 'W', p.size, p.addr, p.store_value);
  } else if (op == LR_W || op == LR_D) {
    mem_line(p.ps, unit, 'R', p.size, p.addr, s.x[d.rd]);
  } else if (op == SC_W || op == SC_D) {
    if (s.x[d.rd] == 0) mem_line(p.ps, unit, 'W', p.size, p.addr, p.store_value);
  } else {  // AMO: the old value read, the new one written
    mem_line(p.ps, unit, 'R', p.size, p.addr, s.x[d.rd]);
    uint64_t v = 0;
    if (hart.debug_read(p.addr, &v, p.size)) mem_line(p.ps, unit, 'W', p.size, p.addr, v);
  }
}

}  // namespace avp
