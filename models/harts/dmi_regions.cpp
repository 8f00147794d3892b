#include "harts/dmi_regions.h"

#include "base/fetch.h"
#include "base/page_writes.h"

namespace avp {

DmiRegion* DmiRegions::find(uint64_t addr, bool write, bool fetch) {
  if (DmiRegion* r = known(addr, write, fetch)) return r;
  if (slice_.in_slice()) throw NeedsKernel{};  // asking the bus for DMI is the kernel's
  time_.catch_up();
  if (write && read_only(addr, 1)) return nullptr;
  const uint8_t kind = refused_kind(write, fetch);
  Refused& refused = refused_slot(addr);
  if (refused.addr == addr && (refused.kinds & kind)) return nullptr;
  const auto refuse = [&]() -> DmiRegion* {  // the bus answers addr so until it invalidates a range
    if (refused.addr != addr) refused = Refused{addr, 0};
    refused.kinds |= kind;
    return nullptr;
  };
  tlm::tlm_generic_payload gp;
  set_unit(gp, unit_, core_);
  FetchExtension fetch_ext;
  fetch_ext.fetch = fetch;
  gp.set_extension(&fetch_ext);
  PageWritesExtension writes_ext;
  gp.set_extension(&writes_ext);
  gp.set_address(addr);
  gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  tlm::tlm_dmi dmi;
  const bool granted = bus_->get_direct_mem_ptr(gp, dmi);
  gp.clear_extension(&fetch_ext);
  gp.clear_extension(&writes_ext);
  if (!granted) return refuse();
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
  // Translated code's fast paths compare an aligned access's first byte only
  // (inline_accesses.cpp): a region is trimmed to whole 8-byte words, its
  // host bytes aligned alike (else it is not used); the bytes trimmed off go
  // through the bus.
  const uint64_t head = (8 - (r.base & 7)) & 7;
  const bool aligned = head < r.size && ((reinterpret_cast<uintptr_t>(r.ptr) + head) & 7) == 0;
  r.base += head;
  r.ptr += head;
  r.size = aligned ? (r.size - head) & ~uint64_t{7} : 0;
  if (addr - r.base >= r.size) return refuse();  // trimmed off
  for (DmiRegion& o : regions_)
    if (o.base == r.base && o.size == r.size && o.ptr == r.ptr) {  // the same region: widen its use
      o.rd |= r.rd, o.wr |= r.wr, o.exec |= r.exec;
      return &o;
    }
  regions_.push_back(r);
  ++generation_;
  return &regions_.back();
}

void DmiRegions::invalidate(uint64_t start, uint64_t end) {
  refused_.fill(Refused{});  // what the bus refused may be granted now
  std::vector<DmiRegion> keep;
  for (const DmiRegion& r : regions_)
    if (r.base + r.size - 1 < start || r.base > end) keep.push_back(r);
  regions_.swap(keep);
  ++generation_;
}

bool DmiRegions::set_read_only(uint64_t base, uint64_t size) {
  if (base == ro_base_ && size == ro_size_) return false;
  ro_base_ = base;
  ro_size_ = size;
  invalidate(0, ~0ull);
  return true;
}

}  // namespace avp
