#include "harts/hart.h"

#include "base/fetch.h"
#include "base/payload.h"
#include "base/trace.h"
#include "base/unit.h"
#include "harts/hart_cluster.h"

namespace avp {

using namespace rv;

Hart::Hart(sc_core::sc_module_name name, HartCluster& cluster, unsigned hart_id, unsigned core_id)
    : sc_module(name), bus("bus"), xintf("xintf"), cluster_(cluster), id_(hart_id), core_(core_id) {
  set_unit(gp_, make_unit(UnitKind::Hart, id_), core_);
  bus.register_invalidate_direct_mem_ptr(this, &Hart::invalidate_dmi);
  SC_HAS_PROCESS(Hart);
  SC_THREAD(thread);
}

void Hart::start(const HartLaunch& l, bool kernel, std::function<void(const HartExit&)> done) {
  s_ = HartState{};
  s_.pc = l.pc;
  s_.x[1] = l.ra;
  s_.x[2] = l.sp;
  for (int i = 0; i < 8; ++i) s_.x[10 + i] = l.a[i];
  s_.mstatus |= mstatus::FS & (1ull << 13);  // FP unit on (Initial) so kernels can use F/D at once
  kernel_ = kernel;
  host_calls_ = !l.firmware;
  if (seip_line_) s_.mip |= 1ull << kSEI;
  seip_sw_ = false;
  ret_addr_ = l.ra;
  launch_id_ = l.launch_id;
  set_context(gp_, l.context);  // every bus access of the instance carries its context
  limit_ = l.instruction_limit ? l.instruction_limit : cluster_.instruction_limit.get();
  done_ = std::move(done);
  reservation_ = ~0ull;
  pmp_.reset();
  tlb_.flush_all();
  for (unsigned k = 1; k < kFetchKeys; ++k) flush_translated_ |= !blocks_[k].empty();
  update_xlate();
  if (l.read_only_base != ro_base_ || l.read_only_size != ro_size_) {
    ro_base_ = l.read_only_base;
    ro_size_ = l.read_only_size;
    invalidate_dmi(0, ~0ull);  // write regions are clipped around the read-only range
  }
  history_.clear();
  running_ = true;
  stop_ = false;
  timed_out_ = false;
  deadline_ = l.deadline;
  started_ = sc_core::sc_time_stamp();
  instance_ = l.a[0];
  start_event_.notify(sc_core::SC_ZERO_TIME);
}

void Hart::thread() {
  for (;;) {
    while (!running_) sc_core::wait(start_event_);
    start_instret_ = 0;
    run();
  }
}

void Hart::sync() {
  if (local_ps_) {
    sc_core::wait(sc_core::sc_time(static_cast<double>(local_ps_), sc_core::SC_PS));
    local_ps_ = 0;
  }
  // The kernel watchdog's deadline, checked whenever the hart meets SystemC
  // time (every quantum at least): the run loop ends the instance.
  if (deadline_ > sc_core::SC_ZERO_TIME && !timed_out_ && sc_core::sc_time_stamp() >= deadline_)
    timed_out_ = block_abort_ = true;
}

void Hart::finish(HartExitKind kind, uint64_t code, uint64_t cause, uint64_t tval) {
  sync();
  HartExit e;
  e.kind = kind;
  e.code = code;
  e.cause = cause;
  e.pc = s_.pc;
  e.tval = tval;
  e.instructions = s_.minstret;
  stop_ = true;
  running_ = false;
  Trace::instance().slice(name(), kernel_ ? "instance " + std::to_string(instance_) : "program",
                          started_, sc_core::sc_time_stamp(), {{"exit", e.describe()}});
  cluster_.hart_stopped(*this, e);
  auto done = std::move(done_);
  done_ = nullptr;
  if (done) done(e);
}

void Hart::run() {
  const uint64_t quantum = cluster_.quantum_ps();
  while (!stop_) {
    if (timed_out_) {
      finish(HartExitKind::Timeout);
      break;
    }
    if (kernel_ && s_.pc == ret_addr_) {
      finish(HartExitKind::Returned);
      break;
    }
    if (flush_) {
      history_.freeze();
      for (auto& m : blocks_) m.clear();
      for (auto& slot : block_slots_) slot = BlockSlot{};
      flush_ = flush_translated_ = false;
    }
    if (flush_translated_) {
      history_.freeze();
      for (unsigned k = 1; k < kFetchKeys; ++k) blocks_[k].clear();
      for (auto& slot : block_slots_)
        if (slot.key) slot = BlockSlot{};
      flush_translated_ = false;
    }
    if ((s_.mip & s_.mie) && check_interrupts()) continue;
    try {
      const Block& b = block_at(s_.pc);
      run_block(b);
    } catch (const TrapException& t) {
      take_trap(t.cause, t.tval);
    }
    if (local_ps_ >= quantum) sync();
    if (limit_ && s_.minstret >= limit_ && !stop_) {
      cluster_.report_limit(*this);
      finish(HartExitKind::Limit);
    }
  }
}

const Hart::Block& Hart::block_at(uint64_t pc) {
  BlockSlot& slot = block_slots_[(pc >> 1) & (kBlockSlots - 1)];
  if (slot.pc == pc && slot.key == fetch_key_ && slot.block) return *slot.block;
  auto& blocks = blocks_[fetch_key_];
  auto it = blocks.find(pc);
  if (it != blocks.end()) {
    slot = {pc, &it->second, fetch_key_};
    return it->second;
  }
  if (pc & 1) throw TrapException{kInsnMisaligned, pc};
  Block b;
  uint64_t a = pc;
  // Translated or checked fetches: one translation for the block's page (and
  // one for the second half of an instruction that crosses into the next);
  // the PMP is checked for every instruction's bytes.
  const uint64_t ppc = fetch_key_ ? fetch_address(pc) : pc;
  for (unsigned n = 0; n < 64; ++n) {
    uint16_t lo, hi = 0;
    if (n > 0 && ((a ^ pc) >> 12)) break;  // stay within the page the block started in
    const uint64_t pa = ppc + (a - pc);
    if (fetch_key_ && !fetch_allowed(pa, 2)) {
      if (n == 0) throw TrapException{kInsnAccessFault, a};
      break;
    }
    if (!fetch_read(pa, &lo, 2)) {
      if (n == 0) throw TrapException{kInsnAccessFault, a};
      break;
    }
    if (!is_compressed(lo)) {
      uint64_t pa_hi = pa + 2;
      if (fetch_key_ && (((a + 2) ^ pc) >> 12)) {  // the second half is on the next page
        if (n > 0) break;                          // a block of its own translates it
        pa_hi = fetch_address(a + 2);
        cluster_.mark_code(pa_hi, 2);
      }
      if (fetch_key_ && !fetch_allowed(pa_hi, 2)) {
        if (n == 0) throw TrapException{kInsnAccessFault, a + 2};
        break;
      }
      if (!fetch_read(pa_hi, &hi, 2)) {
        if (n == 0) throw TrapException{kInsnAccessFault, a};
        break;
      }
    }
    Insn d = decode(lo, hi);
    b.insns.push_back(d);
    a += d.len;
    if (ends_block(static_cast<Op>(d.op))) break;
  }
  cluster_.mark_code(ppc, a - pc);
  b.pc = pc;
  b.ppc = ppc;
  b.bytes = a - pc;
  Block& stored = blocks.emplace(pc, std::move(b)).first->second;
  slot = {pc, &stored, fetch_key_};
  return stored;
}

void Hart::invalidate_decoded() {
  // Blocks are dropped at the next block boundary: the current one may be executing.
  flush_ = true;
  block_abort_ = true;
}

void Hart::illegal(const Insn& d) const { throw TrapException{kIllegalInsn, d.raw}; }

void Hart::take_trap(uint64_t cause, uint64_t tval) {
  const bool irq = cause & kInterruptBit;
  const uint64_t code = cause & ~kInterruptBit;
  if (kernel_ || (s_.priv == PRV_M && s_.mtvec == 0 && !irq)) {
    // No handler: kernels end on any trap; bare-metal code without a vector stops.
    cluster_.report_trap(*this, cause, tval);
    finish(HartExitKind::Trap, 0, cause, tval);
    return;
  }
  const uint64_t deleg = irq ? s_.mideleg : s_.medeleg;
  if (s_.priv <= PRV_S && ((deleg >> code) & 1)) {
    s_.scause = cause;
    s_.sepc = s_.pc;
    s_.stval = tval;
    uint64_t st = s_.mstatus;
    st = (st & ~mstatus::SPIE) | ((st & mstatus::SIE) ? mstatus::SPIE : 0);
    st = (st & ~mstatus::SPP) | (s_.priv == PRV_S ? mstatus::SPP : 0);
    st &= ~mstatus::SIE;
    s_.mstatus = st;
    s_.priv = PRV_S;
    s_.pc = (s_.stvec & ~3ull) + ((irq && (s_.stvec & 1)) ? 4 * code : 0);
  } else {
    s_.mcause = cause;
    s_.mepc = s_.pc;
    s_.mtval = tval;
    uint64_t st = s_.mstatus;
    st = (st & ~mstatus::MPIE) | ((st & mstatus::MIE) ? mstatus::MPIE : 0);
    st = (st & ~mstatus::MPP) | (static_cast<uint64_t>(s_.priv) << 11);
    st &= ~mstatus::MIE;
    s_.mstatus = st;
    s_.priv = PRV_M;
    s_.pc = (s_.mtvec & ~3ull) + ((irq && (s_.mtvec & 1)) ? 4 * code : 0);
    triggers_.trap_to_m();
  }
  update_xlate();
}

bool Hart::check_interrupts() {
  const uint64_t pending = s_.mip & s_.mie;
  const bool m_on = s_.priv < PRV_M || (s_.mstatus & mstatus::MIE);
  const bool s_on = s_.priv < PRV_S || (s_.priv == PRV_S && (s_.mstatus & mstatus::SIE));
  const uint64_t m_pending = pending & ~s_.mideleg & (m_on ? ~0ull : 0);
  const uint64_t s_pending = pending & s_.mideleg & (s_on ? ~0ull : 0);
  const uint64_t take = m_pending ? m_pending : s_pending;
  if (!take) return false;
  // Priority: MEI, MSI, MTI, SEI, SSI, STI.
  static const unsigned order[] = {kMEI, kMSI, kMTI, kSEI, kSSI, kSTI};
  for (unsigned irq : order) {
    if (take & (1ull << irq)) {
      take_trap(kInterruptBit | irq, 0);
      return true;
    }
  }
  return false;
}

void Hart::set_interrupt(unsigned irq, bool level) {
  if (irq == kSEI) {  // the PLIC's line and the bit M-mode software writes are ORed
    seip_line_ = level;
    level = level || seip_sw_;
  }
  if (level) s_.mip |= 1ull << irq;
  else s_.mip &= ~(1ull << irq);
  if (level) irq_event_.notify(sc_core::SC_ZERO_TIME);
}

// ---- memory ----

// fetch: a region for instruction fetch. Every request carries a
// FetchExtension: targets with an execute permission refuse a fetch request
// they do not allow and say whether the region granted may be fetched from
// and read as data.
Hart::DmiRegion* Hart::find_dmi(uint64_t addr, bool write, bool fetch) {
  for (auto& r : dmi_)
    if (addr - r.base < r.size && (fetch ? r.exec : write ? r.wr : r.rd)) return &r;
  if (write && read_only(addr, 1)) return nullptr;
  tlm::tlm_generic_payload gp;
  set_unit(gp, make_unit(UnitKind::Hart, id_), core_);
  FetchExtension fetch_ext;
  fetch_ext.fetch = fetch;
  gp.set_extension(&fetch_ext);
  gp.set_address(addr);
  gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  tlm::tlm_dmi dmi;
  const bool granted = bus->get_direct_mem_ptr(gp, dmi);
  gp.clear_extension(&fetch_ext);
  if (!granted) return nullptr;
  DmiRegion r;
  r.base = dmi.get_start_address();
  r.size = dmi.get_end_address() - dmi.get_start_address() + 1;
  r.ptr = dmi.get_dmi_ptr();
  r.rd = dmi.is_read_allowed() && fetch_ext.read_ok;
  r.wr = dmi.is_write_allowed();
  r.exec = dmi.is_read_allowed() && fetch_ext.exec_ok;
  r.rd_ps = static_cast<uint64_t>(dmi.get_read_latency().to_seconds() * 1e12 + 0.5);
  r.wr_ps = static_cast<uint64_t>(dmi.get_write_latency().to_seconds() * 1e12 + 0.5);
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
  ++dmi_gen_;
  return &dmi_.back();
}

void Hart::invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end) {
  std::vector<DmiRegion> keep;
  for (const auto& r : dmi_)
    if (r.base + r.size - 1 < start || r.base > end) keep.push_back(r);
  dmi_.swap(keep);
  ++dmi_gen_;
  rd_ = wr_ = rd2_ = wr2_ = DmiRegion{};
}

void Hart::transport(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len, uint64_t fault_cause, uint64_t tval) {
  prepare_payload(gp_, cmd, addr, data, len);
  sc_core::sc_time delay(static_cast<double>(local_ps_), sc_core::SC_PS);
  const sc_core::sc_time before = sc_core::sc_time_stamp() + delay;
  bus->b_transport(gp_, delay);
  local_ps_ = static_cast<uint64_t>(delay.to_seconds() * 1e12 + 0.5);
  stall_ps_[StallMemory] += static_cast<uint64_t>((sc_core::sc_time_stamp() + delay - before).to_seconds() * 1e12 + 0.5);
  if (gp_.get_response_status() != tlm::TLM_OK_RESPONSE) throw TrapException{fault_cause, tval};
}

template <typename T>
T Hart::load_slow(uint64_t addr) {
  T v{};
  if (addr - rd2_.base < rd2_.size && rd2_.size - (addr - rd2_.base) >= sizeof(T)) {
    std::swap(rd_, rd2_);  // two regions in turn (code/data and stack) stay on the fast path
    return load<T>(addr);
  }
  if (data_checked_) {
    checked_access(false, addr, &v, sizeof(T));
    return v;
  }
  if (DmiRegion* r = find_dmi(addr, false)) {
    if (addr - r->base + sizeof(T) <= r->size) {
      rd2_ = rd_;
      rd_ = *r;
      return load<T>(addr);
    }
  }
  transport(tlm::TLM_READ_COMMAND, addr, &v, sizeof(T), kLoadAccessFault, addr);
  return v;
}

template <typename T>
void Hart::store_slow(uint64_t addr, T v) {
  if (addr - wr2_.base < wr2_.size && wr2_.size - (addr - wr2_.base) >= sizeof(T)) {
    std::swap(wr_, wr2_);
    std::memcpy(wr_.ptr + (addr - wr_.base), &v, sizeof(T));
    local_ps_ += wr_.wr_ps;
    stall_ps_[StallMemory] += wr_.wr_ps;
    after_store(addr + wr_.pa_delta, sizeof(T));
    return;
  }
  if (data_checked_) {
    checked_access(true, addr, &v, sizeof(T));
    return;
  }
  if (DmiRegion* r = find_dmi(addr, true)) {
    if (addr - r->base + sizeof(T) <= r->size) {
      wr2_ = wr_;
      wr_ = *r;
      std::memcpy(wr_.ptr + (addr - wr_.base), &v, sizeof(T));
      local_ps_ += wr_.wr_ps;
      stall_ps_[StallMemory] += wr_.wr_ps;
      after_store(addr, sizeof(T));
      return;
    }
  }
  if (read_only(addr, sizeof(T))) throw TrapException{kStoreAccessFault, addr};
  transport(tlm::TLM_WRITE_COMMAND, addr, &v, sizeof(T), kStoreAccessFault, addr);
  after_store(addr, sizeof(T));
}

template uint8_t Hart::load_slow<uint8_t>(uint64_t);
template uint16_t Hart::load_slow<uint16_t>(uint64_t);
template uint32_t Hart::load_slow<uint32_t>(uint64_t);
template uint64_t Hart::load_slow<uint64_t>(uint64_t);
template void Hart::store_slow<uint8_t>(uint64_t, uint8_t);
template void Hart::store_slow<uint16_t>(uint64_t, uint16_t);
template void Hart::store_slow<uint32_t>(uint64_t, uint32_t);
template void Hart::store_slow<uint64_t>(uint64_t, uint64_t);

void Hart::after_store(uint64_t addr, unsigned len) {
  if (cluster_.reservations_active()) cluster_.break_reservations(addr);
  if (cluster_.is_code(addr, len)) cluster_.code_written(addr, len);
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
