#include "harts/hart.h"

#include <algorithm>
#include <array>

#include "base/page_writes.h"
#include "base/payload.h"
#include "base/trace.h"
#include "base/unit.h"
#include "harts/hart_cluster.h"

namespace avp {

using namespace rv;

Hart::Hart(sc_core::sc_module_name name, HartCluster& cluster, unsigned hart_id, unsigned core_id)
    : sc_module(name),
      bus("bus"),
      xintf("xintf"),
      cluster_(cluster),
      id_(hart_id),
      core_(core_id),
      bus_timing_(bus, *this, slice_, cluster.shared_lock()),  // slice_, declared after it, by reference
      data_(hot_, mmu_, dmi_, bus_timing_, slice_, *this, *this, cluster.page_claims(), hart_id, cluster.spin_waits()) {
  hot_.hart = this;
  hot_.block_slots = blocks_.slots();
  set_unit(gp_, make_unit(UnitKind::Hart, id_), core_);
  set_unit(bus_timing_.payload(), make_unit(UnitKind::Hart, id_), core_);
  bus.register_invalidate_direct_mem_ptr(this, &Hart::invalidate_dmi);
  SC_HAS_PROCESS(Hart);
  SC_THREAD(thread);
}

void Hart::start(const HartLaunch& l, bool kernel, std::function<void(const HartExit&)> done) {
  hot_.s = HartState{};
  hot_.s.pc = l.pc;
  hot_.s.x[1] = l.ra;
  hot_.s.x[2] = l.sp;
  for (int i = 0; i < 8; ++i) hot_.s.x[10 + i] = l.a[i];
  hot_.s.mstatus |= mstatus::FS & (1ull << 13);  // FP unit on (Initial) so kernels can use F/D at once
  kernel_ = kernel;
  host_calls_ = !l.firmware;
  if (seip_line_) hot_.s.mip |= 1ull << kSEI;
  update_irq_gate();
  seip_sw_ = false;
  hot_.end_pc = kernel ? l.ra : 1;
  blocks_.set_return_pc(hot_.end_pc);
  launch_id_ = l.launch_id;
  set_context(gp_, l.context);  // every bus access of the instance carries its context
  set_context(bus_timing_.payload(), l.context);
  limit_ = l.instruction_limit ? l.instruction_limit : cluster_.instruction_limit.get();
  limit_name_ = l.instruction_limit ? l.limit_name : std::string();
  hot_.functional = cluster_.functional();
  hot_.warms_caches = hot_.functional && cluster_.warm_caches.get();
  hot_.lockstep_period_ps = hot_.functional ? cluster_.cost_ps()[0] : 0;  // every instruction's in a functional run
  const TimedFrom& from = cluster_.switch_point();
  switch_insns_ = hot_.functional && from.kind == TimedFrom::Instructions ? from.instructions : 0;
  switch_ps_ = hot_.functional && from.kind == TimedFrom::Time ? from.ps : 0;
  update_insn_stop();
  done_ = std::move(done);
  reservation_ = ~0ull;
  mmu_.reset();
  data_.tlb_flushed();
  blocks_.forget_checked();
  update_xlate();
  if (dmi_.set_read_only(l.read_only_base, l.read_only_size)) data_.forget_regions();
  history_.clear();
  running_ = true;
  hot_.stop = false;
  timed_out_ = false;
  deadline_ = l.deadline;
  started_ = sc_core::sc_time_stamp();
  reset_counters();
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
  settle();
  if (hot_.time.ps()) hot_.time.sync();  // the hart syncs often: no delta cycle when it is not ahead
  check_deadline(systemc_ps());
}

void Hart::check_deadline(uint64_t now_ps) {
  // The kernel watchdog's deadline, checked whenever the hart meets SystemC
  // time or runs on past a quantum's end (every quantum at least): the run
  // loop ends the instance.
  if (deadline_ > sc_core::SC_ZERO_TIME && !timed_out_ && now_ps >= to_ps(deadline_))
    timed_out_ = hot_.block_abort = true;
}

void Hart::finish(HartExitKind kind, uint64_t code, uint64_t cause, uint64_t tval) {
  sync();
  HartExit e;
  e.kind = kind;
  e.code = code;
  e.cause = cause;
  e.pc = hot_.s.pc;
  e.tval = tval;
  e.instructions = hot_.s.minstret;
  cycles_at_stop_ = clock_cycles();
  hot_.stop = true;
  running_ = false;
  trace_slice(sc_core::sc_time_stamp(), e.describe());
  cluster_.hart_stopped(*this, e);
  auto done = std::move(done_);
  done_ = nullptr;
  if (done) done(e);
}

void Hart::trace_slice(const sc_core::sc_time& end, const std::string& how) const {
  Trace::instance().slice(name(), kernel_ ? "instance " + std::to_string(instance_) : "program", started_, end,
                          {{"exit", how}});
}

void Hart::run() {
  hot_.time.set_quantum(cluster_.quantum());
  slice_.parallel = cluster_.parallel();
  translating_ = cluster_.translate_blocks.get();
  while (!hot_.stop) {
    if (slice_.parallel && !observed()) {
      cluster_.slices().run(*this);
      if (slice_.end() != SliceState::End::Serial) {
        finish_slice();
        continue;
      }
    }
    if (timed_out_) {
      finish(HartExitKind::Timeout);
      break;
    }
    if (hot_.s.pc == hot_.end_pc) {
      finish(HartExitKind::Returned);
      break;
    }
    if (flush_) {
      blocks_.clear();
      flush_ = refetch_ = false;
    }
    blocks_.catch_up();
    if (refetch_) drop_changed_blocks();
    if ((hot_.s.mip & hot_.s.mie) && check_interrupts()) continue;
    try {
      const Block& b = block_at(hot_.s.pc);
      if (slice_.parallel || observed()) run_block(b);  // one block: then the slices, or the observed loop
      else run_chain(b);
    } catch (const TrapException& t) {
      take_trap(t.cause, t.tval);
    }
    if (hot_.functional) check_timed_switch();
    if (hot_.time.quantum_used()) quantum_sync();
    if (limit_ && hot_.s.minstret >= limit_ && !hot_.stop) {
      cluster_.report_limit(*this);
      finish(HartExitKind::Limit);
    }
  }
}

const Hart::Block& Hart::block_at(uint64_t pc) {
  if (const Block* b = blocks_.find(pc, hot_.fetch_key)) return translated_again(*b);
  if (pc & 1) throw TrapException{kInsnMisaligned, pc};
  // Translated or checked fetches: one translation for the block's page (and
  // one for the second half of an instruction that crosses into the next);
  // the PMP is checked for every instruction's bytes.
  const PageTranslation page = hot_.fetch_key ? mmu_.translate_fetch(pc) : PageTranslation{pc};
  return decode_block(pc, page);
}

const Hart::Block& Hart::decode_block(uint64_t pc, const PageTranslation& page, const PageTranslation* tail) {
  Block b;
  // Decoded here first, so that the block's vector is allocated once, at its size.
  std::array<Insn, kMaxBlockInsns> decoded;
  unsigned count = 0;
  uint64_t a = pc;
  const uint64_t ppc = page.pa;
  b.tlb_until = page.until;
  for (unsigned n = 0; n < kMaxBlockInsns; ++n) {
    uint16_t lo, hi = 0;
    if (n > 0 && ((a ^ pc) >> 12)) break;  // stay within the page the block started in
    const uint64_t pa = ppc + (a - pc);
    if (hot_.fetch_key && !mmu_.fetch_allowed(pa, 2)) {
      if (n == 0) throw TrapException{kInsnAccessFault, a};
      break;
    }
    if (!fetch_read(pa, &lo, 2)) {
      if (n == 0) throw TrapException{kInsnAccessFault, a};
      break;
    }
    if (!is_compressed(lo)) {
      uint64_t pa_hi = pa + 2;
      if (hot_.fetch_key && (((a + 2) ^ pc) >> 12)) {  // the second half is on the next page
        if (n > 0) break;                          // a block of its own translates it
        const PageTranslation next = tail ? *tail : mmu_.translate_fetch(a + 2);
        pa_hi = next.pa;
        b.tlb_until = std::min(b.tlb_until, next.until);
        b.ppc_tail = pa_hi;
        cluster_.mark_code(pa_hi, 2);
      }
      if (hot_.fetch_key && !mmu_.fetch_allowed(pa_hi, 2)) {
        if (n == 0) throw TrapException{kInsnAccessFault, a + 2};
        break;
      }
      if (!fetch_read(pa_hi, &hi, 2)) {
        if (n == 0) throw TrapException{kInsnAccessFault, a};
        break;
      }
    }
    const Insn& d = decoded[count++] = decode(lo, hi);
    a += d.len;
    if (ends_block(static_cast<Op>(d.op))) break;
  }
  b.insns.assign(decoded.begin(), decoded.begin() + count);
  cluster_.mark_code(ppc, a - pc);
  b.pc = pc;
  b.ppc = ppc;
  b.fetch_uncached = page.uncached;
  b.key = hot_.fetch_key;
  note_block_costs(b);
  b.bytes = a - pc;
  note_code_writes(b, code_writes_of(b));
  return blocks_.insert(std::move(b));
}

// The block at stale's pc decoded again from where its pages lead now.
const Hart::Block& Hart::decode_again(const Block& stale, const PageTranslation& page, const PageTranslation* tail) {
  const uint64_t pc = stale.pc;
  blocks_.drop({&stale});
  return decode_block(pc, page, tail);
}

// The hart's own stores and those of the other harts dropped their blocks
// already (BlockCache::drop_code); what fence.i has to catch is code written
// by other units (DMA, the host), found by comparing each block's
// instructions with the memory it decoded them from. The blocks of checked
// fetches that are not live are compared when next entered
// (translate_fetch_again). When every block checked by the last fence.i, and
// every one decoded or checked since, lies in pages whose writes are counted
// (code_writes) and no write was counted since then, none changed.
void Hart::drop_changed_blocks() {
  refetch_ = false;
  const CountedWrites counted = counted_writes();
  if (counted.all_tracked && !untracked_code_ && counted.dmi_gen == checked_writes_.dmi_gen &&
      counted.writes == checked_writes_.writes)
    return;
  untracked_code_ = !counted.all_tracked;  // and set again by each block found untracked below
  checked_writes_ = counted;
  blocks_.drop_changed([this](const Block& b) { return code_changed(b); });
}

// Unless its pages' writes are counted and none was since it was last found
// unchanged, b's code is compared with memory (found unchanged: its pages'
// generation is noted).
bool Hart::code_changed(const Block& b) {
  const CodeWrites now = code_writes_of(b);
  if (code_writes_unchanged(b, now)) return false;
  if (compared_changed(b)) return true;
  note_code_writes(b, now);
  return false;
}

bool Hart::code_writes_unchanged(const Block& b, const CodeWrites& now) const {
  return now.writes && now.writes == b.code_writes && now.host == b.code_host && now.tail == b.code_tail &&
         now.writes->tracked() && now.generation == b.code_generation;
}

bool Hart::compared_changed(const Block& b) {
  if (const DmiRegion* r = b.ppc_tail == ~0ull ? dmi_.find(b.ppc, false, true) : nullptr;
      r && b.ppc - r->base < r->size && r->size - (b.ppc - r->base) >= b.bytes) {
    const uint8_t* p = r->ptr + (b.ppc - r->base);
    for (const Insn& d : b.insns) {
      uint32_t now = 0;
      std::memcpy(&now, p, d.len);
      if (now != d.raw) return true;
      p += d.len;
    }
    return false;
  }
  uint64_t pa = b.ppc;
  for (const Insn& d : b.insns) {
    uint32_t now = 0;
    if (b.ppc_tail == ~0ull || d.len == 2) {
      if (!fetch_read(pa, &now, d.len)) return true;
    } else {  // the one instruction of a block that crosses a page
      uint16_t lo = 0, hi = 0;
      if (!fetch_read(pa, &lo, 2) || !fetch_read(b.ppc_tail, &hi, 2)) return true;
      now = static_cast<uint32_t>(hi) << 16 | lo;
    }
    if (now != d.raw) return true;
    pa += d.len;
  }
  return false;
}

// A hart's store into b's code drops b already (HartCluster::code_written)
// where the cluster's code map covers it; what else writes memory is counted
// by the memories that count their writes (base/page_writes.h), as long as
// their storage is not written behind their back. Read in the simulation
// thread, where all counted writes happen.
Hart::CodeWrites Hart::code_writes_of(const Block& b) {
  const bool crosses = b.ppc_tail != ~0ull;
  const uint64_t len = crosses ? 2 : b.bytes;
  if (!cluster_.tracks_code(b.ppc, len) || (crosses && !cluster_.tracks_code(b.ppc_tail, 2))) return {};
  const auto host_of = [this](uint64_t pa, uint64_t n) -> std::pair<const PageWrites*, const uint8_t*> {
    const DmiRegion* r = dmi_.known(pa, false, true);  // the region the fetch reads
    if (!r || !r->writes || r->size - (pa - r->base) < n || !r->writes->holds(r->ptr + (pa - r->base), n)) return {};
    return {r->writes, r->ptr + (pa - r->base)};
  };
  CodeWrites c;
  const auto [writes, host] = host_of(b.ppc, len);
  if (!writes) return {};
  c.host = host;
  c.generation = writes->generation(host, len);
  if (crosses) {
    const auto [tail_writes, tail] = host_of(b.ppc_tail, 2);
    if (tail_writes != writes) return {};
    c.tail = tail;
    c.generation += writes->generation(tail, 2);
  }
  c.writes = writes;
  return c;
}

// b's code was just read or found unchanged where c says.
void Hart::note_code_writes(const Block& b, const CodeWrites& c) {
  b.code_writes = c.writes;
  b.code_host = c.host;
  b.code_tail = c.tail;
  b.code_generation = c.generation;
  if (!c.writes) untracked_code_ = true;
}

// What the memories of the hart's DMI regions have counted (the regions as of DMI generation dmi_gen).
Hart::CountedWrites Hart::counted_writes() const {
  CountedWrites c{hot_.dmi_gen, 0, true};
  for (const DmiRegion& r : dmi_.all()) {
    if (!r.writes) continue;
    c.writes += r.writes->writes();
    c.all_tracked &= r.writes->tracked();
  }
  return c;
}

void Hart::become_timed() {
  hot_.functional = hot_.warms_caches = false;
  hot_.lockstep_period_ps = 0;
  switch_insns_ = switch_ps_ = 0;
  update_insn_stop();
  invalidate_decoded();  // their costs, and the code translated without timing
}

void Hart::check_timed_switch() {
  if (switch_insns_ && hot_.s.minstret >= switch_insns_)
    cluster_.switch_to_timed(*this, "insns:" + std::to_string(switch_insns_));
  else if (switch_ps_ && hot_.time.quantum_used() && hot_.time.now_ps() >= switch_ps_)  // at a quantum's end
    cluster_.switch_to_timed(*this, "time:" + format_time(from_ps(switch_ps_)));
}

void Hart::invalidate_decoded() {
  // Blocks are dropped at the next block boundary: the current one may be executing.
  flush_ = true;
  hot_.block_abort = true;
}

void Hart::illegal(const Insn& d) const { throw TrapException{kIllegalInsn, d.raw}; }

void Hart::take_trap(uint64_t cause, uint64_t tval) {
  const bool irq = cause & kInterruptBit;
  const uint64_t code = cause & ~kInterruptBit;
  if (kernel_ || (hot_.s.priv == PRV_M && hot_.s.mtvec == 0 && !irq)) {
    // No handler: kernels end on any trap; bare-metal code without a vector stops.
    cluster_.report_trap(*this, cause, tval);
    finish(HartExitKind::Trap, 0, cause, tval);
    return;
  }
  const uint64_t deleg = irq ? hot_.s.mideleg : hot_.s.medeleg;
  if (hot_.s.priv <= PRV_S && ((deleg >> code) & 1)) {
    hot_.s.scause = cause;
    hot_.s.sepc = hot_.s.pc;
    hot_.s.stval = tval;
    uint64_t st = hot_.s.mstatus;
    st = (st & ~mstatus::SPIE) | ((st & mstatus::SIE) ? mstatus::SPIE : 0);
    st = (st & ~mstatus::SPP) | (hot_.s.priv == PRV_S ? mstatus::SPP : 0);
    st &= ~mstatus::SIE;
    hot_.s.mstatus = st;
    hot_.s.priv = PRV_S;
    hot_.s.pc = (hot_.s.stvec & ~3ull) + ((irq && (hot_.s.stvec & 1)) ? 4 * code : 0);
  } else {
    hot_.s.mcause = cause;
    hot_.s.mepc = hot_.s.pc;
    hot_.s.mtval = tval;
    uint64_t st = hot_.s.mstatus;
    st = (st & ~mstatus::MPIE) | ((st & mstatus::MIE) ? mstatus::MPIE : 0);
    st = (st & ~mstatus::MPP) | (static_cast<uint64_t>(hot_.s.priv) << 11);
    st &= ~mstatus::MIE;
    hot_.s.mstatus = st;
    hot_.s.priv = PRV_M;
    hot_.s.pc = (hot_.s.mtvec & ~3ull) + ((irq && (hot_.s.mtvec & 1)) ? 4 * code : 0);
    triggers_.trap_to_m();
  }
  update_xlate();
}

uint64_t Hart::interrupts_to_take() const {
  const uint64_t pending = hot_.s.mip & hot_.s.mie;
  const bool m_on = hot_.s.priv < PRV_M || (hot_.s.mstatus & mstatus::MIE);
  const bool s_on = hot_.s.priv < PRV_S || (hot_.s.priv == PRV_S && (hot_.s.mstatus & mstatus::SIE));
  const uint64_t m_pending = pending & ~hot_.s.mideleg & (m_on ? ~0ull : 0);
  const uint64_t s_pending = pending & hot_.s.mideleg & (s_on ? ~0ull : 0);
  return m_pending ? m_pending : s_pending;
}

bool Hart::check_interrupts() {
  const uint64_t take = interrupts_to_take();
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
  const uint64_t mip = hot_.s.mip;
  if (level) hot_.s.mip |= 1ull << irq;
  else hot_.s.mip &= ~(1ull << irq);
  if (hot_.s.mip != mip && cluster_.spin_waiting(*this)) cluster_.spin_waits_touched();  // what its WFI sees changed
  update_irq_gate();
  if (level) irq_event_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace avp
