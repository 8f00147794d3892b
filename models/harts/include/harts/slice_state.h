// A hart's part in the parallel quantum schedule (hart_slices.h) that passes
// between its slice, which may run on any host thread, and its own SystemC
// thread, which finishes it (Hart::run_slice, Hart::finish_slice): whether a
// slice runs, how the last one ended and what it left to do, the hart's
// place on the quantum grid, and the Timing transactions the slice deferred
// for the replay in hart order after the batch.
#pragma once
#include <cstdint>
#include <exception>
#include <mutex>
#include <utility>
#include <vector>

#include <systemc>

#include "harts/decoded_block.h"
#include "harts/hart_traffic.h"
#include "harts/trap_exception.h"

namespace avp {

// Thrown in a slice before the instruction that needs the kernel (a device
// access, a DMI request, a page walk, an atomic...) has done anything.
struct NeedsKernel {};

class SliceState {
 public:
  // How the last slice ended. Serial: none ran, the serial loop's next step
  // is due. Block: at a block boundary with the quantum used or the
  // instruction stop reached. Resume: before an instruction that needs the
  // kernel, which the hart's thread runs (resume_block, resume_index). Trap:
  // a trap to take (trap). Code: after a store into decoded code, which the
  // kernel invalidates (take_code_write). Error: an exception to rethrow.
  enum class End { Serial, Block, Resume, Trap, Code, Error };

  bool parallel = false;  // the hart runs in the parallel schedule (taken when it runs)
  sc_core::sc_event done;  // notified when the hart's slice of a batch has run

  bool in_slice() const { return in_slice_; }
  // `beside_others`: other harts' slices may run at the same time, on other
  // host threads (a batch of several slices with host threads to share them).
  // `with_others`: the batch has other slices (on any number of host threads).
  void begin(bool beside_others, bool with_others) {
    in_slice_ = true;
    beside_others_ = beside_others;
    with_others_ = with_others;
    end_ = End::Serial;
  }
  void leave() { in_slice_ = false; }
  // The lock on what harts share (m), taken only in a slice that other
  // slices may run beside (the serial schedule, and a slice that runs
  // alone, need none).
  std::unique_lock<std::mutex> lock(std::mutex& m) const {
    std::unique_lock<std::mutex> lk(m, std::defer_lock);
    if (in_slice_ && beside_others_) lk.lock();
    return lk;
  }
  // Whether the slice defers its Timing transactions to the replay after
  // its batch: when the batch has other slices, whose transactions the
  // host threads would otherwise order. A slice alone in its batch times
  // them in place, as the serial schedule does.
  bool defers_traffic() const { return in_slice_ && with_others_; }
  // A slice alone in its batch: no other slice runs beside it, so its
  // accesses need no claims (page_claims.h).
  bool alone_in_batch() const { return in_slice_ && !with_others_; }
  End end() const { return end_; }
  void end_at_block() { end_ = End::Block; }

  // The block the threaded loop was in when something that needs the kernel
  // left it; the slice then resumes it at the instruction of the hart's pc.
  void left(const DecodedBlock& b) { left_block_ = &b; }
  const DecodedBlock& left_block() const { return *left_block_; }
  void resume_at(uint32_t index) {
    resume_block_ = left_block_;
    resume_index_ = index;
    end_ = End::Resume;
  }
  const DecodedBlock& resume_block() const { return *resume_block_; }
  uint32_t resume_index() const { return resume_index_; }

  void trapped(const TrapException& t) {
    trap_ = t;
    end_ = End::Trap;
  }
  const TrapException& trap() const { return trap_; }
  void failed(std::exception_ptr e) {
    error_ = std::move(e);
    end_ = End::Error;
  }
  [[noreturn]] void rethrow() { std::rethrow_exception(std::exchange(error_, nullptr)); }

  // A store of the slice wrote [addr, addr + len) of decoded code: the slice
  // ends after its instruction (code_written), the kernel invalidates.
  void note_code_write(uint64_t addr, unsigned len) {
    code_hit_ = true;
    code_addr_ = addr;
    code_len_ = len;
  }
  bool code_written() const { return code_hit_; }
  void end_at_code_write() { end_ = End::Code; }
  std::pair<uint64_t, unsigned> take_code_write() {
    code_hit_ = false;
    return {code_addr_, code_len_};
  }

  // The quantum grid: the last boundary (a multiple of quantum_ps) not after
  // now + local_ps, when it lies after now (0: none ahead). The local time
  // beyond it stays ahead (grid_ahead), so nothing is lost or added.
  uint64_t grid_boundary(uint64_t now, uint64_t local_ps, uint64_t quantum_ps) {
    const uint64_t boundary = boundary_ahead(now, local_ps, quantum_ps);
    if (boundary) grid_ahead_ = now + local_ps - boundary;
    return boundary;
  }
  // That boundary, nothing noted.
  static uint64_t boundary_ahead(uint64_t now, uint64_t local_ps, uint64_t quantum_ps) {
    const uint64_t boundary = (now + local_ps) / quantum_ps * quantum_ps;
    return boundary > now ? boundary : 0;
  }
  uint64_t grid_ahead() const { return grid_ahead_; }
  // Where this slice's skips may pass whole quanta of the grid to (ps,
  // absolute; 0: nowhere), set by the schedule before each batch
  // (HartSlices::allow_passing, Hart::quanta_to_pass); not after traffic
  // the batch will replay, whose stalls move what follows.
  void allow_passing(uint64_t until_ps) { pass_until_ps_ = until_ps; }
  uint64_t pass_until_ps() const { return in_slice_ && deferred_.empty() ? pass_until_ps_ : 0; }
  // After a slice, whether all the hart's thread would do is wait for the
  // grid (the quantum used at a block boundary, nothing else due), so that
  // the schedule may park the hart there instead.
  bool only_grid_wait(bool quantum_used, bool insn_stop_reached, bool switch_due) const {
    return end_ == End::Block && quantum_used && !insn_stop_reached && !switch_due;
  }

  // Timing transactions whose queueing depends on the order of the harts'
  // slices, issued at the local time offset_ps: replayed after the batch.
  void defer(const HartTraffic& t, uint64_t offset_ps) { deferred_.push_back({t, offset_ps}); }
  const std::vector<DeferredTraffic>& deferred() const { return deferred_; }
  // The replay stalled the hart by stall_ps: returns what its local time
  // takes now; a parked hart takes it when unparked (unpark_ahead).
  uint64_t replayed(uint64_t stall_ps, bool parked) {
    deferred_.clear();
    if (!parked) return stall_ps;
    parked_stall_ps_ += stall_ps;
    return 0;
  }
  // At the boundary a parked hart waited for: its local time beyond it.
  uint64_t unpark_ahead() { return grid_ahead_ + std::exchange(parked_stall_ps_, 0); }

 private:
  bool in_slice_ = false, beside_others_ = false, with_others_ = false;
  End end_ = End::Serial;
  const DecodedBlock* left_block_ = nullptr;
  const DecodedBlock* resume_block_ = nullptr;
  uint32_t resume_index_ = 0;
  TrapException trap_{};
  std::exception_ptr error_;
  bool code_hit_ = false;
  uint64_t code_addr_ = 0;
  unsigned code_len_ = 0;
  uint64_t grid_ahead_ = 0;
  uint64_t pass_until_ps_ = 0;
  std::vector<DeferredTraffic> deferred_;
  uint64_t parked_stall_ps_ = 0;
};

}  // namespace avp
