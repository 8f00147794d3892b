// CLINT (SiFive core-local interruptor, sysdev_regs.h): per hart a software
// interrupt bit (MSIP) and a timer compare register (MTIP while mtime >=
// mtimecmp), and one mtime counting at `frequency` Hz of simulated time.
// Each hart has two level lines, `msip` and `mtip` (the platform wires them to
// the hart's MSI and MTI). The harts' `time` CSR reads mtime (mtime_at).
// Reads are stable (base/stable_read.h): a 64-bit read of mtime is its clock,
// the other registers are constant (a 32-bit half of mtime is neither).
#pragma once
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "base/interrupt_line.h"
#include "base/log.h"
#include "base/params.h"
#include "base/stable_read.h"
#include "base/stats.h"

namespace avp {

class Clint : public sc_core::sc_module, private ReadClock {
 public:
  tlm_utils::simple_target_socket<Clint> socket;
  Param<uint64_t> frequency;
  Param<sc_core::sc_time> access_latency;
  std::vector<LevelLine> msip, mtip;  // per hart

  Clint(sc_core::sc_module_name name, unsigned harts);

  uint64_t mtime_at(const sc_core::sc_time& t) const { return mtime_at_ps(t.value()); }
  uint64_t mtime_at_ps(uint64_t ps) const;  // the same at `ps` picoseconds of simulated time
  unsigned harts() const { return static_cast<unsigned>(mtimecmp_.size()); }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  unsigned stable_read(tlm::tlm_generic_payload& gp, StableReadExtension& s);
  uint64_t value_at(const sc_core::sc_time& t) const override { return mtime_at(t); }
  bool access(tlm::tlm_generic_payload& gp, const sc_core::sc_time& now, bool debug);
  bool read32(uint64_t off, const sc_core::sc_time& now, uint32_t& v) const;
  bool write32(uint64_t off, const sc_core::sc_time& now, uint32_t v);
  void update(const sc_core::sc_time& now);  // sets MTIP levels and schedules the next deadline
  void on_timer() { update(sc_core::sc_time_stamp()); }

  std::vector<uint64_t> mtimecmp_;
  std::vector<bool> msip_, mtip_;
  int64_t offset_ = 0;  // mtime = ticks of simulated time + offset (writes to mtime set it)
  uint64_t ps_per_tick_ = 0;  // when a tick is a whole number of picoseconds (1 GHz: 1000), else 0
  sc_core::sc_event timer_event_;
  Logger log_;
  Counter accesses_, timer_irqs_, errors_;
};

}  // namespace avp
