#include "gdb_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <sstream>
#include <vector>

#include "base/params.h"
#include "gdb_target_xml.h"

namespace avp {

namespace {

const char* kHex = "0123456789abcdef";

std::string hex_le(uint64_t v, unsigned bytes) {
  std::string s;
  for (unsigned i = 0; i < bytes; ++i, v >>= 8) {
    s += kHex[(v >> 4) & 0xF];
    s += kHex[v & 0xF];
  }
  return s;
}

uint64_t parse_hex(const std::string& s) { return s.empty() ? 0 : std::stoull(s, nullptr, 16); }

uint64_t parse_hex_le(const std::string& s) {
  uint64_t v = 0;
  for (size_t i = 0; i + 1 < s.size() && i < 16; i += 2) v |= std::stoull(s.substr(i, 2), nullptr, 16) << (4 * i);
  return v;
}

// Thread ids travel in hex: thread n is hart n - 1.
std::string thread_id(unsigned n) {
  char s[16];
  std::snprintf(s, sizeof s, "%x", n);
  return s;
}

// Larger than any m/M packet that fits in PacketSize (0x4000).
constexpr uint64_t kMaxMemoryBytes = 0x4000;

unsigned reg_bytes(unsigned n) { return n >= 66 && n <= 68 ? 4 : 8; }

}  // namespace

GdbServer::GdbServer(HartCluster& harts, unsigned port) : harts_(harts) {
  listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (listen_fd_ < 0 || bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(listen_fd_, 1) != 0)
    throw ParamError("--gdb " + std::to_string(port) + ": cannot listen on 127.0.0.1 (" + std::strerror(errno) + ")");
  socklen_t len = sizeof a;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len);
  port_ = ntohs(a.sin_port);
}

GdbServer::~GdbServer() {
  if (fd_ >= 0) close(fd_);
  if (listen_fd_ >= 0) close(listen_fd_);
}

void GdbServer::attach() {
  std::fprintf(stderr, "accel-vp: waiting for gdb on 127.0.0.1:%u (target remote :%u)\n", port_, port_);
  std::fflush(stderr);
  fd_ = accept(listen_fd_, nullptr, nullptr);
  if (fd_ < 0) return;
  int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  attached_ = true;
  for (unsigned h = 0; h < harts_.num_harts(); ++h) harts_.hart(h).set_debug_hook(this);
  serve("");  // the debugger inspects the target before anything runs
}

void GdbServer::finish(int exit_code) {
  if (!attached_) return;
  send("W" + hex_le(static_cast<uint64_t>(exit_code) & 0xFF, 1));
  attached_ = false;
  for (unsigned h = 0; h < harts_.num_harts(); ++h) harts_.hart(h).set_debug_hook(nullptr);
}

bool GdbServer::interrupt_pending() {
  // Polled every few thousand instructions: a Ctrl-C (0x03) stops the target.
  if (++polls_ % 4096) return false;
  pollfd p{fd_, POLLIN, 0};
  if (poll(&p, 1, 0) <= 0) return false;
  char c = 0;
  if (recv(fd_, &c, 1, MSG_PEEK) == 1 && c == 0x03) {
    recv(fd_, &c, 1, 0);
    return true;
  }
  return false;
}

std::string GdbServer::watch_hit(const Hart& h, const rv::Insn& insn) const {
  DataAccess access;
  if (watchpoints_.empty() || !data_access(insn, h.state(), access)) return "";
  return watchpoints_.hit(access);
}

bool GdbServer::wants_stop(Hart& h, const rv::Insn& insn, uint64_t pc, std::string& watch_field) {
  watch_field.clear();
  if (step_hart_ == static_cast<int>(h.id()) || interrupted_ || breakpoints_.count(pc)) return true;
  watch_field = watch_hit(h, insn);
  return !watch_field.empty();
}

void GdbServer::before_instruction(Hart& h, const rv::Insn& insn, uint64_t pc) {
  if (!attached_) return;
  if (interrupt_pending()) interrupted_ = true;
  std::string watch;
  if (!wants_stop(h, insn, pc, watch)) return;
  if (h.local_time() != sc_core::SC_ZERO_TIME) {
    // The stop happens at the hart's own time. Other harts run meanwhile and
    // may stop first; the debugger may change the breakpoints then: ask again.
    h.sync();
    if (!attached_ || !wants_stop(h, insn, pc, watch)) return;
  }
  stop(h, watch);
  if (!attached_ || h.state().pc != pc || !watch.empty()) return;
  // After a breakpoint or step stop the instruction still makes its access.
  watch = watch_hit(h, insn);
  if (!watch.empty()) stop(h, watch);
}

void GdbServer::stop(Hart& h, const std::string& watch_field) {
  step_hart_ = -1;
  interrupted_ = false;
  g_thread_ = static_cast<int>(h.id()) + 1;
  stop_reply_ = "T05thread:" + thread_id(h.id() + 1) + ";" + watch_field;
  const Resume how = serve(stop_reply_);
  if (how == Resume::Step) step_hart_ = g_thread_ - 1;
  if (how == Resume::Kill) sc_core::sc_stop();
}

Hart& GdbServer::thread_hart(int tid) {
  const unsigned n = harts_.num_harts();
  return harts_.hart(tid >= 1 && static_cast<unsigned>(tid) <= n ? tid - 1 : 0);
}

GdbServer::Resume GdbServer::serve(const std::string& stop_reply) {
  if (!stop_reply.empty()) send(stop_reply);
  std::string packet;
  while (receive(packet)) {
    bool resume = false;
    Resume how = Resume::Continue;
    std::string reply;
    try {
      reply = handle(packet, resume, how);
    } catch (const std::exception&) {  // a malformed number in the packet
      reply = "E01";
    }
    if (resume) {
      if (how == Resume::Detach || how == Resume::Kill) {
        if (how == Resume::Detach) send("OK");
        attached_ = false;
        for (unsigned h = 0; h < harts_.num_harts(); ++h) harts_.hart(h).set_debug_hook(nullptr);
      }
      return how;
    }
    send(reply);
    if (packet == "QStartNoAckMode") no_ack_ = true;
  }
  attached_ = false;  // the debugger went away: run free
  for (unsigned h = 0; h < harts_.num_harts(); ++h) harts_.hart(h).set_debug_hook(nullptr);
  return Resume::Detach;
}

std::string GdbServer::handle(const std::string& p, bool& resume, Resume& how) {
  if (p == "?") return stop_reply_;
  if (p.rfind("qSupported", 0) == 0) return "PacketSize=4000;qXfer:features:read+;QStartNoAckMode+;vContSupported+";
  if (p == "QStartNoAckMode") return "OK";  // acknowledgements stop after this reply (see serve)
  if (p.rfind("qXfer:features:read:", 0) == 0) {
    const std::string rest = p.substr(20);
    const size_t colon = rest.find(':'), comma = rest.find(',');
    return xfer_features(rest.substr(0, colon), parse_hex(rest.substr(colon + 1, comma - colon - 1)), parse_hex(rest.substr(comma + 1)));
  }
  if (p == "qfThreadInfo") {
    std::string s = "m";
    for (unsigned h = 0; h < harts_.num_harts(); ++h) s += (h ? "," : "") + thread_id(h + 1);
    return s;
  }
  if (p == "qsThreadInfo") return "l";
  if (p == "qC") return "QC" + thread_id(static_cast<unsigned>(g_thread_));
  if (p == "qAttached") return "1";
  if (p.rfind("qThreadExtraInfo,", 0) == 0) {
    const Hart& h = thread_hart(static_cast<int>(parse_hex(p.substr(17))));
    std::string info = "hart " + std::to_string(h.id()) + (h.idle() ? " (idle)" : " (running)");
    std::string hex;
    for (char c : info) hex += hex_le(static_cast<uint8_t>(c), 1);
    return hex;
  }
  if (p[0] == 'H') {
    const int tid = static_cast<int>(std::stol(p.substr(2), nullptr, 16));
    if (p[1] == 'g' && tid > 0) g_thread_ = tid;
    return "OK";
  }
  if (p[0] == 'T') return "OK";
  if (p == "g") return read_registers(thread_hart(g_thread_));
  if (p[0] == 'p') {
    uint64_t v = 0;
    const unsigned n = static_cast<unsigned>(parse_hex(p.substr(1)));
    return read_register(thread_hart(g_thread_), n, v) ? hex_le(v, reg_bytes(n)) : "E01";
  }
  if (p[0] == 'P') {
    const size_t eq = p.find('=');
    const unsigned n = static_cast<unsigned>(parse_hex(p.substr(1, eq - 1)));
    return write_register(thread_hart(g_thread_), n, parse_hex_le(p.substr(eq + 1))) ? "OK" : "E01";
  }
  if (p[0] == 'm') {
    const size_t comma = p.find(',');
    const uint64_t len = parse_hex(p.substr(comma + 1));
    if (len > kMaxMemoryBytes) return "E01";
    return read_memory(thread_hart(g_thread_), parse_hex(p.substr(1, comma - 1)), len);
  }
  if (p[0] == 'M') {
    const size_t comma = p.find(','), colon = p.find(':');
    const uint64_t addr = parse_hex(p.substr(1, comma - 1)), len = parse_hex(p.substr(comma + 1, colon - comma - 1));
    if (len > kMaxMemoryBytes || colon == std::string::npos || p.size() - colon - 1 != 2 * len) return "E01";
    std::vector<uint8_t> bytes(len);
    for (uint64_t i = 0; i < len; ++i) bytes[i] = static_cast<uint8_t>(std::stoul(p.substr(colon + 1 + 2 * i, 2), nullptr, 16));
    if (!thread_hart(g_thread_).debug_write(addr, bytes.data(), static_cast<unsigned>(len))) return "E14";
    harts_.invalidate_icaches();  // the debugger may have written code
    return "OK";
  }
  if (p[0] == 'Z' || p[0] == 'z') return breakpoint_packet(p);
  if (p == "vCont?") return "vCont;c;C;s;S";
  if (p.rfind("vCont;", 0) == 0) {
    resume = true;
    how = Resume::Continue;
    const size_t s = p.find(";s");
    if (s != std::string::npos) {
      how = Resume::Step;
      const size_t colon = p.find(':', s);
      if (colon != std::string::npos && colon < p.find(';', s + 1)) g_thread_ = static_cast<int>(parse_hex(p.substr(colon + 1)));
    }
    return "";
  }
  if (p[0] == 'c' || p[0] == 's') {
    resume = true;
    how = p[0] == 's' ? Resume::Step : Resume::Continue;
    return "";
  }
  if (p[0] == 'D') {
    resume = true;
    how = Resume::Detach;
    return "";
  }
  if (p[0] == 'k') {
    resume = true;
    how = Resume::Kill;
    return "";
  }
  return "";  // unsupported packet
}

std::string GdbServer::breakpoint_packet(const std::string& p) {
  // Zt,addr,kind: t 0/1 software/hardware breakpoint (both kept by the
  // server; the code is never patched), 2/3/4 write/read/access watchpoint
  // of `kind` bytes.
  const size_t c1 = p.find(','), c2 = p.find(',', c1 + 1);
  if (p.size() < 2 || c1 != 2 || c2 == std::string::npos || p[1] < '0' || p[1] > '4') return "";
  const uint64_t addr = parse_hex(p.substr(c1 + 1, c2 - c1 - 1)), kind = parse_hex(p.substr(c2 + 1));
  const bool insert = p[0] == 'Z';
  if (p[1] == '0' || p[1] == '1') {
    if (insert) breakpoints_.insert(addr);
    else breakpoints_.erase(addr);
    return "OK";
  }
  const auto type = static_cast<Watchpoints::Kind>(p[1] - '0');
  if (insert) watchpoints_.insert(type, addr, kind);
  else if (!watchpoints_.remove(type, addr, kind)) return "E01";
  return "OK";
}

std::string GdbServer::read_registers(Hart& h) {
  std::string s;
  for (unsigned i = 0; i <= kGdbPc; ++i) {
    uint64_t v = 0;
    read_register(h, i, v);
    s += hex_le(v, 8);
  }
  return s;
}

bool GdbServer::read_register(Hart& h, unsigned n, uint64_t& v) {
  const rv::HartState& s = h.state();
  if (n < 32) v = s.x[n];
  else if (n == kGdbPc) v = s.pc;
  else if (n >= kGdbFirstFpr && n < kGdbFirstFpr + 32) v = s.f[n - kGdbFirstFpr];
  else if (n >= kGdbFirstCsr) return h.debug_csr(n - kGdbFirstCsr, v);
  else return false;
  return true;
}

bool GdbServer::write_register(Hart& h, unsigned n, uint64_t v) {
  rv::HartState& s = h.state();
  if (n > 0 && n < 32) s.x[n] = v;
  else if (n == kGdbPc) s.pc = v;
  else if (n >= kGdbFirstFpr && n < kGdbFirstFpr + 32) s.f[n - kGdbFirstFpr] = v;
  else return n == 0;
  return true;
}

std::string GdbServer::read_memory(Hart& h, uint64_t addr, uint64_t len) {
  std::vector<uint8_t> b(len);
  if (len == 0 || !h.debug_read(addr, b.data(), static_cast<unsigned>(len))) return "E14";
  std::string s;
  for (uint8_t c : b) s += hex_le(c, 1);
  return s;
}

std::string GdbServer::xfer_features(const std::string& annex, uint64_t offset, uint64_t len) {
  if (annex != "target.xml") return "E00";
  const std::string xml = gdb_target_xml();
  if (offset >= xml.size()) return "l";
  const std::string part = xml.substr(offset, len);
  return (offset + part.size() >= xml.size() ? "l" : "m") + part;
}

bool GdbServer::receive(std::string& packet) {
  packet.clear();
  char c = 0;
  for (;;) {
    if (recv(fd_, &c, 1, 0) != 1) return false;
    if (c == '$') break;
    if (c == 0x03) {  // interrupt while stopped: report the stop again
      packet = "?";
      return true;
    }
  }
  while (recv(fd_, &c, 1, 0) == 1 && c != '#') packet += c;
  char sum[2];
  if (recv(fd_, sum, 2, MSG_WAITALL) != 2) return false;
  if (!no_ack_) ::send(fd_, "+", 1, 0);
  return true;
}

void GdbServer::send(const std::string& payload) {
  unsigned sum = 0;
  for (unsigned char c : payload) sum += c;
  const std::string frame = "$" + payload + "#" + hex_le(sum & 0xFF, 1);
  ::send(fd_, frame.data(), frame.size(), MSG_NOSIGNAL);
  if (!no_ack_) {
    char ack = 0;
    recv(fd_, &ack, 1, 0);  // '+' (a '-' would ask for a resend; the loopback link does not corrupt)
  }
}

}  // namespace avp
