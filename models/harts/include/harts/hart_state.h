// Architectural state of one RV64GC hart and the bit layout of its CSRs.
#pragma once
#include <cstdint>

#include "harts/perf_events.h"

namespace avp::rv {

enum Priv : uint8_t { PRV_U = 0, PRV_S = 1, PRV_M = 3 };

namespace mstatus {
constexpr uint64_t SIE = 1ull << 1, MIE = 1ull << 3, SPIE = 1ull << 5, MPIE = 1ull << 7, SPP = 1ull << 8;
constexpr uint64_t MPP = 3ull << 11, FS = 3ull << 13, MPRV = 1ull << 17, SUM = 1ull << 18, MXR = 1ull << 19;
constexpr uint64_t TVM = 1ull << 20, TW = 1ull << 21, TSR = 1ull << 22;
constexpr uint64_t UXL = 3ull << 32, SXL = 3ull << 34, SD = 1ull << 63;
constexpr uint64_t kWritable = SIE | MIE | SPIE | MPIE | SPP | MPP | FS | MPRV | SUM | MXR | TVM | TW | TSR;
constexpr uint64_t kSstatusMask = SIE | SPIE | SPP | FS | SUM | MXR | UXL | SD;
constexpr uint64_t kFixed = (2ull << 32) | (2ull << 34);  // UXL = SXL = 64-bit
}  // namespace mstatus

// menvcfg/senvcfg bits: FIOM; PBMTE (menvcfg only) enables Svpbmt's page attributes.
namespace envcfg {
constexpr uint64_t FIOM = 1, PBMTE = 1ull << 62;
}  // namespace envcfg

// Exception causes (privileged spec table 3.6).
enum Cause : uint64_t {
  kInsnMisaligned = 0, kInsnAccessFault = 1, kIllegalInsn = 2, kBreakpoint = 3, kLoadMisaligned = 4,
  kLoadAccessFault = 5, kStoreMisaligned = 6, kStoreAccessFault = 7, kEcallU = 8, kEcallS = 9, kEcallM = 11,
  kInsnPageFault = 12, kLoadPageFault = 13, kStorePageFault = 15,
};
constexpr uint64_t kInterruptBit = 1ull << 63;
// Interrupt numbers.
enum Irq : unsigned { kSSI = 1, kMSI = 3, kSTI = 5, kMTI = 7, kSEI = 9, kMEI = 11 };

const char* cause_name(uint64_t cause);

// CSR numbers used by the ISS.
enum Csr : uint16_t {
  CSR_FFLAGS = 0x001, CSR_FRM = 0x002, CSR_FCSR = 0x003,
  CSR_CYCLE = 0xC00, CSR_TIME = 0xC01, CSR_INSTRET = 0xC02, CSR_HPMCOUNTER3 = 0xC03, CSR_HPMCOUNTER31 = 0xC1F,
  CSR_SSTATUS = 0x100, CSR_SIE = 0x104, CSR_STVEC = 0x105, CSR_SCOUNTEREN = 0x106, CSR_SSCRATCH = 0x140,
  CSR_SEPC = 0x141, CSR_SCAUSE = 0x142, CSR_STVAL = 0x143, CSR_SIP = 0x144, CSR_SATP = 0x180,
  CSR_MVENDORID = 0xF11, CSR_MARCHID = 0xF12, CSR_MIMPID = 0xF13, CSR_MHARTID = 0xF14, CSR_MCONFIGPTR = 0xF15,
  CSR_MSTATUS = 0x300, CSR_MISA = 0x301, CSR_MEDELEG = 0x302, CSR_MIDELEG = 0x303, CSR_MIE = 0x304,
  CSR_MTVEC = 0x305, CSR_MCOUNTEREN = 0x306, CSR_MSCRATCH = 0x340, CSR_MEPC = 0x341, CSR_MCAUSE = 0x342,
  CSR_MTVAL = 0x343, CSR_MIP = 0x344, CSR_PMPCFG0 = 0x3A0, CSR_PMPCFG15 = 0x3AF, CSR_PMPADDR0 = 0x3B0,
  CSR_PMPADDR63 = 0x3EF, CSR_MCYCLE = 0xB00, CSR_MINSTRET = 0xB02, CSR_MHPMCOUNTER3 = 0xB03,
  CSR_MHPMCOUNTER31 = 0xB1F, CSR_MCOUNTINHIBIT = 0x320, CSR_MHPMEVENT3 = 0x323, CSR_MHPMEVENT31 = 0x33F,
  CSR_MENVCFG = 0x30A, CSR_SENVCFG = 0x10A,
};

struct HartState {
  uint64_t x[32] = {};
  uint64_t f[32] = {};
  uint64_t pc = 0;
  Priv priv = PRV_M;
  uint64_t mstatus = mstatus::kFixed;
  uint64_t medeleg = 0, mideleg = 0, mie = 0, mip = 0;
  uint64_t mtvec = 0, mscratch = 0, mepc = 0, mcause = 0, mtval = 0;
  uint64_t stvec = 0, sscratch = 0, sepc = 0, scause = 0, stval = 0, satp = 0;
  uint32_t mcounteren = 0, scounteren = 0, mcountinhibit = 0;
  uint64_t menvcfg = 0, senvcfg = 0;
  uint32_t fflags = 0, frm = 0;
  uint64_t minstret = 0;     // instructions retired since the start (the source of the instret counter)
  // The retired instructions' own cycles beyond one each, stalls not
  // included: statistic `cycles` (Hart::insn_cycles) is minstret plus these,
  // which blocks of one-cycle instructions (all, in a functional run) need
  // not add to.
  uint64_t extra_cycles = 0;
  // The counter CSRs by number & 31 (0 cycle, 2 instret, 3..31 hpmcounter;
  // 1, time, is not held here): the counter's source minus its value or,
  // while mcountinhibit stops it, its value (hart_counters.cpp).
  uint64_t counter[32] = {};
  // Retired instructions per PerfEvent (perf_events.h), but kEvInt's, never
  // counted: the integer instructions are minstret minus the other classes
  // (event_counter), and a retiring block adds one count less.
  uint64_t events[kNumPerfEvents] = {};
  uint32_t mhpmevent[32] = {};           // by counter number (3..31): the AVP_HPM_* event it counts
};

}  // namespace avp::rv
