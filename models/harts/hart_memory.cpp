// A hart's own bus transactions: DMI invalidation, the transactions at its
// local time (devices, functional accesses to cacheable memory), what
// follows a store (reservations, written code), and the debugger's and the
// fetch's reads. Loads and stores: data_path.h; their timing: bus_timing.h.
#include "base/cache_traffic.h"
#include "base/fetch.h"
#include "base/payload.h"
#include "base/unit.h"
#include "harts/hart.h"
#include "harts/hart_cluster.h"

namespace avp {

using namespace rv;

void Hart::invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end) {
  dmi_.invalidate(start, end);
  data_.forget_regions();  // and the pages kept without DMI: the event reaches the hart in either mode
}

void Hart::bus_access(tlm::tlm_command cmd, uint64_t pa, void* data, unsigned len, uint64_t fault_cause,
                      uint64_t tval, bool functional) {
  if (slice_.in_slice()) throw NeedsKernel{};  // a device access: in the simulation thread, in hart order
  settle();
  hot_.time.catch_up();
  if (cmd == tlm::TLM_READ_COMMAND && !functional) skip_device_poll(pa, len);
  prepare_payload(gp_, cmd, pa, data, len);
  // Functional: the data moves, the DataPath's D-cache times the access.
  CacheTrafficExtension functional_ext;
  functional_ext.kind = CacheTrafficExtension::Functional;
  struct Attached {
    tlm::tlm_generic_payload& gp;
    CacheTrafficExtension* ext;
    ~Attached() {
      if (ext) gp.clear_extension(ext);
    }
  } attached{gp_, functional ? &functional_ext : nullptr};
  if (functional) gp_.set_extension(&functional_ext);
  const sc_core::sc_time before = hot_.time.now();
  hot_.time.annotate([&](sc_core::sc_time& delay) { bus->b_transport(gp_, delay); });
  hot_.stall_ps[StallMemory] += to_ps(hot_.time.now() - before);
  if (gp_.get_response_status() != tlm::TLM_OK_RESPONSE) throw TrapException{fault_cause, tval};
}

std::unique_lock<std::mutex> Hart::shared_lock() {
  return slice_.lock(cluster_.shared_lock());
}

// A store into what a spinning hart's loop touches (or into decoded code)
// while waits are recorded: the hart first catches up to where it last ran
// on, so that the turns of theirs it passed over run before the store and
// read what they read in the synced run; then the waits recorded before it
// are passed over no more.
void Hart::storing(uint64_t pa, unsigned len) {
  if (!cluster_.store_checked(pa, len)) return;
  hot_.time.catch_up();  // no slice: waits spin in the serial schedule only
  cluster_.spin_waits_touched();
}

void Hart::stored(uint64_t addr, unsigned len) {
  if (cluster_.reservations_active()) {
    const auto lk = shared_lock();
    cluster_.break_reservations(addr);
  }
  if (cluster_.is_code(addr, len)) {
    if (!slice_.in_slice()) return cluster_.code_written(addr, len);
    // In a slice the other harts are running: invalidating their code is the
    // kernel's, after the slice, which ends with this instruction.
    slice_.note_code_write(addr, len);
    hot_.block_abort = true;
  }
}

void Hart::code_free_span(uint64_t pa, uint64_t& from, uint64_t& to) const {
  cluster_.code_free_span(pa, from, to);
}

bool Hart::debug_read(uint64_t addr, void* dst, unsigned len) {
  for (const DmiRegion& r : dmi_.all()) {
    if (r.holds(addr, len) && r.rd) {
      std::memcpy(dst, r.ptr + (addr - r.base), len);
      return true;
    }
  }
  if (DmiRegion* r = dmi_.find(addr, false)) {
    if (r->size - (addr - r->base) >= len) {
      std::memcpy(dst, r->ptr + (addr - r->base), len);
      return true;
    }
  }
  tlm::tlm_generic_payload gp;
  set_unit(gp, make_unit(UnitKind::Hart, id_), core_);
  set_context(gp, context_of(gp_));
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(dst));
  gp.set_data_length(len);
  return bus->transport_dbg(gp) == len;
}

bool Hart::fetch_read(uint64_t addr, void* dst, unsigned len) {
  if (DmiRegion* r = dmi_.find(addr, false, true)) {
    if (r->size - (addr - r->base) >= len) {
      std::memcpy(dst, r->ptr + (addr - r->base), len);
      return true;
    }
  }
  tlm::tlm_generic_payload gp;
  set_unit(gp, make_unit(UnitKind::Hart, id_), core_);
  set_context(gp, context_of(gp_));  // code in the host window is the context's too
  FetchExtension fetch_ext;
  fetch_ext.fetch = true;
  gp.set_extension(&fetch_ext);
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(dst));
  gp.set_data_length(len);
  const bool ok = bus->transport_dbg(gp) == len;
  gp.clear_extension(&fetch_ext);
  return ok;
}

bool Hart::debug_write(uint64_t addr, const void* src, unsigned len) {
  tlm::tlm_generic_payload gp;
  set_unit(gp, make_unit(UnitKind::Hart, id_), core_);
  set_context(gp, context_of(gp_));
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(const_cast<void*>(src)));
  gp.set_data_length(len);
  return bus->transport_dbg(gp) == len;
}

}  // namespace avp
