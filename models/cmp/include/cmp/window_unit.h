// The CMP's memory windows (platform.md section 3): 8 windows that map a
// virtual range onto a target range, SHARED, PER_HART or PER_CORE, with
// permissions, interleaving and bounds checks on every path (b_transport,
// debug, DMI). The router maps the free ranges here with absolute addresses;
// translated accesses go back into the router through `init`.
#pragma once
#include <functional>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "cmp/cmp_packets.h"

namespace avp {

class WindowUnit : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<WindowUnit> targ;
  tlm_utils::simple_initiator_socket<WindowUnit> init;
  // false: PERMS (MODE bits 6:4) are ignored and every window allows reads,
  // writes and fetches, as Codeplay's RefSi device treats them.
  Param<bool> enforce_perms;

  struct Window {
    uint64_t base = 0, target = 0, mode = 0, scale = 0;
    bool active() const { return mode & AVP_CMP_WIN_ACTIVE; }
    unsigned kind() const { return (mode >> 1) & 3; }
    uint64_t size() const { return (mode >> 32) + 1; }
    uint64_t scale_factor() const;
  };

  // `is_memory(addr, size)`: the range lies in one memory (not a device, not a window).
  WindowUnit(sc_core::sc_module_name name, unsigned harts, unsigned cores,
             std::function<bool(uint64_t, uint64_t)> is_memory);

  // The address ranges the router sends here ({base, size}): a window's own
  // range must lie in one of them.
  void set_window_ranges(std::vector<std::pair<uint64_t, uint64_t>> ranges) { ranges_ = std::move(ranges); }

  // Applies window n from the CMP registers; returns false (window left
  // inactive) when it is invalid: reserved mode, range outside the window
  // ranges or overlapping another active window, target not backed by memory
  // or inside a window's range.
  bool configure(unsigned n, const Window& w, std::string& why);
  const Window& window(unsigned n) const { return windows_[n]; }

  // Translates an access of `unit` (hart index/core from the extension);
  // false when no active window covers it or the access breaks its rules.
  // A fetch (FetchExtension) needs PERMS.X; exec_ok: a debugger's read, for
  // which R or X suffices; any other read needs R.
  bool translate(const tlm::tlm_generic_payload& gp, bool write, uint64_t& out, const Window** win,
                 bool exec_ok = false) const;

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  void invalidate(uint64_t lo, uint64_t hi);
  // The R/W/X bits that apply to w (all of them when PERMS are not enforced).
  uint64_t perms(const Window& w) const;

  Window windows_[AVP_CMP_NUM_WINDOWS];
  unsigned harts_, cores_;
  std::function<bool(uint64_t, uint64_t)> is_memory_;
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;
  Logger log_;
  Counter accesses_, faults_;
};

}  // namespace avp
