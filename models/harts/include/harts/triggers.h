// Sdtrig: a hart's trigger module (RISC-V Debug Specification 1.0, chapter
// 5). tselect, tdata1/tdata2/tdata3, tinfo and tcontrol; triggers of type 2
// (mcontrol) and 6 (mcontrol6) matching the address of an instruction
// (execute) or of a load or store, with match kinds equal, NAPOT, >= and <,
// chaining, and the actions "breakpoint exception" (0) and "enter Debug
// Mode" (1, the debugger's: only triggers with dmode set may use it).
// The number of triggers is a parameter (harts.triggers; 0: no Sdtrig, the
// CSRs are illegal). Choices where the specification leaves room are listed
// in docs/harts.md ("Debug triggers").
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "harts/data_access.h"
#include "harts/hart_state.h"
#include "harts/rv_insn.h"

namespace avp::rv {

enum TriggerCsr : uint16_t {
  CSR_TSELECT = 0x7A0, CSR_TDATA1 = 0x7A1, CSR_TDATA2 = 0x7A2, CSR_TDATA3 = 0x7A3, CSR_TINFO = 0x7A4,
  CSR_TCONTROL = 0x7A5,
};

struct TriggerHit {
  unsigned index = 0;    // the first trigger of the chain that fired
  uint64_t tval = 0;     // the pc (execute) or the lowest address of the access
  bool execute = false;  // an execute trigger (otherwise load/store)
  DataAccess access;     // the access a load/store trigger matched
};

class Triggers {
 public:
  static constexpr unsigned kMaxTriggers = 64;
  // tdata1 fields shared by types 2 and 6.
  static constexpr uint64_t kLoad = 1, kStore = 2, kExecute = 4, kU = 8, kS = 16, kM = 64, kChain = 1u << 11;
  static constexpr uint64_t kDmode = 1ull << 59;
  static constexpr uint64_t kTinfo = (1u << 24) | (1u << 2) | (1u << 6) | (1u << 15);  // version 1.0; types 2, 6, 15
  static constexpr uint64_t kMte = 1u << 3, kMpte = 1u << 7;                           // tcontrol

  // `count` triggers (0..64), every one reset: type 2 with nothing enabled.
  void configure(unsigned count);
  unsigned count() const { return static_cast<unsigned>(t_.size()); }
  // A hart reset that keeps the debugger's triggers (dmode set): every other
  // trigger, tselect and tcontrol return to their reset values.
  void reset_software();

  // CSR views. `debugger`: an access by the debugger (Debug Mode), the only
  // one that may set dmode or change a trigger that has it set.
  uint64_t read(unsigned csr) const;
  void write(unsigned csr, uint64_t v, bool debugger = false);

  // Whether a trigger with action 0 is enabled: the hart then checks each
  // instruction (the fast loop has no trigger code).
  bool native_armed() const { return native_armed_; }

  // The chain of triggers that fires before `d` executes at `pc` with the
  // registers of `s`: those with action 0 (`debugger` false) or those with
  // action 1 (`debugger` true); execute triggers only when `execute`. Sets
  // the hit bits of the chain.
  std::optional<TriggerHit> match(const Insn& d, uint64_t pc, const HartState& s, bool debugger, bool execute = true);

  // tcontrol on a trap into M-mode (mpte = mte, mte = 0) and on MRET (mte = mpte).
  void trap_to_m() { tcontrol_ = (tcontrol_ & kMte) ? kMpte : 0; }
  void mret() { tcontrol_ = (tcontrol_ & ~kMte) | ((tcontrol_ & kMpte) ? kMte : 0); }

  // The debugger's hardware breakpoints and watchpoints: programs free
  // triggers as mcontrol6 with dmode and action 1 for [addr, addr + len) in
  // every privilege mode: one trigger for a naturally aligned power-of-two
  // range (match equal or NAPOT), otherwise a chained pair (>= addr, < end).
  // Returns the first trigger's index, -1 when no free trigger (pair) is left.
  int debugger_insert(uint64_t kinds, uint64_t addr, uint64_t len);
  void debugger_remove(int index);

 private:
  struct Trigger {
    uint64_t tdata1 = 2ull << 60;
    uint64_t tdata2 = 0;
  };
  static unsigned type(const Trigger& t) { return static_cast<unsigned>(t.tdata1 >> 60); }
  static bool chained(const Trigger& t) { return (type(t) == 2 || type(t) == 6) && (t.tdata1 & kChain); }
  uint64_t legal_tdata1(uint64_t v, bool debugger, bool last) const;
  bool matches(const Trigger& t, uint64_t kind, Priv p, uint64_t lo, uint64_t len) const;
  bool fires(unsigned first, unsigned last, bool debugger, Priv p) const;
  void update();

  std::vector<Trigger> t_;
  unsigned select_ = 0;
  uint64_t tcontrol_ = 0;
  bool native_armed_ = false;
};

}  // namespace avp::rv
