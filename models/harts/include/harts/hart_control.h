// How the command processor (and the AQL packet processor) start kernel code on
// harts and learn how it ended. Implemented by the hart cluster; the CMP owns
// the dispatch policy (which instance goes to which free hart).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include <systemc>

#include "base/unit.h"

namespace avp {

struct HartLaunch {
  uint64_t pc = 0;
  uint64_t ra = 0;  // return address: jumping here ends the instance
  uint64_t sp = 0;
  uint64_t a[8] = {};
  uint64_t instruction_limit = 0;  // 0: the cluster's default limit parameter
  std::string limit_name;          // the option that set instruction_limit, for the report (empty: the parameter)
  uint32_t launch_id = 0;          // groups harts for ECALL a7=2 barriers
  uint32_t context = kNoContext;   // the Acceldev context it runs for (its host-window view)
  bool firmware = false;           // boot flow: no host calls (every ECALL traps), the run ends at power-off
  // A range the instance may read but not write (the KUB): a store into it is
  // a store access fault. Size 0: none.
  uint64_t read_only_base = 0, read_only_size = 0;
  // The CMP's kernel watchdog: the instance ends (HartExitKind::Timeout) at its
  // first quantum boundary at or after this simulated time, or at it when it
  // sleeps in WFI. Zero: none. Checked by the hart itself, so a watchdog adds
  // no timed event to the simulation unless a kernel sleeps.
  sc_core::sc_time deadline = sc_core::SC_ZERO_TIME;
};

enum class HartExitKind {
  Returned,    // jumped to HartLaunch::ra
  Exit,        // ECALL a7=0 (code in HartExit::code; non-zero is a kernel error)
  Trap,        // any other trap: cause, pc, tval
  Limit,       // instruction/time limit reached
  Timeout,     // HartLaunch::deadline passed (the CMP's kernel watchdog)
};

struct HartExit {
  HartExitKind kind = HartExitKind::Returned;
  uint64_t code = 0;
  uint64_t cause = 0;
  uint64_t pc = 0;
  uint64_t tval = 0;
  uint64_t instructions = 0;
  std::string describe() const;  // one line for status reports and logs
};

class HartControl {
 public:
  virtual ~HartControl() = default;
  virtual unsigned num_harts() const = 0;
  virtual unsigned num_cores() const = 0;
  virtual bool hart_idle(unsigned hart) const = 0;
  // Starts `hart` (idle) in M-mode; `done` is called from the simulation (in
  // the hart's thread, at the simulated time the instance ended).
  virtual void launch(unsigned hart, const HartLaunch& l, std::function<void(const HartExit&)> done) = 0;
  // Notified whenever a hart becomes idle (for dynamic instance distribution).
  virtual const sc_core::sc_event& hart_idle_event() const = 0;
  // SYNC_CACHE: write back + invalidate data caches; invalidate instruction
  // caches and the ISS's decoded-instruction cache. Return the time it took.
  virtual sc_core::sc_time flush_dcaches() = 0;
  virtual sc_core::sc_time invalidate_icaches() = 0;
};

}  // namespace avp
