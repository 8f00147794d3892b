#include "cmp/window_unit.h"

#include <sstream>

#include "base/cache_traffic.h"
#include "base/stable_read.h"
#include "base/fetch.h"
#include "base/unit.h"

namespace avp {

uint64_t WindowUnit::Window::scale_factor() const {
  const uint64_t a = scale & 0x1F, b = scale >> 32;
  return a == 0 ? 0 : (1ull << (a - 1)) * (b + 1);
}

WindowUnit::WindowUnit(sc_core::sc_module_name name, unsigned harts, unsigned cores,
                       std::function<bool(uint64_t, uint64_t)> is_memory)
    : sc_module(name), targ("targ"), init("init"),
      enforce_perms(this, "enforce_perms", true,
                    "enforce the windows' PERMS (R, W, X); false: every window allows all accesses, as on "
                    "Codeplay's RefSi device"),
      harts_(harts), cores_(cores), is_memory_(std::move(is_memory)),
      log_(this->name()),
      accesses_(this, "accesses", "accesses through memory windows", "accesses"),
      faults_(this, "faults", "window accesses refused (no window, permissions, bounds)", "accesses") {
  targ.register_b_transport(this, &WindowUnit::b_transport);
  targ.register_transport_dbg(this, &WindowUnit::transport_dbg);
  targ.register_get_direct_mem_ptr(this, &WindowUnit::get_direct_mem_ptr);
}

bool WindowUnit::configure(unsigned n, const Window& w, std::string& why) {
  const Window old = windows_[n];
  Window nw = w;
  if (nw.active()) {
    if (nw.kind() == 3) why = "reserved window mode 3";
    // Target extent: every hart's/core's slice must be backed by memory.
    uint64_t extent = nw.size();
    const unsigned units = nw.kind() == AVP_CMP_WIN_PER_HART ? harts_ : nw.kind() == AVP_CMP_WIN_PER_CORE ? cores_ : 1;
    if (nw.mode & AVP_CMP_WIN_INTERLEAVE) extent = nw.size() * units;
    else if (units > 1) extent = nw.scale_factor() * (units - 1) + nw.size();
    if (why.empty() && nw.base + nw.size() < nw.base) why = "window range wraps";
    if (why.empty() && !ranges_.empty()) {
      bool inside = false;
      for (const auto& [lo, size] : ranges_) inside |= nw.base - lo < size && nw.size() <= size - (nw.base - lo);
      if (!inside) {
        std::ostringstream os;
        os << "range [0x" << std::hex << nw.base << ", 0x" << nw.base + nw.size() << ") is not inside one window range (";
        for (size_t i = 0; i < ranges_.size(); ++i)
          os << (i ? ", " : "") << "[0x" << ranges_[i].first << ", 0x" << ranges_[i].first + ranges_[i].second << ")";
        os << ")";
        why = os.str();
      }
    }
    for (unsigned i = 0; i < AVP_CMP_NUM_WINDOWS && why.empty(); ++i) {
      const Window& o = windows_[i];
      if (i != n && o.active() && nw.base < o.base + o.size() && o.base < nw.base + nw.size())
        why = "range overlaps window " + std::to_string(i);
    }
    if (why.empty()) {
      for (unsigned i = 0; i < AVP_CMP_NUM_WINDOWS; ++i) {
        const Window& o = i == n ? nw : windows_[i];
        if (!o.active()) continue;
        if (nw.target < o.base + o.size() && o.base < nw.target + extent) why = "target lies in window " + std::to_string(i);
      }
    }
    if (why.empty() && !is_memory_(nw.target, extent)) why = "target range is not backed by memory";
    if (!why.empty()) nw.mode &= ~AVP_CMP_WIN_ACTIVE;
  }
  windows_[n] = nw;
  if (old.active()) invalidate(old.base, old.base + old.size() - 1);
  if (nw.active()) invalidate(nw.base, nw.base + nw.size() - 1);
  return why.empty();
}

bool WindowUnit::translate(const tlm::tlm_generic_payload& gp, bool write, uint64_t& out, const Window** win,
                           bool exec_ok) const {
  const uint64_t addr = gp.get_address();
  const uint64_t len = gp.get_data_length();
  for (const Window& w : windows_) {
    if (!w.active() || addr - w.base >= w.size()) continue;
    if (len > w.size() - (addr - w.base)) return false;  // crosses the end of the window
    const uint64_t need = write      ? AVP_CMP_WIN_PERM_W
                          : is_fetch(gp) ? AVP_CMP_WIN_PERM_X
                          : exec_ok    ? AVP_CMP_WIN_PERM_R | AVP_CMP_WIN_PERM_X
                                       : AVP_CMP_WIN_PERM_R;
    if (!(perms(w) & need)) return false;
    const UnitExtension* ext = gp.get_extension<UnitExtension>();
    uint64_t index = 0, units = 1;
    if (w.kind() == AVP_CMP_WIN_PER_HART) {
      if (!ext || unit_kind(ext->unit) != UnitKind::Hart) return false;  // only harts have a per-hart view
      index = unit_index(ext->unit);
      units = harts_;
    } else if (w.kind() == AVP_CMP_WIN_PER_CORE) {
      if (!ext || (unit_kind(ext->unit) != UnitKind::Hart && unit_kind(ext->unit) != UnitKind::Core)) return false;
      index = unit_kind(ext->unit) == UnitKind::Core ? unit_index(ext->unit) : ext->core;
      units = cores_;
    }
    const uint64_t off = addr - w.base;
    if (w.mode & AVP_CMP_WIN_INTERLEAVE) {
      // Granules of 2^STRIDE bytes of every unit alternate in the target.
      const unsigned stride = (w.mode >> 8) & 0x1F;
      const uint64_t g = 1ull << stride;
      if ((off & (g - 1)) + len > g) return false;  // an access may not straddle granules
      out = w.target + (((off >> stride) * units + index) << stride) + (off & (g - 1));
    } else {
      out = w.target + w.scale_factor() * index + off;
    }
    *win = &w;
    return true;
  }
  return false;
}

void WindowUnit::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  uint64_t eff = 0;
  const Window* w = nullptr;
  const uint64_t addr = gp.get_address();
  if (!translate(gp, writes(gp), eff, &w)) {
    faults_.inc();
    AVP_LOG(log_, Warn, "refused " << (writes(gp) ? "write" : "read") << " at 0x" << std::hex << addr << std::dec
                                   << " (" << gp.get_data_length() << " bytes) by " << unit_name(unit_of(gp))
                                   << ": no window allows it");
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (!is_functional(gp) && !is_replay(gp)) accesses_.inc();  // a cached access counts as its fills and write-backs
  gp.set_address(eff);
  init->b_transport(gp, delay);
  gp.set_address(addr);
  gp.set_dmi_allowed(gp.is_dmi_allowed() && !(w->mode & AVP_CMP_WIN_INTERLEAVE));
}

unsigned WindowUnit::transport_dbg(tlm::tlm_generic_payload& gp) {
  uint64_t eff = 0;
  const Window* w = nullptr;
  const uint64_t addr = gp.get_address();
  // Debuggers' reads: R or X is enough; instruction fetches need X (translate).
  if (!translate(gp, gp.is_write(), eff, &w, !gp.is_write())) return 0;
  gp.set_address(eff);
  const unsigned n = init->transport_dbg(gp);
  gp.set_address(addr);
  forget_timing_path(gp);
  forget_stable_read(gp);
  return n;
}

bool WindowUnit::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  uint64_t eff = 0;
  const Window* w = nullptr;
  const uint64_t addr = gp.get_address();
  if (!translate(gp, false, eff, &w) || (w->mode & AVP_CMP_WIN_INTERLEAVE)) return false;
  gp.set_address(eff);
  const bool ok = init->get_direct_mem_ptr(gp, dmi);
  gp.set_address(addr);
  if (!ok) return false;
  // Back to window addresses, clipped to the window: this unit's mapping only.
  const uint64_t shift = eff - addr;  // target = window address + shift
  uint64_t lo = dmi.get_start_address() - shift, hi = dmi.get_end_address() - shift;
  unsigned char* ptr = dmi.get_dmi_ptr();
  if (dmi.get_start_address() < w->base + shift) {
    ptr += (w->base + shift) - dmi.get_start_address();
    lo = w->base;
  }
  if (hi > w->base + w->size() - 1) hi = w->base + w->size() - 1;
  dmi.set_dmi_ptr(ptr);
  dmi.set_start_address(lo);
  dmi.set_end_address(hi);
  if (!(perms(*w) & AVP_CMP_WIN_PERM_W) || is_fetch(gp)) dmi.allow_read();
  if (FetchExtension* f = gp.get_extension<FetchExtension>()) {  // what the region may serve besides this access
    f->exec_ok = perms(*w) & AVP_CMP_WIN_PERM_X;
    f->read_ok = perms(*w) & AVP_CMP_WIN_PERM_R;
  }
  return true;
}

uint64_t WindowUnit::perms(const Window& w) const {
  constexpr uint64_t all = AVP_CMP_WIN_PERM_R | AVP_CMP_WIN_PERM_W | AVP_CMP_WIN_PERM_X;
  return enforce_perms.get() ? w.mode & all : all;
}

void WindowUnit::invalidate(uint64_t lo, uint64_t hi) { targ->invalidate_direct_mem_ptr(lo, hi); }

}  // namespace avp
