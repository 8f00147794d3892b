// System instructions: ECALL/EBREAK, xRET, WFI, SFENCE.VMA, CSR access and
// the host calls of bare-metal programs and kernels (ECALL a7 = 0..3 in M-mode).
#include "harts/hart.h"
#include "harts/hart_cluster.h"
#include "harts/wait_loop.h"

namespace avp {

using namespace rv;

bool Hart::host_call() {
  switch (hot_.s.x[17]) {
    case 0:
      finish(HartExitKind::Exit, hot_.s.x[10]);
      return true;
    case 1: {
      std::string text;
      for (uint64_t a = hot_.s.x[10];; ++a) {
        char c = 0;
        if (!debug_read(a, &c, 1)) throw TrapException{kLoadAccessFault, a};
        if (c == 0) break;
        text += c;
        if (text.size() > 65536) break;  // a missing terminator must not run away
      }
      cluster_.print(*this, text);
      return true;
    }
    case 2:
      cluster_.barrier(*this);
      return true;
    case 3:
      cluster_.stats_control("hart" + std::to_string(id()) + " ecall", sc_core::sc_time_stamp() + local_time(), hot_.s.x[10], this);
      return true;
    default:
      return false;
  }
}

std::optional<TrapException> Hart::ecall() {
  settle();
  hot_.time.catch_up();
  if (hot_.s.priv == PRV_M && host_calls_ && host_call()) return std::nullopt;
  return TrapException{hot_.s.priv == PRV_U ? kEcallU : hot_.s.priv == PRV_S ? kEcallS : kEcallM, 0};
}

uint64_t Hart::exec_system(const Insn& d, uint64_t pc) {
  if (d.op == ECALL) {
    if (const std::optional<TrapException> t = ecall()) throw *t;
    return pc + d.len;
  }
  settle();  // CSRs, host calls and WFI see the instructions before this one retired
  // Host calls and the debugger are seen by other processes; CSR accesses,
  // xRET, SFENCE.VMA and a WFI change only the hart (one that sleeps syncs).
  if (d.op == EBREAK) hot_.time.catch_up();
  const uint64_t next = pc + d.len;
  switch (d.op) {
    case EBREAK:
      throw TrapException{kBreakpoint, pc};
    case MRET: {
      if (hot_.s.priv < PRV_M) illegal(d);
      uint64_t st = hot_.s.mstatus;
      const Priv to = static_cast<Priv>((st & mstatus::MPP) >> 11);
      st = (st & ~mstatus::MIE) | ((st & mstatus::MPIE) ? mstatus::MIE : 0);
      st |= mstatus::MPIE;
      st &= ~mstatus::MPP;
      if (to != PRV_M) st &= ~mstatus::MPRV;
      hot_.s.mstatus = st;
      hot_.s.priv = to;
      triggers_.mret();
      update_xlate();
      return hot_.s.mepc & ~1ull;
    }
    case SRET: {
      if (hot_.s.priv < PRV_S || (hot_.s.priv == PRV_S && (hot_.s.mstatus & mstatus::TSR))) illegal(d);
      uint64_t st = hot_.s.mstatus;
      const Priv to = (st & mstatus::SPP) ? PRV_S : PRV_U;
      st = (st & ~mstatus::SIE) | ((st & mstatus::SPIE) ? mstatus::SIE : 0);
      st |= mstatus::SPIE;
      st &= ~(mstatus::SPP | mstatus::MPRV);
      hot_.s.mstatus = st;
      hot_.s.priv = to;
      update_xlate();
      return hot_.s.sepc & ~1ull;
    }
    case WFI:
      if (hot_.s.priv == PRV_U || (hot_.s.priv == PRV_S && (hot_.s.mstatus & mstatus::TW))) illegal(d);
      if (!(hot_.s.mip & hot_.s.mie)) {
        sync();
        cluster_.wfi_begin(*this);
        const sc_core::sc_time asleep = sc_core::sc_time_stamp();
        while (!(hot_.s.mip & hot_.s.mie) && !timed_out_) {
          const sc_core::sc_time now = sc_core::sc_time_stamp();
          if (deadline_ == sc_core::SC_ZERO_TIME) sc_core::wait(irq_event_);
          else if (now < deadline_) sc_core::wait(deadline_ - now, irq_event_);
          else timed_out_ = hot_.block_abort = true;  // the run loop ends the instance
        }
        hot_.stall_ps[StallWfi] += to_ps(sc_core::sc_time_stamp() - asleep);
        cluster_.wfi_end(*this);
      } else {
        skip_wait_loop(d, pc);  // a WFI that does not sleep, in a loop that spins on it
      }
      return next;
    case SFENCE_VMA:
      if (hot_.s.priv == PRV_U || (hot_.s.priv == PRV_S && (hot_.s.mstatus & mstatus::TVM))) illegal(d);
      sfence(d);
      return next;
    case CSRRW: case CSRRS: case CSRRC: case CSRRWI: case CSRRSI: case CSRRCI: {
      const unsigned csr = static_cast<unsigned>(d.imm);
      const bool imm = d.op >= CSRRWI;
      const uint64_t src = imm ? d.rs1 : hot_.s.x[d.rs1];
      const bool write = (d.op == CSRRW || d.op == CSRRWI) || d.rs1 != 0;
      if (((csr >> 8) & 3) > hot_.s.priv) illegal(d);
      if (write && (csr >> 10) == 3) illegal(d);
      const bool read = !(d.op == CSRRW || d.op == CSRRWI) || d.rd != 0;
      uint64_t old = read ? csr_read(csr, d) : 0;
      if (reads_time_only(d) && skip_wait_loop(d, pc)) old = csr_read(csr, d);  // at the time it skipped to
      if (write) {
        // mip.SEIP reads as the PLIC's line OR the software-written bit, but
        // only the software-written bit takes part in a CSRRS/CSRRC (privileged
        // specification, mip): setting STIP must not latch the line into it.
        const uint64_t base = csr == CSR_MIP ? (old & ~(1ull << kSEI)) | (seip_sw_ ? 1ull << kSEI : 0) : old;
        uint64_t v = src;
        if (d.op == CSRRS || d.op == CSRRSI) v = base | src;
        else if (d.op == CSRRC || d.op == CSRRCI) v = base & ~src;
        if (!read) csr_read(csr, d);  // existence and permission checks
        csr_write(csr, v, d);
      }
      hot_.s.x[d.rd] = old;
      hot_.s.x[0] = 0;
      return next;
    }
    default:
      illegal(d);
  }
}

}  // namespace avp
