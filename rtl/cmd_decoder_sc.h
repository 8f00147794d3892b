// A clocked SystemC wrapper of the Verilated decoder for pin-level debugging:
// an sc_clock drives it, pins are sc_signals, and every edge can be written
// to a VCD file. About ten times slower than stepping the model directly
// (RtlPacketDecoder), which is what the command processor uses.
#pragma once
#include <memory>
#include <string>

#include <systemc>
using sc_core::sc_time_stamp;  // for Verilator's headers
#include <verilated.h>
#include <verilated_vcd_c.h>

#include "Vcmd_decoder.h"

namespace avp {

class CmdDecoderSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_signal<bool> rst, in_valid, in_ready, out_valid, out_ready;
  sc_core::sc_signal<uint64_t> in_data;
  sc_core::sc_signal<uint32_t> in_avail, out_opcode, out_inline, out_payload_count, out_error;
  sc_core::sc_signal<uint64_t> out_payload0;

  // vcd_path empty: no trace.
  CmdDecoderSc(sc_core::sc_module_name name, const std::string& vcd_path = "");
  ~CmdDecoderSc() override;

 private:
  void on_clock();
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vcmd_decoder> m_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  uint64_t time_ = 0;
};

}  // namespace avp
