// GDB `monitor` commands (qRcmd): the built-in ones about the harts, then
// those the platform adds (GdbServer::set_monitor: windows, statistics).
// Output travels as console-output packets (O...), then OK.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "debug/gdb_server.h"
#include "harts/rv_disasm.h"

namespace avp {

namespace {

const char* priv_name(unsigned p) { return p == rv::PRV_M ? "M" : p == rv::PRV_S ? "S" : p == rv::PRV_U ? "U" : "?"; }

std::string hex(uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
  return s;
}

// "ADDR [LEN]" (numbers in C syntax); false when it does not parse.
bool parse_range(const std::string& args, uint64_t& addr, uint64_t& len) {
  std::istringstream in(args);
  std::string a, l;
  if (!(in >> a)) return false;
  in >> l;
  std::string rest;
  if (in >> rest) return false;
  try {
    size_t used = 0;
    addr = std::stoull(a, &used, 0);
    if (used != a.size()) return false;
    len = 64;
    if (!l.empty()) {
      len = std::stoull(l, &used, 0);
      if (used != l.size()) return false;
    }
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

// Rows of 16 bytes: address, hex bytes, ASCII.
std::string hex_dump(uint64_t addr, const std::vector<uint8_t>& b) {
  std::string out;
  char buf[32];
  for (size_t i = 0; i < b.size(); i += 16) {
    std::snprintf(buf, sizeof buf, "0x%012llx:", static_cast<unsigned long long>(addr + i));
    out += buf;
    std::string text;
    for (size_t k = i; k < i + 16 && k < b.size(); ++k) {
      std::snprintf(buf, sizeof buf, " %02x", b[k]);
      out += buf;
      text += b[k] >= 0x20 && b[k] < 0x7f ? static_cast<char>(b[k]) : '.';
    }
    out += std::string(3 * (16 - std::min<size_t>(16, b.size() - i)), ' ') + "  " + text + "\n";
  }
  return out;
}

}  // namespace

bool GdbServer::builtin_monitor(const std::string& command, std::string& out) {
  if (command == "help") {
    out = "monitor harts          the harts GDB sees: state, privilege mode, pc\n"
          "monitor registers      the integer registers of every hart GDB sees (QEMU's info registers -a)\n"
          "monitor xp ADDR [LEN]  LEN bytes (default 64, at most 4096) of memory as the current hart sees it, by\n"
          "                       physical address (QEMU's xp)\n"
          "monitor x ADDR [LEN]   the same by virtual address, through the current hart's satp (QEMU's x); the\n"
          "                       walk changes nothing (no TLB fill, no A/D bits, no counters)\n"
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
  if (command == "registers") {
    char buf[64];
    for (unsigned t = 1; t <= threads_; ++t) {
      const Hart& h = harts_.hart(t - 1);
      const rv::HartState& s = h.state();
      out += "hart " + std::to_string(h.id()) + " (thread " + std::to_string(t) + "): " + (h.idle() ? "idle" : "running") +
             ", privilege " + priv_name(s.priv) + ", pc " + hex(s.pc) + "\n";
      for (unsigned r = 1; r < 32; ++r) {
        std::snprintf(buf, sizeof buf, "  %-4s %016llx", rv::xreg_name(r), static_cast<unsigned long long>(s.x[r]));
        out += buf;
        if (r % 4 == 3 || r == 31) out += "\n";
      }
    }
    return true;
  }
  if (command == "xp" || command.rfind("xp ", 0) == 0) {
    uint64_t addr = 0, len = 0;
    if (!parse_range(command.substr(2), addr, len) || len == 0 || len > 4096) {
      out = "usage: monitor xp ADDR [LEN]  (LEN 1..4096, default 64)\n";
      return true;
    }
    std::vector<uint8_t> b(len);
    out = current_hart().debug_read(addr, b.data(), static_cast<unsigned>(len))
              ? hex_dump(addr, b)
              : "cannot read " + std::to_string(len) + " bytes at " + hex(addr) + " (not memory in the hart's view)\n";
    return true;
  }
  if (command == "x" || command.rfind("x ", 0) == 0) {
    uint64_t va = 0, len = 0;
    if (!parse_range(command.substr(1), va, len) || len == 0 || len > 4096) {
      out = "usage: monitor x ADDR [LEN]  (LEN 1..4096, default 64)\n";
      return true;
    }
    Hart& h = current_hart();
    std::vector<uint8_t> b(len);
    // Page by page: consecutive virtual pages need not be consecutive physical ones.
    for (uint64_t done = 0; done < len;) {
      const uint64_t at = va + done, n = std::min(len - done, 4096 - (at & 4095));
      uint64_t pa = 0;
      std::string why;
      if (!h.debug_translate(at, pa, why)) {
        out = "virtual " + hex(at) + ": " + why + " (satp " + hex(h.state().satp) + ")\n";
        return true;
      }
      if (!h.debug_read(pa, b.data() + done, static_cast<unsigned>(n))) {
        out = "virtual " + hex(at) + " (physical " + hex(pa) + "): cannot read " + std::to_string(n) +
              " bytes (not memory in the hart's view)\n";
        return true;
      }
      done += n;
    }
    out = hex_dump(va, b);
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
