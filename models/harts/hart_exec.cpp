// The switch interpreter of the observed loop (a debugger, tracer or armed
// triggers see every instruction), and the instructions both loops hand to
// out-of-line code (atomics, floating point, extension and system
// instructions). hart_chain.cpp has the threaded loop for everything else.
#include "harts/hart.h"
#include "harts/hart_cluster.h"
#include "rv_semantics.h"

namespace avp {

using namespace rv;

[[gnu::always_inline]] inline uint64_t Hart::exec(const Insn& d, uint64_t pc) {
  uint64_t* x = hot_.s.x;
  const uint64_t a = x[d.rs1], b = x[d.rs2];
  const uint64_t next = pc + d.len;
  uint64_t r = 0;
  switch (d.op) {
#define AVP_CASE_RESULT(op, e) \
  case op: r = (e); break;
    AVP_RV_RESULT_OPS(AVP_CASE_RESULT)
    AVP_RV_LOAD_OPS(AVP_CASE_RESULT)
#undef AVP_CASE_RESULT
#define AVP_CASE_STORE(op, T) \
  case op: store<T>(a + d.imm, static_cast<T>(b)); return next;
    AVP_RV_STORE_OPS(AVP_CASE_STORE)
#undef AVP_CASE_STORE
#define AVP_CASE_BRANCH(op, c) \
  case op: return (c) ? pc + d.imm : next;
    AVP_RV_BRANCH_OPS(AVP_CASE_BRANCH)
#undef AVP_CASE_BRANCH
#define AVP_CASE_JUMP(op, t) \
  case op: { const uint64_t target = (t); x[d.rd] = next; x[0] = 0; return target; }
    AVP_RV_JUMP_OPS(AVP_CASE_JUMP)
#undef AVP_CASE_JUMP
    case FENCE: return next;
    default: return exec_other(d, pc);
  }
  x[d.rd] = r;
  x[0] = 0;
  return next;
}

bool Hart::other_needs_kernel(const Insn& d) const {
  if (d.op >= FLW && d.op <= FMV_D_X) return false;  // their loads and stores ask the data path
  // An atomic runs where its accesses do: in the hart's fast regions or
  // kept pages, over lines it holds claims on (a write claim for SC and
  // AMOs), which no other slice of the batch reads or writes; so it is
  // atomic there too. Else it stops, before anything is counted, for the
  // hart's thread (a page walk, a claim, a device). A misaligned one traps
  // in the slice (exec_atomic). Asked here, before exec_other, so that the
  // stop needs no unwind (4-hart Linux boot: 67 000 stops).
  if (d.op >= LR_W && d.op <= AMOMAXU_D) {
    const uint64_t addr = hot_.s.x[d.rs1];
    const unsigned size = d.op >= LR_D ? 8 : 4;
    const bool lr = d.op == LR_W || d.op == LR_D;
    return !(addr & (size - 1)) && !data_.in_regions(addr, size, !lr);
  }
  // xext/xcmd reach devices; ECALL and EBREAK catch up with SystemC (host
  // calls, the debugger); a WFI with no interrupt pending sleeps; a write of
  // a trigger may arm it (observed()). The other system instructions and
  // CSRs change only the hart, as does a WFI that does not sleep (it goes
  // on, or traps, which a slice does itself).
  if (d.op == XCMD || d.op == XEXT || d.op == ECALL || d.op == EBREAK)
    return true;
  if (d.op == WFI) return !(hot_.s.mip & hot_.s.mie);
  const auto csr = static_cast<unsigned>(d.imm);
  return d.op >= CSRRW && d.op <= CSRRCI && csr >= CSR_TSELECT && csr <= CSR_TCONTROL;
}

uint64_t Hart::exec_other(const Insn& d, uint64_t pc) {
  if (slice_.in_slice() && other_needs_kernel(d)) throw NeedsKernel{};
  const uint64_t next = pc + d.len;
  if (d.op >= LR_W && d.op <= AMOMAXU_D) {
    const uint64_t r = exec_atomic(d);
    hot_.s.x[d.rd] = r;
    hot_.s.x[0] = 0;
    return next;
  }
  if (d.op >= FLW && d.op <= FMV_D_X) {
    exec_fp(d);
    return next;
  }
  if (d.op == XCMD || d.op == XEXT) {
    exec_xintf(d);
    return next;
  }
  if (d.op == FENCE_I) {
    refetch_ = hot_.block_abort = true;
    return next;
  }
  return exec_system(d, pc);
}

// The loop of a debugger, tracer or armed triggers: every instruction retires at once.
void Hart::run_observed(const Block& b, uint32_t from) {
  uint64_t pc = hot_.s.pc;
  const uint64_t* cost_ps = cluster_.cost_ps();
  const uint64_t* cost_cycles = cluster_.cost_cycles();
  const Insn* const first = b.insns.data();
  const Insn* const end = first + b.insns.size();
  for (const Insn* it = first + from; it != end; ++it) {
    const Insn& d = *it;
    hot_.s.pc = pc;
    if (debug_) {
      debug_->before_instruction(*this, d, pc);
      const bool moved = hot_.s.pc != pc;  // the debugger moved the pc
      if (hot_.stop || moved) {
        history_.end_block_early(static_cast<uint32_t>(it - first));
        if (moved) pc = hot_.s.pc;
        break;
      }
    }
    // Breakpoint exceptions of triggers (action 0) before the instruction does anything.
    if (triggers_.native_armed())
      if (const auto hit = triggers_.match(d, pc, hot_.s, false)) throw TrapException{kBreakpoint, hit->tval};
    if (tracer_) tracer_->before(*this, pc, d);
    const uint64_t next = exec(d, pc);
    if (tracer_) tracer_->after(*this, pc, d);
    ++hot_.s.minstret;
    hot_.s.events[d.event] += d.event != kEvInt;  // HartState::events
    hot_.s.extra_cycles += cost_cycles[d.cls] - 1;
    hot_.time.add_ps(cost_ps[d.cls]);
    pc = next;
    if (hot_.block_abort || hot_.stop) {
      history_.end_block_early(static_cast<uint32_t>(it - first + 1));
      break;
    }
  }
  if (!hot_.stop) hot_.s.pc = pc;
}

uint64_t Hart::exec_atomic(const Insn& d) {
  const uint64_t addr = hot_.s.x[d.rs1];
  const uint64_t src = hot_.s.x[d.rs2];
  const bool dbl = d.op >= LR_D;
  const unsigned size = dbl ? 8 : 4;
  const bool lr = d.op == LR_W || d.op == LR_D;
  if (addr & (size - 1)) throw TrapException{lr ? kLoadMisaligned : kStoreMisaligned, addr};
  // In a slice its accesses lie in the hart's regions (other_needs_kernel).
  // Reservations hold physical addresses. SC and AMOs need write permission
  // (a store/AMO fault) before their read.
  const uint64_t pa = data_.checked() ? mmu_.translate_data(addr, size, lr ? kAccessRead : kAccessWrite, mmu_.data_priv()).pa : addr;
  if (lr) {
    uint64_t v = dbl ? load<uint64_t>(addr) : static_cast<uint64_t>(static_cast<int32_t>(load<uint32_t>(addr)));
    const auto lk = shared_lock();  // other harts' stores break reservations (HartCluster::break_reservations)
    reservation_ = pa;
    cluster_.note_reservation();
    return v;
  }
  if (d.op == SC_W || d.op == SC_D) {
    bool ok;
    {
      const auto lk = shared_lock();
      ok = reservation_ == pa;
      reservation_ = ~0ull;
    }
    if (!ok) return 1;
    if (dbl) store<uint64_t>(addr, src);
    else store<uint32_t>(addr, static_cast<uint32_t>(src));
    return 0;
  }
  // Read-modify-write: in the simulation thread harts run one at a time, and
  // in a slice no other one touches the claimed line, so the load and store
  // below are atomic with respect to every other hart.
  const uint64_t old = dbl ? load<uint64_t>(addr) : static_cast<uint64_t>(static_cast<int32_t>(load<uint32_t>(addr)));
  uint64_t v = 0;
  const Op base = static_cast<Op>(dbl ? d.op - (LR_D - LR_W) : d.op);
  const int64_t so = dbl ? static_cast<int64_t>(old) : static_cast<int32_t>(old);
  const int64_t ss = dbl ? static_cast<int64_t>(src) : static_cast<int32_t>(src);
  const uint64_t uo = dbl ? old : static_cast<uint32_t>(old), us = dbl ? src : static_cast<uint32_t>(src);
  switch (base) {
    case AMOSWAP_W: v = src; break;
    case AMOADD_W: v = old + src; break;
    case AMOXOR_W: v = old ^ src; break;
    case AMOAND_W: v = old & src; break;
    case AMOOR_W: v = old | src; break;
    case AMOMIN_W: v = so < ss ? old : src; break;
    case AMOMAX_W: v = so > ss ? old : src; break;
    case AMOMINU_W: v = uo < us ? old : src; break;
    case AMOMAXU_W: v = uo > us ? old : src; break;
    default: illegal(d);
  }
  if (dbl) store<uint64_t>(addr, v);
  else store<uint32_t>(addr, static_cast<uint32_t>(v));
  return old;
}

}  // namespace avp
