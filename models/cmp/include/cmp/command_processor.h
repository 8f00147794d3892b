// The RefSi command processor: a 16-entry queue of command buffers, each run
// packet by packet like gem5's PM4 processor (fetch header, decode, fetch
// body, execute, complete: each step timed and counted), with status and
// error reporting, memory windows and kernel dispatch onto the harts.
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "base/local_time.h"
#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "base/unit.h"
#include "cmp/cmp_host_interface.h"
#include "cmp/cmp_register_mirror.h"
#include "cmp/packet_decoder.h"
#include "cmp/window_unit.h"
#include "harts/hart_control.h"

namespace avp {

class CommandProcessor : public sc_core::sc_module, public CmpHostInterface {
 public:
  tlm_utils::simple_initiator_socket<CommandProcessor> bus;    // memory and device accesses (unit CMP)

  Param<sc_core::sc_time> fetch_latency, decode_latency, execute_latency, complete_latency, launch_latency;
  Param<uint32_t> queue_depth;
  Param<sc_core::sc_time> kernel_watchdog;
  Param<uint64_t> max_copy_elements;
  Param<bool> finish_required;
  Param<uint32_t> failure_exit_status;
  Param<std::string> decoder;
  Param<std::string> rtl_vcd;
  Param<std::string> rtl_coverage;
  CmpRegisterMirror mirror;  // read-only register block at 0x2000_0000 (bind mirror.socket)

  CommandProcessor(sc_core::sc_module_name name, HartControl& harts, WindowUnit& windows);
  // The TCDM's global view (from the address map): default stacks and KTB copies live there.
  void set_tcdm(uint64_t global_base, uint64_t per_core) {
    tcdm_base_ = global_base;
    tcdm_per_core_ = per_core;
  }

  // CmpHostInterface.
  bool submit(uint64_t device_addr, uint64_t size) override;
  bool submit_for(uint64_t device_addr, uint64_t size, uint32_t context,
                  std::function<void(bool finished)> on_end) override;
  unsigned free_slots() const override;
  uint64_t completed_count() const override { return completed_; }
  uint64_t failed_count() const { return failed_; }
  CmpStatusWord status() const override;
  void reset() override;

  // Replaces the packet decoder (the RTL co-simulation plugs in here).
  void set_decoder(std::unique_ptr<PacketDecoder> d) { decoder_impl_ = std::move(d); }
  // The run ended: the decoder writes its coverage file, if it has one.
  void write_decoder_coverage() {
    if (decoder_impl_) decoder_impl_->write_coverage();
  }
  uint64_t reg(unsigned i) const { return regs_[i]; }
  // Fires when the queue drains (every submitted buffer finished or failed).
  const sc_core::sc_event& idle_event() const override { return idle_event_; }
  bool idle() const override { return queue_.empty() && !busy_; }

 private:
  struct Buffer {
    uint64_t addr, size;
    sc_core::sc_time submitted;
    uint64_t seq;  // submission number: the timeline's doorbell-to-completion flow
    uint32_t context;  // kNoContext, or the Acceldev context it runs for
    std::function<void(bool finished)> on_end;
  };
  struct Failure {
    avp_cmp_error code = AVP_CMP_OK;
    std::string what;
    bool hart_valid = false;
    unsigned hart = 0;
    uint64_t pc = 0, cause = 0;
  };

  void thread();
  bool run_buffer(const Buffer& b);  // false: the buffer failed
  void fail(const Buffer& b, uint64_t offset, unsigned opcode, const Failure& f);
  void trace_command(const Buffer& b, uint64_t offset, const DecodedCommand& c, const sc_core::sc_time& start,
                     const Failure& f) const;
  void trace_end(const Buffer& b, const char* what);
  void complete(const Buffer& b, LocalTime& time);
  Failure execute(const DecodedCommand& c, sc_core::sc_time& delay);
  Failure write_reg(unsigned idx, uint64_t v);
  Failure run_kernel(const DecodedCommand& c, sc_core::sc_time& delay);
  bool read64(uint64_t addr, uint64_t& v, sc_core::sc_time& delay, UnitId as, tlm::tlm_response_status* st = nullptr);
  bool write64(uint64_t addr, uint64_t v, sc_core::sc_time& delay, tlm::tlm_response_status* st = nullptr);
  bool read_block(uint64_t addr, void* dst, unsigned len, sc_core::sc_time& delay);
  bool write_block(uint64_t addr, const void* src, unsigned len, sc_core::sc_time& delay);
  void raise(uint32_t bits);

  HartControl& harts_;
  WindowUnit& windows_;
  uint64_t tcdm_base_ = 0, tcdm_per_core_ = 0;
  std::unique_ptr<PacketDecoder> decoder_impl_;
  uint64_t regs_[AVP_CMP_NUM_REGS] = {};
  std::deque<Buffer> queue_;
  bool busy_ = false;
  uint64_t completed_ = 0, submitted_ = 0, failed_ = 0;
  uint32_t launch_seq_ = 0;
  uint32_t context_ = kNoContext;  // of the buffer executing
  CmpStatusWord status_;
  sc_core::sc_event queue_event_, idle_event_;
  tlm::tlm_generic_payload gp_;
  Logger log_;
  Counter buffers_, failed_buffers_, packets_, queue_full_, instances_;
  CounterArray per_opcode_;  // op.<NAME>
  Histogram command_latency_, buffer_latency_, kernel_latency_;
  Occupancy queue_occupancy_;
  Utilisation busy_time_;
};

}  // namespace avp
