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
  const Priv saved = hot_.s.priv;
  hot_.s.priv = PRV_M;
  bool ok = true;
  try {
    value = csr_read(csr, Insn{});
  } catch (const TrapException&) {
    ok = false;
  }
  hot_.s.priv = saved;
  return ok;
}

bool Hart::counter_allowed(unsigned csr) const {
  const unsigned bit = csr & 31;
  if (hot_.s.priv == PRV_M) return true;
  if (!((hot_.s.mcounteren >> bit) & 1)) return false;
  if (hot_.s.priv == PRV_U && !((hot_.s.scounteren >> bit) & 1)) return false;
  return true;
}

uint64_t Hart::csr_read(unsigned csr, const Insn& d) {
  if (csr >= CSR_CYCLE && csr <= CSR_HPMCOUNTER31) {
    if (!counter_allowed(csr)) illegal(d);
    if (csr == CSR_TIME) return cluster_.time_ns(*this);
    return counter(csr - CSR_CYCLE);
  }
  if (csr >= CSR_MHPMCOUNTER3 && csr <= CSR_MHPMCOUNTER31) return counter(csr - CSR_MCYCLE);
  if (csr >= CSR_MHPMEVENT3 && csr <= CSR_MHPMEVENT31) return hot_.s.mhpmevent[csr - (CSR_MHPMEVENT3 - 3)];
  if (csr >= CSR_PMPCFG0 && csr <= CSR_PMPCFG15) {
    if (csr & 1) illegal(d);  // odd pmpcfg registers do not exist on RV64
    return mmu_.pmp().read_cfg(csr - CSR_PMPCFG0);
  }
  if (csr >= CSR_PMPADDR0 && csr <= CSR_PMPADDR63) return mmu_.pmp().read_addr(csr - CSR_PMPADDR0);
  if (csr >= CSR_TSELECT && csr <= CSR_TCONTROL) {
    if (!triggers_.count()) illegal(d);
    return triggers_.read(csr);
  }
  const bool fp = csr <= CSR_FCSR;
  if (fp && !(hot_.s.mstatus & mstatus::FS)) illegal(d);
  switch (csr) {
    case CSR_FFLAGS: return hot_.s.fflags;
    case CSR_FRM: return hot_.s.frm;
    case CSR_FCSR: return hot_.s.frm << 5 | hot_.s.fflags;
    case CSR_SSTATUS: return with_sd(hot_.s.mstatus) & mstatus::kSstatusMask;
    case CSR_SIE: return hot_.s.mie & hot_.s.mideleg;
    case CSR_SIP: return hot_.s.mip & hot_.s.mideleg;
    case CSR_STVEC: return hot_.s.stvec;
    case CSR_SCOUNTEREN: return hot_.s.scounteren;
    case CSR_SSCRATCH: return hot_.s.sscratch;
    case CSR_SEPC: return hot_.s.sepc;
    case CSR_SCAUSE: return hot_.s.scause;
    case CSR_STVAL: return hot_.s.stval;
    case CSR_SATP:
      if (hot_.s.priv == PRV_S && (hot_.s.mstatus & mstatus::TVM)) illegal(d);
      return hot_.s.satp;
    case CSR_MVENDORID: case CSR_MARCHID: case CSR_MIMPID: case CSR_MCONFIGPTR: return 0;
    case CSR_MHARTID: return id_;
    case CSR_MSTATUS: return with_sd(hot_.s.mstatus);
    case CSR_MISA: return kMisa;
    case CSR_MEDELEG: return hot_.s.medeleg;
    case CSR_MIDELEG: return hot_.s.mideleg;
    case CSR_MIE: return hot_.s.mie;
    case CSR_MIP: return hot_.s.mip;
    case CSR_MTVEC: return hot_.s.mtvec;
    case CSR_MCOUNTEREN: return hot_.s.mcounteren;
    case CSR_MCOUNTINHIBIT: return hot_.s.mcountinhibit;
    case CSR_MSCRATCH: return hot_.s.mscratch;
    case CSR_MEPC: return hot_.s.mepc & ~1ull;
    case CSR_MCAUSE: return hot_.s.mcause;
    case CSR_MTVAL: return hot_.s.mtval;
    case CSR_MCYCLE: return counter(0);
    case CSR_MINSTRET: return counter(2);
    case CSR_MENVCFG: return hot_.s.menvcfg;
    case CSR_SENVCFG: return hot_.s.senvcfg;
    default: illegal(d);
  }
}

void Hart::csr_write(unsigned csr, uint64_t v, const Insn& d) {
  if (csr >= CSR_MHPMCOUNTER3 && csr <= CSR_MHPMCOUNTER31) return write_counter(csr - CSR_MCYCLE, v);
  if (csr >= CSR_MHPMEVENT3 && csr <= CSR_MHPMEVENT31) return write_counter_event(csr - (CSR_MHPMEVENT3 - 3), v);
  if (csr >= CSR_PMPCFG0 && csr <= CSR_PMPADDR63) {
    if (csr <= CSR_PMPCFG15) mmu_.pmp().write_cfg(csr - CSR_PMPCFG0, v);
    else mmu_.pmp().write_addr(csr - CSR_PMPADDR0, v);
    // Cached translations may hold checked walks: start afresh (as SFENCE.VMA x0, x0 would).
    mmu_.flush_tlb();
    protection_changed();
    update_xlate();
    return;
  }
  if (csr >= CSR_TSELECT && csr <= CSR_TCONTROL) {
    triggers_.write(csr, v);  // read() checked that triggers exist
    hot_.block_abort = true;      // the next instruction starts a block that checks the triggers
    return;
  }
  auto dirty_fp = [&] { hot_.s.mstatus |= mstatus::FS; };
  switch (csr) {
    case CSR_FFLAGS: hot_.s.fflags = v & 0x1F; dirty_fp(); return;
    case CSR_FRM: hot_.s.frm = v & 7; dirty_fp(); return;
    case CSR_FCSR: hot_.s.fflags = v & 0x1F; hot_.s.frm = (v >> 5) & 7; dirty_fp(); return;
    case CSR_SSTATUS: {
      const uint64_t mask = mstatus::kSstatusMask & mstatus::kWritable;
      hot_.s.mstatus = (hot_.s.mstatus & ~mask) | (v & mask);
      update_xlate();
      return;
    }
    case CSR_SIE:
      hot_.s.mie = (hot_.s.mie & ~hot_.s.mideleg) | (v & hot_.s.mideleg);
      update_irq_gate();
      return;
    case CSR_SIP: {
      const uint64_t mask = hot_.s.mideleg & (1u << kSSI);
      hot_.s.mip = (hot_.s.mip & ~mask) | (v & mask);
      update_irq_gate();
      return;
    }
    case CSR_STVEC: hot_.s.stvec = v & ~2ull; return;
    case CSR_SCOUNTEREN: hot_.s.scounteren = static_cast<uint32_t>(v); return;
    case CSR_SSCRATCH: hot_.s.sscratch = v; return;
    case CSR_SEPC: hot_.s.sepc = v & ~1ull; return;
    case CSR_SCAUSE: hot_.s.scause = v; return;
    case CSR_STVAL: hot_.s.stval = v; return;
    case CSR_SATP:
      if (hot_.s.priv == PRV_S && (hot_.s.mstatus & mstatus::TVM)) illegal(d);
      if ((v >> 60) != 0 && (v >> 60) != 8 && (v >> 60) != 9) return;  // unsupported mode: no effect (WARL)
      if (v != hot_.s.satp) {  // the TLB keeps its entries: they are tagged with their ASID
        hot_.s.satp = v;
        translation_changed();
        update_xlate();
      }
      return;
    case CSR_MSTATUS: {
      uint64_t nv = (hot_.s.mstatus & ~mstatus::kWritable) | (v & mstatus::kWritable);
      if (((nv & mstatus::MPP) >> 11) == 2) nv = (nv & ~mstatus::MPP) | (hot_.s.mstatus & mstatus::MPP);  // reserved MPP
      hot_.s.mstatus = nv | mstatus::kFixed;
      update_xlate();
      return;
    }
    case CSR_MISA: return;  // WARL, fixed
    case CSR_MEDELEG: hot_.s.medeleg = v & 0xB3FF & ~(1ull << kEcallM); return;
    case CSR_MIDELEG: hot_.s.mideleg = v & kSupervisorInterrupts; return;
    case CSR_MIE:
      hot_.s.mie = v & kAllInterrupts;
      update_irq_gate();
      return;
    case CSR_MIP: {
      const uint64_t mask = kSupervisorInterrupts;
      seip_sw_ = (v >> kSEI) & 1;
      hot_.s.mip = (hot_.s.mip & ~mask) | (v & mask) | (seip_line_ ? 1ull << kSEI : 0);
      update_irq_gate();
      return;
    }
    case CSR_MENVCFG: {
      const uint64_t changed = (hot_.s.menvcfg ^ v) & kMenvcfgWritable;
      hot_.s.menvcfg = v & kMenvcfgWritable;
      if (changed & envcfg::PBMTE) {  // the translations cached with the old attributes go
        mmu_.flush_tlb();
        translation_changed();
      }
      return;
    }
    case CSR_SENVCFG: hot_.s.senvcfg = v & kSenvcfgWritable; return;
    case CSR_MTVEC: hot_.s.mtvec = v & ~2ull; return;
    case CSR_MCOUNTEREN: hot_.s.mcounteren = static_cast<uint32_t>(v); return;
    case CSR_MCOUNTINHIBIT: write_counter_inhibit(static_cast<uint32_t>(v)); return;
    case CSR_MSCRATCH: hot_.s.mscratch = v; return;
    case CSR_MEPC: hot_.s.mepc = v & ~1ull; return;
    case CSR_MCAUSE: hot_.s.mcause = v; return;
    case CSR_MTVAL: hot_.s.mtval = v; return;
    case CSR_MCYCLE: write_counter(0, v); return;
    case CSR_MINSTRET:  // a counting minstret: the retiring CSR instruction increments it again
      write_counter(2, (hot_.s.mcountinhibit & 4) ? v : v - 1);
      return;
    default: illegal(d);
  }
}

}  // namespace avp
