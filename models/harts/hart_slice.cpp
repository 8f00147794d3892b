// A hart's part of the parallel quantum schedule (hart_slices.h): the slice
// that may run on any host thread, and what its own SystemC thread does
// after it. A slice does what the serial run loop does, block by block, and
// stops before anything that needs the SystemC kernel or touches another
// hart; the hart's thread then does that step exactly as the serial loop
// would, so the same slices in one host thread or several give the same
// results.
#include <utility>

#include "harts/hart.h"
#include "harts/hart_cluster.h"

namespace avp {

const Hart::Block* Hart::decoded_block(uint64_t pc) {
  const Block* b = blocks_.find(pc, hot_.fetch_key);
  return b ? &translated_again(*b) : nullptr;
}

void Hart::run_slice(bool beside_others, bool with_others) {
  slice_.begin(beside_others, with_others);
  if (with_others) data_.keep_to_claims();
  try {
    for (;;) {
      // The serial loop's checks at a block boundary: any of them is the
      // kernel's. An interrupt pending but masked (mstatus, the privilege)
      // is not taken there either: the blocks run on.
      if (hot_.stop || timed_out_ || hot_.s.pc == hot_.end_pc || flush_ || blocks_.pending() || refetch_ ||
          interrupts_to_take())
        break;
      if (hot_.time.quantum_used()) {  // a replayed stall (replay_traffic) took the quantum
        slice_.end_at_block();
        break;
      }
      const Block* first = decoded_block(hot_.s.pc);
      // Decoding, or walking the page tables for a page the TLB lost, reads memory through the bus.
      if (!first || !fetch_translation_kept(*first)) break;
      try {
        // Chained blocks (hart_chain.cpp) until a check above, the ones below
        // or a block not decoded yet stops them.
        run_chain(*first);
        if (slice_.end() == SliceState::End::Resume) break;  // left for the kernel (left_for_kernel)
      } catch (const NeedsKernel&) {
        // The instruction at hot_.s.pc has not started: the hart's thread runs the block from there.
        slice_.resume_at(index_of_pc(slice_.left_block()));
        break;
      } catch (const TrapException& t) {  // run_insns has ended the history's block
        slice_.trapped(t);
        break;
      }
      if (slice_.code_written()) {
        slice_.end_at_code_write();
        break;
      }
      if (hot_.time.quantum_used() && cluster_.slices().pass_boundary(*this)) continue;
      if (hot_.time.quantum_used() || hot_.insn_stop_reached()) {
        slice_.end_at_block();
        break;
      }
    }
  } catch (...) {
    slice_.failed(std::current_exception());
  }
  slice_.leave();
}

void Hart::finish_slice() {
  switch (slice_.end()) {
    case SliceState::End::Trap:
      take_trap(slice_.trap().cause, slice_.trap().tval);
      break;
    case SliceState::End::Resume:
      try {
        run_block(slice_.resume_block(), slice_.resume_index(), true);
      } catch (const TrapException& t) {
        take_trap(t.cause, t.tval);
      }
      break;
    case SliceState::End::Code: {
      const auto [addr, len] = slice_.take_code_write();
      cluster_.code_written(addr, len);
      break;
    }
    case SliceState::End::Error:
      slice_.rethrow();
    default:
      break;
  }
  // The rest of the serial loop's iteration.
  if (hot_.functional) check_timed_switch();
  if (hot_.time.quantum_used()) quantum_sync();
  if (limit_ && hot_.s.minstret >= limit_ && !hot_.stop) {
    cluster_.report_limit(*this);
    finish(HartExitKind::Limit);
  }
}

void Hart::quantum_sync() {
  if (slice_.parallel) {
    sync_to_grid();
    return;
  }
  settle();
  if (!std::exchange(run_on_refused_, false) && run_on()) {
    check_deadline(hot_.time.now_ps());  // nothing else pending that could matter (run_ahead.h)
    return;
  }
  sync_spinning();
}

// What the run loop does at a quantum's end when the hart runs on without a
// wait (quantum_sync; the block retired in its code, so nothing is left to
// settle), done from translated code, whose chain then goes on. 0 when the
// run loop has to do it: a wait, the parallel schedule, a deadline met, or a
// full translation cache to empty at this block boundary.
uint64_t Hart::translated_quantum_end(void* hart) noexcept {
  Hart& h = *static_cast<HartHotState*>(hart)->hart;
  const HartHotState::HelperCall call{h.hot_};
  if (h.switch_ps_ && h.hot_.time.now_ps() >= h.switch_ps_) return 0;  // the run loop switches to timed
  if (h.slice_.parallel) return h.slice_.in_slice() && !h.blocks_.code_full() && h.cluster_.slices().pass_boundary(h);
  if (h.blocks_.code_full()) return 0;
  if (!h.run_on()) {
    h.run_on_refused_ = true;
    return 0;
  }
  h.check_deadline(h.hot_.time.now_ps());
  return !h.timed_out_;
}

// Where a functional run's chain has no instructions left before its bound
// (BlockChain::count), with those it counted retired: at the quantum's
// end what translated_quantum_end does, then the instruction stop ends the
// chain; 0 when it ends.
uint64_t Hart::translated_bound_reached(void* hart) noexcept {
  Hart& h = *static_cast<HartHotState*>(hart)->hart;
  const HartHotState::HelperCall call{h.hot_};
  if (h.hot_.time.quantum_used() && !translated_quantum_end(hart)) return 0;
  return !h.hot_.insn_stop_reached();
}

void Hart::sync_to_grid() {
  if (grid_boundary(to_ps(sc_core::sc_time_stamp()))) {
    hot_.time.sync();
    hot_.time.add_ps(slice_.grid_ahead());
  }
  check_deadline(systemc_ps());
}

uint64_t Hart::grid_boundary(uint64_t now) {
  // Harts that wake at the same quantum boundary run their next slices
  // together; the local time beyond the boundary stays ahead, so nothing is
  // lost or added.
  const uint64_t boundary = slice_.grid_boundary(now, hot_.time.ps(), to_ps(cluster_.quantum()));
  if (boundary) hot_.time.set(from_ps(boundary - now));
  return boundary;
}

uint64_t Hart::park_until_grid(uint64_t now) {
  // What finish_slice would do after such a slice: only sync_to_grid.
  return slice_.only_grid_wait(hot_.time.quantum_used(), hot_.insn_stop_reached(), switch_due(now)) ? grid_boundary(now)
                                                                                                      : 0;
}

// A functional run's switch point is the hart's thread's (check_timed_switch).
bool Hart::switch_due(uint64_t now) const {
  return switch_ps_ && now + hot_.time.ps() >= switch_ps_;  // as quantum_used() holds where it is asked
}

uint64_t Hart::grid_boundary_ahead(uint64_t now) const {
  if (!hot_.time.quantum_used() || hot_.insn_stop_reached() || switch_due(now)) return 0;
  return SliceState::boundary_ahead(now, hot_.time.ps(), to_ps(cluster_.quantum()));
}

void Hart::pass_boundary(uint64_t boundary, uint64_t now) {
  grid_boundary(now);  // as park_until_grid after the slice, whose tests grid_boundary_ahead made
  allow_passing(0);    // a batch of a hart in no wait loop (HartSlices::allow_passing)
  unpark(boundary, now);
}

void Hart::unpark(uint64_t boundary, uint64_t now) {
  hot_.time.start_quantum(boundary - now, slice_.unpark_ahead());
  check_deadline(boundary);
}

// The slice's deferred Timing transactions as Replay transactions, in order.
void Hart::replay_traffic(bool parked) {
  uint64_t stall = 0;
  for (const DeferredTraffic& d : slice_.deferred()) {
    // At its time in the slice, moved on by the stalls replayed before it
    // (the hart would have issued it that much later); SystemC time is
    // still the batch's.
    const uint64_t at = d.offset_ps + stall;
    uint64_t delay_ps = at;
    bus_timing_.replay(d.pa, d.write, d.len, d.fetch, delay_ps);
    if (!d.waits) continue;
    stall += delay_ps - at;
    hot_.stall_ps[d.fetch ? StallFetch : StallMemory] += delay_ps - at;
  }
  hot_.time.add_ps(slice_.replayed(stall, parked));
}

}  // namespace avp
