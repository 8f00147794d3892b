// Control and status registers. satp holds Bare, Sv39 or Sv48 (WARL: a write
// of another mode has no effect); the PMP registers are those of rv::Pmp, the
// trigger registers (0x7A0-0x7A5) those of rv::Triggers.
#include "harts/hart.h"
#include "harts/hart_cluster.h"

namespace avp {

using namespace rv;

namespace {
constexpr uint64_t kMisa = (2ull << 62) | (1u << ('A' - 'A')) | (1u << ('C' - 'A')) | (1u << ('D' - 'A')) |
                           (1u << ('F' - 'A')) | (1u << ('I' - 'A')) | (1u << ('M' - 'A')) | (1u << ('S' - 'A')) |
                           (1u << ('U' - 'A'));
constexpr uint64_t kSupervisorInterrupts = (1u << kSSI) | (1u << kSTI) | (1u << kSEI);
constexpr uint64_t kAllInterrupts = kSupervisorInterrupts | (1u << kMSI) | (1u << kMTI) | (1u << kMEI);

// menvcfg/senvcfg: FIOM (fence of I/O orders memory too; harmless here,
// harts complete accesses in order) and menvcfg.PBMTE (Svpbmt).
constexpr uint64_t kMenvcfgWritable = envcfg::FIOM | envcfg::PBMTE, kSenvcfgWritable = envcfg::FIOM;

uint64_t with_sd(uint64_t st) {
  return ((st & mstatus::FS) == mstatus::FS) ? (st | mstatus::SD) : (st & ~mstatus::SD);
}
}  // namespace

bool Hart::debug_csr(unsigned csr, uint64_t& value) {
  const Priv saved = s_.priv;
  s_.priv = PRV_M;
  bool ok = true;
  try {
    value = csr_read(csr, Insn{});
  } catch (const TrapException&) {
    ok = false;
  }
  s_.priv = saved;
  return ok;
}

bool Hart::counter_allowed(unsigned csr) const {
  const unsigned bit = csr & 31;
  if (s_.priv == PRV_M) return true;
  if (!((s_.mcounteren >> bit) & 1)) return false;
  if (s_.priv == PRV_U && !((s_.scounteren >> bit) & 1)) return false;
  return true;
}

uint64_t Hart::csr_read(unsigned csr, const Insn& d) {
  if (csr >= CSR_CYCLE && csr <= CSR_HPMCOUNTER31) {
    if (!counter_allowed(csr)) illegal(d);
    if (csr == CSR_TIME) return cluster_.time_ns(*this);
    return counter(csr - CSR_CYCLE);
  }
  if (csr >= CSR_MHPMCOUNTER3 && csr <= CSR_MHPMCOUNTER31) return counter(csr - CSR_MCYCLE);
  if (csr >= CSR_MHPMEVENT3 && csr <= CSR_MHPMEVENT31) return s_.mhpmevent[csr - (CSR_MHPMEVENT3 - 3)];
  if (csr >= CSR_PMPCFG0 && csr <= CSR_PMPCFG15) {
    if (csr & 1) illegal(d);  // odd pmpcfg registers do not exist on RV64
    return pmp_.read_cfg(csr - CSR_PMPCFG0);
  }
  if (csr >= CSR_PMPADDR0 && csr <= CSR_PMPADDR63) return pmp_.read_addr(csr - CSR_PMPADDR0);
  if (csr >= CSR_TSELECT && csr <= CSR_TCONTROL) {
    if (!triggers_.count()) illegal(d);
    return triggers_.read(csr);
  }
  const bool fp = csr <= CSR_FCSR;
  if (fp && !(s_.mstatus & mstatus::FS)) illegal(d);
  switch (csr) {
    case CSR_FFLAGS: return s_.fflags;
    case CSR_FRM: return s_.frm;
    case CSR_FCSR: return s_.frm << 5 | s_.fflags;
    case CSR_SSTATUS: return with_sd(s_.mstatus) & mstatus::kSstatusMask;
    case CSR_SIE: return s_.mie & s_.mideleg;
    case CSR_SIP: return s_.mip & s_.mideleg;
    case CSR_STVEC: return s_.stvec;
    case CSR_SCOUNTEREN: return s_.scounteren;
    case CSR_SSCRATCH: return s_.sscratch;
    case CSR_SEPC: return s_.sepc;
    case CSR_SCAUSE: return s_.scause;
    case CSR_STVAL: return s_.stval;
    case CSR_SATP:
      if (s_.priv == PRV_S && (s_.mstatus & mstatus::TVM)) illegal(d);
      return s_.satp;
    case CSR_MVENDORID: case CSR_MARCHID: case CSR_MIMPID: case CSR_MCONFIGPTR: return 0;
    case CSR_MHARTID: return id_;
    case CSR_MSTATUS: return with_sd(s_.mstatus);
    case CSR_MISA: return kMisa;
    case CSR_MEDELEG: return s_.medeleg;
    case CSR_MIDELEG: return s_.mideleg;
    case CSR_MIE: return s_.mie;
    case CSR_MIP: return s_.mip;
    case CSR_MTVEC: return s_.mtvec;
    case CSR_MCOUNTEREN: return s_.mcounteren;
    case CSR_MCOUNTINHIBIT: return s_.mcountinhibit;
    case CSR_MSCRATCH: return s_.mscratch;
    case CSR_MEPC: return s_.mepc & ~1ull;
    case CSR_MCAUSE: return s_.mcause;
    case CSR_MTVAL: return s_.mtval;
    case CSR_MCYCLE: return counter(0);
    case CSR_MINSTRET: return counter(2);
    case CSR_MENVCFG: return s_.menvcfg;
    case CSR_SENVCFG: return s_.senvcfg;
    default: illegal(d);
  }
}

void Hart::csr_write(unsigned csr, uint64_t v, const Insn& d) {
  if (csr >= CSR_MHPMCOUNTER3 && csr <= CSR_MHPMCOUNTER31) return write_counter(csr - CSR_MCYCLE, v);
  if (csr >= CSR_MHPMEVENT3 && csr <= CSR_MHPMEVENT31) return write_counter_event(csr - (CSR_MHPMEVENT3 - 3), v);
  if (csr >= CSR_PMPCFG0 && csr <= CSR_PMPADDR63) {
    if (csr <= CSR_PMPCFG15) pmp_.write_cfg(csr - CSR_PMPCFG0, v);
    else pmp_.write_addr(csr - CSR_PMPADDR0, v);
    // Cached translations may hold checked walks: start afresh (as SFENCE.VMA x0, x0 would).
    tlb_.flush_all();
    protection_changed();
    update_xlate();
    return;
  }
  if (csr >= CSR_TSELECT && csr <= CSR_TCONTROL) {
    triggers_.write(csr, v);  // read() checked that triggers exist
    block_abort_ = true;      // the next instruction starts a block that checks the triggers
    return;
  }
  auto dirty_fp = [&] { s_.mstatus |= mstatus::FS; };
  switch (csr) {
    case CSR_FFLAGS: s_.fflags = v & 0x1F; dirty_fp(); return;
    case CSR_FRM: s_.frm = v & 7; dirty_fp(); return;
    case CSR_FCSR: s_.fflags = v & 0x1F; s_.frm = (v >> 5) & 7; dirty_fp(); return;
    case CSR_SSTATUS: {
      const uint64_t mask = mstatus::kSstatusMask & mstatus::kWritable;
      s_.mstatus = (s_.mstatus & ~mask) | (v & mask);
      update_xlate();
      return;
    }
    case CSR_SIE:
      s_.mie = (s_.mie & ~s_.mideleg) | (v & s_.mideleg);
      update_irq_gate();
      return;
    case CSR_SIP: {
      const uint64_t mask = s_.mideleg & (1u << kSSI);
      s_.mip = (s_.mip & ~mask) | (v & mask);
      update_irq_gate();
      return;
    }
    case CSR_STVEC: s_.stvec = v & ~2ull; return;
    case CSR_SCOUNTEREN: s_.scounteren = static_cast<uint32_t>(v); return;
    case CSR_SSCRATCH: s_.sscratch = v; return;
    case CSR_SEPC: s_.sepc = v & ~1ull; return;
    case CSR_SCAUSE: s_.scause = v; return;
    case CSR_STVAL: s_.stval = v; return;
    case CSR_SATP:
      if (s_.priv == PRV_S && (s_.mstatus & mstatus::TVM)) illegal(d);
      if ((v >> 60) != 0 && (v >> 60) != 8 && (v >> 60) != 9) return;  // unsupported mode: no effect (WARL)
      if (v != s_.satp) {  // the TLB keeps its entries: they are tagged with their ASID
        s_.satp = v;
        translation_changed();
        update_xlate();
      }
      return;
    case CSR_MSTATUS: {
      uint64_t nv = (s_.mstatus & ~mstatus::kWritable) | (v & mstatus::kWritable);
      if (((nv & mstatus::MPP) >> 11) == 2) nv = (nv & ~mstatus::MPP) | (s_.mstatus & mstatus::MPP);  // reserved MPP
      s_.mstatus = nv | mstatus::kFixed;
      update_xlate();
      return;
    }
    case CSR_MISA: return;  // WARL, fixed
    case CSR_MEDELEG: s_.medeleg = v & 0xB3FF & ~(1ull << kEcallM); return;
    case CSR_MIDELEG: s_.mideleg = v & kSupervisorInterrupts; return;
    case CSR_MIE:
      s_.mie = v & kAllInterrupts;
      update_irq_gate();
      return;
    case CSR_MIP: {
      const uint64_t mask = kSupervisorInterrupts;
      seip_sw_ = (v >> kSEI) & 1;
      s_.mip = (s_.mip & ~mask) | (v & mask) | (seip_line_ ? 1ull << kSEI : 0);
      update_irq_gate();
      return;
    }
    case CSR_MENVCFG: {
      const uint64_t changed = (s_.menvcfg ^ v) & kMenvcfgWritable;
      s_.menvcfg = v & kMenvcfgWritable;
      if (changed & envcfg::PBMTE) {  // the translations cached with the old attributes go
        tlb_.flush_all();
        translation_changed();
      }
      return;
    }
    case CSR_SENVCFG: s_.senvcfg = v & kSenvcfgWritable; return;
    case CSR_MTVEC: s_.mtvec = v & ~2ull; return;
    case CSR_MCOUNTEREN: s_.mcounteren = static_cast<uint32_t>(v); return;
    case CSR_MCOUNTINHIBIT: write_counter_inhibit(static_cast<uint32_t>(v)); return;
    case CSR_MSCRATCH: s_.mscratch = v; return;
    case CSR_MEPC: s_.mepc = v & ~1ull; return;
    case CSR_MCAUSE: s_.mcause = v; return;
    case CSR_MTVAL: s_.mtval = v; return;
    case CSR_MCYCLE: write_counter(0, v); return;
    case CSR_MINSTRET:  // a counting minstret: the retiring CSR instruction increments it again
      write_counter(2, (s_.mcountinhibit & 4) ? v : v - 1);
      return;
    default: illegal(d);
  }
}

}  // namespace avp
