// A hart's memory accesses outside the inlined fast paths: DMI regions
// (find_dmi, invalidation), TLM transport with the hart's local time, the
// slow paths of loads and stores, and the debugger's and the fetch's reads.
// Their timing: hart_memory_timing.cpp and bus_timing.cpp.
#include "base/cache_traffic.h"
#include "base/fetch.h"
#include "base/page_writes.h"
#include "base/payload.h"
#include "base/unit.h"
#include "harts/hart.h"
#include "hart_data_path.h"
#include "harts/hart_cluster.h"

namespace avp {

using namespace rv;

// fetch: a region for instruction fetch. Every request carries a
// FetchExtension: targets with an execute permission refuse a fetch request
// they do not allow and say whether the region granted may be fetched from
// and read as data.
DmiRegion* Hart::known_dmi(uint64_t addr, bool write, bool fetch) {
  for (auto& r : dmi_)
    if (addr - r.base < r.size && (fetch ? r.exec : write ? r.wr : r.rd)) return &r;
  return nullptr;
}

DmiRegion* Hart::find_dmi(uint64_t addr, bool write, bool fetch) {
  if (DmiRegion* r = known_dmi(addr, write, fetch)) return r;
  if (slice_.in_slice()) throw NeedsKernel{};  // asking the bus for DMI is the kernel's
  hot_.time.catch_up();
  if (write && read_only(addr, 1)) return nullptr;
  tlm::tlm_generic_payload gp;
  set_unit(gp, make_unit(UnitKind::Hart, id_), core_);
  FetchExtension fetch_ext;
  fetch_ext.fetch = fetch;
  gp.set_extension(&fetch_ext);
  PageWritesExtension writes_ext;
  gp.set_extension(&writes_ext);
  gp.set_address(addr);
  gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  tlm::tlm_dmi dmi;
  const bool granted = bus->get_direct_mem_ptr(gp, dmi);
  gp.clear_extension(&fetch_ext);
  gp.clear_extension(&writes_ext);
  if (!granted) return nullptr;
  DmiRegion r;
  r.base = dmi.get_start_address();
  r.size = dmi.get_end_address() - dmi.get_start_address() + 1;
  r.ptr = dmi.get_dmi_ptr();
  r.rd = dmi.is_read_allowed() && fetch_ext.read_ok;
  r.wr = dmi.is_write_allowed();
  r.exec = dmi.is_read_allowed() && fetch_ext.exec_ok;
  r.writes = writes_ext.writes;
  if (ro_size_ && r.wr && r.base < ro_base_ + ro_size_ && ro_base_ <= r.base + (r.size - 1)) {
    // Clip the writable region to the side of the read-only range that holds addr.
    const uint64_t end = r.base + (r.size - 1);
    if (addr < ro_base_) {
      r.size = ro_base_ - r.base;
    } else {
      const uint64_t lo = ro_base_ + ro_size_;
      r.ptr += lo - r.base;
      r.base = lo;
      r.size = end - lo + 1;
    }
    r.rd = r.exec = false;  // the clipped region serves stores only
  }
  if (!(fetch ? r.exec : write ? r.wr : r.rd) || addr - r.base >= r.size) return nullptr;
  for (auto& o : dmi_)
    if (o.base == r.base && o.size == r.size && o.ptr == r.ptr) {  // the same region: widen its use
      o.rd |= r.rd, o.wr |= r.wr, o.exec |= r.exec;
      return &o;
    }
  dmi_.push_back(r);
  ++hot_.dmi_gen;
  return &dmi_.back();
}

void Hart::invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end) {
  std::vector<DmiRegion> keep;
  for (const auto& r : dmi_)
    if (r.base + r.size - 1 < start || r.base > end) keep.push_back(r);
  dmi_.swap(keep);
  ++hot_.dmi_gen;
  forget_regions();  // and the pages kept without DMI: the event reaches the hart in either mode
}

void Hart::transport(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len, uint64_t fault_cause, uint64_t tval) {
  if (slice_.in_slice()) throw NeedsKernel{};  // a device access: in the simulation thread, in hart order
  settle();
  hot_.time.catch_up();
  if (cmd == tlm::TLM_READ_COMMAND && !cache_traffic(gp_)) skip_device_poll(addr, len);
  prepare_payload(gp_, cmd, addr, data, len);
  const sc_core::sc_time before = hot_.time.now();
  hot_.time.annotate([&](sc_core::sc_time& delay) { bus->b_transport(gp_, delay); });
  hot_.stall_ps[StallMemory] += to_ps(hot_.time.now() - before);
  if (gp_.get_response_status() != tlm::TLM_OK_RESPONSE) throw TrapException{fault_cause, tval};
}

template <typename T>
T Hart::load_slow(uint64_t addr) {
  T v{};
  if (addr - rd2_.base < rd2_.size && rd2_.size - (addr - rd2_.base) >= sizeof(T)) {
    std::swap(hot_.rd, rd2_);  // two regions in turn (code/data and stack) stay on the fast path
    return load<T>(addr);
  }
  if (data_checked_) {
    if (reuse_checked_page(false, addr, sizeof(T))) return load<T>(addr);
    if (slice_.in_slice()) throw NeedsKernel{};  // translation may walk page tables through the bus
    checked_access(false, addr, &v, sizeof(T));
    return v;
  }
  if (DmiRegion* r = find_dmi(addr, false)) {
    if (addr - r->base + sizeof(T) <= r->size) {
      rd2_ = hot_.rd;
      hot_.rd = *r;
      return load<T>(addr);
    }
  }
  if (slice_.in_slice()) throw NeedsKernel{};
  phys_access(false, addr, &v, sizeof(T), kLoadAccessFault, addr);
  return v;
}

template <typename T>
void Hart::store_slow(uint64_t addr, T v) {
  if (addr - wr2_.base < wr2_.size && wr2_.size - (addr - wr2_.base) >= sizeof(T)) {
    std::swap(hot_.wr, wr2_);
    return store<T>(addr, v);
  }
  if (data_checked_) {
    if (reuse_checked_page(true, addr, sizeof(T))) return store<T>(addr, v);
    if (slice_.in_slice()) throw NeedsKernel{};
    checked_access(true, addr, &v, sizeof(T));
    return;
  }
  if (DmiRegion* r = find_dmi(addr, true)) {
    if (addr - r->base + sizeof(T) <= r->size) {
      wr2_ = hot_.wr;
      hot_.wr = *r;
      return store<T>(addr, v);
    }
  }
  if (slice_.in_slice()) throw NeedsKernel{};
  phys_access(true, addr, &v, sizeof(T), kStoreAccessFault, addr);  // calls after_store
}

template uint8_t Hart::load_slow<uint8_t>(uint64_t);
template uint16_t Hart::load_slow<uint16_t>(uint64_t);
template uint32_t Hart::load_slow<uint32_t>(uint64_t);
template uint64_t Hart::load_slow<uint64_t>(uint64_t);
template void Hart::store_slow<uint8_t>(uint64_t, uint8_t);
template void Hart::store_slow<uint16_t>(uint64_t, uint16_t);
template void Hart::store_slow<uint32_t>(uint64_t, uint32_t);
template void Hart::store_slow<uint64_t>(uint64_t, uint64_t);

std::unique_lock<std::mutex> Hart::shared_lock() {
  return slice_.lock(cluster_.shared_lock());
}

void Hart::after_store(uint64_t addr, unsigned len) {
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

bool Hart::debug_read(uint64_t addr, void* dst, unsigned len) {
  for (const auto& r : dmi_) {
    if (addr - r.base < r.size && r.size - (addr - r.base) >= len && r.rd) {
      std::memcpy(dst, r.ptr + (addr - r.base), len);
      return true;
    }
  }
  if (DmiRegion* r = find_dmi(addr, false)) {
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
  if (DmiRegion* r = find_dmi(addr, false, true)) {
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
