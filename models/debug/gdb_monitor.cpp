// GDB `monitor` commands (qRcmd): the built-in ones about the harts, then
// those the platform adds (GdbServer::set_monitor: windows, statistics).
// Output travels as console-output packets (O...), then OK.
#include <cstdio>

#include "gdb_server.h"

namespace avp {

namespace {

const char* priv_name(unsigned p) { return p == rv::PRV_M ? "M" : p == rv::PRV_S ? "S" : p == rv::PRV_U ? "U" : "?"; }

std::string hex(uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
  return s;
}

}  // namespace

bool GdbServer::builtin_monitor(const std::string& command, std::string& out) {
  if (command == "help") {
    out = "monitor harts          the harts GDB sees: state, privilege mode, pc\n"
          "monitor reset          every hart back to the registers it started with (memory is not reloaded)\n";
    std::string more;
    if (monitor_ && monitor_("help", more)) out += more;
    return true;
  }
  if (command == "harts") {
    for (unsigned t = 1; t <= threads_; ++t) {
      const Hart& h = harts_.hart(t - 1);
      out += "hart " + std::to_string(h.id()) + " (thread " + std::to_string(t) + "): " + (h.idle() ? "idle" : "running") +
             ", privilege " + priv_name(h.state().priv) + ", pc " + hex(h.state().pc) + "\n";
    }
    return true;
  }
  if (command == "reset") {
    unsigned n = 0;
    for (unsigned t = 1; t <= threads_; ++t) {
      if (!start_states_[t - 1]) continue;
      harts_.hart(t - 1).state() = *start_states_[t - 1];
      ++n;
    }
    harts_.invalidate_icaches();
    out = std::to_string(n) + " hart(s) reset to their start (pc " +
          (start_states_[g_thread_ - 1] ? hex(start_states_[g_thread_ - 1]->pc) : std::string("unchanged")) +
          " for the current one); memory is not reloaded; `flushregs` shows the new registers\n";
    return true;
  }
  return false;
}

std::string GdbServer::monitor_request(const std::string& command) {
  std::string out;
  if (!builtin_monitor(command, out) && !(monitor_ && monitor_(command, out)))
    out = "unknown monitor command '" + command + "' (monitor help lists them)\n";
  constexpr size_t kChunk = (gdb::kMaxPayload - 2) / 2;
  for (size_t at = 0; at < out.size(); at += kChunk) conn_.send("O" + gdb::hex_bytes(std::string_view(out).substr(at, kChunk)));
  return "OK";
}

}  // namespace avp
