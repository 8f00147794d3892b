#include "memory/core_local_view.h"

#include "base/cache_traffic.h"
#include "base/stable_read.h"
#include "base/unit.h"

namespace avp {

CoreLocalView::CoreLocalView(sc_core::sc_module_name name, uint64_t slice_size)
    : sc_module(name), targ("targ"), init("init"), slice_(slice_size), log_(this->name()) {
  targ.register_b_transport(this, &CoreLocalView::b_transport);
  targ.register_transport_dbg(this, &CoreLocalView::transport_dbg);
  targ.register_get_direct_mem_ptr(this, &CoreLocalView::get_direct_mem_ptr);
  init.register_invalidate_direct_mem_ptr(this, &CoreLocalView::invalidate_direct_mem_ptr);
}

bool CoreLocalView::core_of(const tlm::tlm_generic_payload& gp, uint32_t& core) const {
  const UnitExtension* ext = gp.get_extension<UnitExtension>();
  if (!ext || (unit_kind(ext->unit) != UnitKind::Hart && unit_kind(ext->unit) != UnitKind::Core)) return false;
  core = unit_kind(ext->unit) == UnitKind::Core ? unit_index(ext->unit) : ext->core;
  return gp.get_address() + gp.get_data_length() <= slice_;
}

void CoreLocalView::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  uint32_t core = 0;
  if (!core_of(gp, core)) {
    AVP_LOG(log_, Warn, "core-local TCDM access at offset 0x" << std::hex << gp.get_address() << " from "
                                                              << unit_name(unit_of(gp)) << ", which belongs to no core");
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const uint64_t addr = gp.get_address();
  gp.set_address(addr + core * slice_);
  init->b_transport(gp, delay);
  gp.set_address(addr);
}

unsigned CoreLocalView::transport_dbg(tlm::tlm_generic_payload& gp) {
  uint32_t core = 0;
  if (!core_of(gp, core)) return 0;
  const uint64_t addr = gp.get_address();
  gp.set_address(addr + core * slice_);
  unsigned n = init->transport_dbg(gp);
  gp.set_address(addr);
  forget_timing_path(gp);
  forget_stable_read(gp);
  return n;
}

bool CoreLocalView::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  uint32_t core = 0;
  if (!core_of(gp, core)) return false;
  const uint64_t addr = gp.get_address();
  const uint64_t base = core * slice_;
  gp.set_address(addr + base);
  bool ok = init->get_direct_mem_ptr(gp, dmi);
  gp.set_address(addr);
  if (!ok || dmi.get_start_address() > base || dmi.get_end_address() < base + slice_ - 1) return false;
  // Only this core's slice, at view addresses [0, slice).
  dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (base - dmi.get_start_address()));
  dmi.set_start_address(0);
  dmi.set_end_address(slice_ - 1);
  return true;
}

void CoreLocalView::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  // The holder cannot tell which core's slice it has: drop the whole view.
  targ->invalidate_direct_mem_ptr(0, slice_ - 1);
}

}  // namespace avp
