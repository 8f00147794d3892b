// The Verilated RTL decoder behind the CMP's PacketDecoder interface: steps
// the --cc model only for the cycles one command needs and reports them. The
// wait for the decoded command is bounded: an RTL that does not answer within
// the cycles the packet can need is reset and the command fails with
// AVP_CMP_ERR_LOCKSTEP. Optionally writes a VCD of the model's pins in the
// platform's time unit (1 ps): each decode's cycles from the simulated time
// the command processor starts it (set_time), one decode_latency per cycle,
// never before the previous decode's last edge (times only increase). A model
// Verilated with --coverage writes its coverage .dat on write_coverage().
#pragma once
#include <algorithm>
#include <memory>
#include <string>

// Verilator's headers use SystemC's sc_time_stamp() unqualified when SystemC is present.
#include <systemc>
using sc_core::sc_time_stamp;
#include <verilated.h>
#include <verilated_cov.h>
#include <verilated_vcd_c.h>
#include <fstream>

#include "cmp/packet_decoder.h"

namespace avp {

template <class Model>
class RtlPacketDecoder : public PacketDecoder {
 public:
  // vcd_path empty: no waveform. coverage_path: where write_coverage() writes
  // (the Model must be a coverage build; empty: nowhere).
  explicit RtlPacketDecoder(const std::string& vcd_path = "", const std::string& coverage_path = "")
      : ctx_(std::make_unique<VerilatedContext>()),
        m_(std::make_unique<Model>(ctx_.get(), "cmd_decoder")),
        coverage_path_(coverage_path) {
    if (!coverage_path_.empty() && !std::ofstream(coverage_path_))
      throw std::runtime_error(coverage_path_ + ": cannot write the RTL coverage file");
    if (!vcd_path.empty()) {
      ctx_->traceEverOn(true);
      vcd_ = std::make_unique<VerilatedVcdC>();
      m_->trace(vcd_.get(), 99);
      vcd_->set_time_unit("1ps");
      vcd_->set_time_resolution("1ps");
      vcd_->open(vcd_path.c_str());
      if (!vcd_->isOpen()) throw std::runtime_error(vcd_path + ": cannot write the RTL VCD file");
    }
    reset();
    cycles_ = 0;
  }
  ~RtlPacketDecoder() override {
    m_->final();
    if (vcd_) vcd_->close();
  }

  // chunks holds min(available, 9) chunks: the header and up to 8 payload chunks.
  DecodedCommand decode(const uint64_t* chunks, size_t available) override {
    DecodedCommand d;
    if (available == 0) {
      d.error = AVP_CMP_ERR_NO_FINISH;  // nothing to present to the RTL
      return d;
    }
    const uint64_t start = cycles_;
    // A packet has at most 1 + 8191 chunks (COUNT has 14 bits); the command
    // comes the cycle after its last chunk.
    const size_t limit = std::min<size_t>(available, 1 + 8191) + 1;
    m_->in_valid = 1;
    m_->in_data = chunks[0];
    m_->in_avail = static_cast<uint16_t>(std::min<size_t>(available, 0xFFFF));
    m_->out_ready = 0;
    tick();  // header accepted (in_ready is high in IDLE)
    for (size_t i = 1; !m_->out_valid; ++i) {
      if (i > limit) {
        m_->in_valid = 0;
        reset();
        d.opcode = static_cast<uint8_t>(AVP_CMP_HEADER_OPCODE(chunks[0]));
        d.error = AVP_CMP_ERR_LOCKSTEP;
        d.cycles = static_cast<unsigned>(cycles_ - start);
        timeouts_++;
        return d;
      }
      m_->in_data = (i <= 8 && i < available) ? chunks[i] : 0;  // NOP payloads beyond 8 are consumed as zeros
      tick();
    }
    m_->in_valid = 0;
    d.opcode = m_->out_opcode;
    d.inline_value = m_->out_inline;
    d.payload_chunks = m_->out_payload_count;
    d.error = static_cast<avp_cmp_error>(m_->out_error);
    if (d.error == AVP_CMP_OK || d.error == AVP_CMP_ERR_BAD_REGISTER)
      for (unsigned i = 0; i < std::min(8u, d.payload_chunks); ++i) d.payload[i] = m_->out_payload[i];
    m_->out_ready = 1;
    tick();  // output handshake
    m_->out_ready = 0;
    d.cycles = static_cast<unsigned>(cycles_ - start);
    return d;
  }
  void set_time(uint64_t start_ps, uint64_t cycle_ps) override {
    next_ps_ = std::max(next_ps_, start_ps);
    cycle_ps_ = std::max<uint64_t>(2, cycle_ps);
  }
  void write_coverage() override {
    if (coverage_path_.empty()) return;
    ctx_->coveragep()->write(coverage_path_.c_str());
  }
  uint64_t cycles() const { return cycles_; }
  uint64_t timeouts() const { return timeouts_; }  // commands the RTL never presented

 private:
  void reset() {
    m_->rst = 1;
    tick();
    tick();
    m_->rst = 0;
  }
  void tick() {
    m_->clk = 0;
    m_->eval();
    if (vcd_) vcd_->dump(next_ps_);
    m_->clk = 1;
    m_->eval();
    if (vcd_) vcd_->dump(next_ps_ + cycle_ps_ / 2);
    next_ps_ += cycle_ps_;
    ++cycles_;
  }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  std::string coverage_path_;
  uint64_t cycles_ = 0, timeouts_ = 0;
  uint64_t next_ps_ = 0, cycle_ps_ = 1000;  // the next cycle's falling edge in the waveform; one cycle
};

}  // namespace avp
