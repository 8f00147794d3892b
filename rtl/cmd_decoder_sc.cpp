#include "cmd_decoder_sc.h"

namespace avp {

CmdDecoderSc::CmdDecoderSc(sc_core::sc_module_name name, const std::string& vcd_path)
    : sc_module(name), clk("clk"), ctx_(std::make_unique<VerilatedContext>()),
      m_(std::make_unique<Vcmd_decoder>(ctx_.get(), "cmd_decoder")) {
  if (!vcd_path.empty()) {
    ctx_->traceEverOn(true);
    vcd_ = std::make_unique<VerilatedVcdC>();
    m_->trace(vcd_.get(), 99);
    vcd_->open(vcd_path.c_str());
  }
  SC_HAS_PROCESS(CmdDecoderSc);
  SC_METHOD(on_clock);
  sensitive << clk;
  dont_initialize();
}

CmdDecoderSc::~CmdDecoderSc() {
  m_->final();
  if (vcd_) vcd_->close();
}

void CmdDecoderSc::on_clock() {
  m_->clk = clk.read();
  m_->rst = rst.read();
  m_->in_valid = in_valid.read();
  m_->in_data = in_data.read();
  m_->in_avail = static_cast<uint16_t>(in_avail.read());
  m_->out_ready = out_ready.read();
  m_->eval();
  if (vcd_) vcd_->dump(time_++);
  in_ready.write(m_->in_ready);
  out_valid.write(m_->out_valid);
  out_opcode.write(m_->out_opcode);
  out_inline.write(m_->out_inline);
  out_payload_count.write(m_->out_payload_count);
  out_error.write(m_->out_error);
  out_payload0.write(m_->out_payload[0]);
}

}  // namespace avp
