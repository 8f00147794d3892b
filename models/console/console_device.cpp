#include "console/console_device.h"

#include <cstring>

#include "base/unit.h"

namespace avp {

ConsoleDevice::ConsoleDevice(sc_core::sc_module_name name, unsigned harts, LineSink on_line)
    : sc_module(name),
      socket("socket"),
      lines_(harts),
      on_line_(std::move(on_line)),
      log_(this->name()),
      bytes_(this, "bytes", "bytes written to TXDATA", "bytes"),
      lines_emitted_(this, "lines", "lines emitted", "lines"),
      errors_(this, "errors", "register accesses answered with an error", "accesses") {
  socket.register_b_transport(this, &ConsoleDevice::b_transport);
  socket.register_transport_dbg(this, &ConsoleDevice::transport_dbg);
  TXDATA.on_write([this](uint32_t v) {
    const char c = static_cast<char>(v & 0xFF);
    bytes_.inc();
    if (c == '\n') return emit(hart_, now_);
    lines_[hart_] += c;
    if (lines_[hart_].size() >= AVP_CONSOLE_LINE_MAX) emit(hart_, now_);
  });
  FLUSH.on_write([this](uint32_t) {
    if (!lines_[hart_].empty()) emit(hart_, now_);
  });
  STATUS.on_read([this] { return AVP_CONSOLE_STATUS_READY | static_cast<uint32_t>(lines_[hart_].size()); });
}

void ConsoleDevice::emit(unsigned hart, const sc_core::sc_time& when) {
  lines_emitted_.inc();
  std::string text;
  text.swap(lines_[hart]);
  if (on_line_) on_line_(hart, when, text);
}

// The register block applies the misuse rules; only harts have a line.
void ConsoleDevice::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const UnitId unit = unit_of(gp);
  if (unit_kind(unit) != UnitKind::Hart || unit_index(unit) >= lines_.size()) {
    delay += regs_.latency.get();
    errors_.inc();
    AVP_LOG(log_, Warn, (gp.is_read() ? "read" : "write") << " of " << gp.get_data_length() << " bytes at offset 0x"
                                                          << std::hex << gp.get_address() << " by " << unit_name(unit)
                                                          << ": not a hart (the console keeps one line per hart)");
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  hart_ = unit_index(unit);
  now_ = sc_core::sc_time_stamp() + delay + regs_.latency.get();
  if (regs_.access(gp, delay) == RegisterBlock::Outcome::Misused) errors_.inc();
}

unsigned ConsoleDevice::transport_dbg(tlm::tlm_generic_payload& gp) {
  // Debuggers may read STATUS of a hart; nothing else (writes would print).
  const UnitId unit = unit_of(gp);
  if (!gp.is_read() || gp.get_data_length() != 4 || gp.get_address() != AVP_CONSOLE_STATUS ||
      unit_kind(unit) != UnitKind::Hart || unit_index(unit) >= lines_.size())
    return 0;
  hart_ = unit_index(unit);
  return regs_.debug(gp);
}

void ConsoleDevice::end_of_simulation() {
  // Bytes without a final '\n' are not lost: they become a last line.
  for (unsigned h = 0; h < lines_.size(); ++h)
    if (!lines_[h].empty()) emit(h, sc_core::sc_time_stamp());
}

}  // namespace avp
