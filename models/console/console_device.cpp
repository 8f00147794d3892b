#include "console/console_device.h"

#include <cstring>

#include "base/unit.h"
#include "console/console_regs.h"

namespace avp {

ConsoleDevice::ConsoleDevice(sc_core::sc_module_name name, unsigned harts, LineSink on_line)
    : sc_module(name),
      socket("socket"),
      access_latency(this, "access_latency", sc_core::sc_time(2, sc_core::SC_NS), "latency of a console register access"),
      lines_(harts),
      on_line_(std::move(on_line)),
      log_(this->name()),
      bytes_(this, "bytes", "bytes written to TXDATA", "bytes"),
      lines_emitted_(this, "lines", "lines emitted", "lines"),
      errors_(this, "errors", "register accesses answered with an error", "accesses") {
  socket.register_b_transport(this, &ConsoleDevice::b_transport);
  socket.register_transport_dbg(this, &ConsoleDevice::transport_dbg);
  regs_.add(AVP_CONSOLE_TXDATA, "TXDATA", nullptr, [this](uint32_t v) {
    const char c = static_cast<char>(v & 0xFF);
    bytes_.inc();
    if (c == '\n') return emit(hart_, now_);
    lines_[hart_] += c;
    if (lines_[hart_].size() >= AVP_CONSOLE_LINE_MAX) emit(hart_, now_);
  });
  regs_.add(AVP_CONSOLE_FLUSH, "FLUSH", nullptr, [this](uint32_t) {
    if (!lines_[hart_].empty()) emit(hart_, now_);
  });
  regs_.add(AVP_CONSOLE_STATUS, "STATUS",
            [this] { return AVP_CONSOLE_STATUS_READY | static_cast<uint32_t>(lines_[hart_].size()); }, nullptr);
}

void ConsoleDevice::emit(unsigned hart, const sc_core::sc_time& when) {
  lines_emitted_.inc();
  std::string text;
  text.swap(lines_[hart]);
  if (on_line_) on_line_(hart, when, text);
}

void ConsoleDevice::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  delay += access_latency.get();
  const uint64_t off = gp.get_address();
  const UnitId unit = unit_of(gp);
  const RegisterBank::Reg* reg = off <= 0xFFFFFFFFull ? regs_.find(static_cast<uint32_t>(off)) : nullptr;
  const char* problem = nullptr;
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  if (gp.get_data_length() != 4 || (off & 3)) {
    problem = "not a 32-bit aligned access";
    status = tlm::TLM_BURST_ERROR_RESPONSE;
  } else if (unit_kind(unit) != UnitKind::Hart || unit_index(unit) >= lines_.size()) {
    problem = "not a hart (the console keeps one line per hart)";
    status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
  } else if (!reg) {
    problem = "no register at this offset";
    status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
  } else if (gp.is_read() ? !reg->read : !reg->write) {
    problem = gp.is_read() ? "read of a write-only register" : "write of a read-only register";
    status = tlm::TLM_COMMAND_ERROR_RESPONSE;
  }
  if (problem) {
    errors_.inc();
    AVP_LOG(log_, Warn, (gp.is_read() ? "read" : "write") << " of " << gp.get_data_length() << " bytes at offset 0x"
                                                          << std::hex << off << " by " << unit_name(unit) << ": " << problem);
    gp.set_response_status(status);
    return;
  }
  hart_ = unit_index(unit);
  now_ = sc_core::sc_time_stamp() + delay;
  uint32_t v = 0;
  if (gp.is_read()) {
    v = reg->read();
    std::memcpy(gp.get_data_ptr(), &v, 4);
  } else {
    std::memcpy(&v, gp.get_data_ptr(), 4);
    reg->write(v);
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned ConsoleDevice::transport_dbg(tlm::tlm_generic_payload& gp) {
  // Debuggers may read STATUS of a hart; nothing else (writes would print).
  const UnitId unit = unit_of(gp);
  if (!gp.is_read() || gp.get_data_length() != 4 || gp.get_address() != AVP_CONSOLE_STATUS ||
      unit_kind(unit) != UnitKind::Hart || unit_index(unit) >= lines_.size())
    return 0;
  hart_ = unit_index(unit);
  const uint32_t v = regs_.find(AVP_CONSOLE_STATUS)->read();
  std::memcpy(gp.get_data_ptr(), &v, 4);
  return 4;
}

void ConsoleDevice::end_of_simulation() {
  // Bytes without a final '\n' are not lost: they become a last line.
  for (unsigned h = 0; h < lines_.size(); ++h)
    if (!lines_[h].empty()) emit(h, sc_core::sc_time_stamp());
}

}  // namespace avp
