#include "debug/gdb_server.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gdb_target_xml.h"

namespace avp {

using gdb::hex_le;
using Kind = gdb::Request::Kind;

namespace {

// Thread ids travel in hex: thread n is hart n - 1.
std::string thread_id(uint64_t n) {
  char s[24];
  std::snprintf(s, sizeof s, "%llx", static_cast<unsigned long long>(n));
  return s;
}

unsigned reg_bytes(uint64_t n) { return n >= 66 && n <= 68 ? 4 : 8; }

// Error replies (the number is an errno, as gdbserver's): a malformed packet,
// a thread or register that does not exist, memory the hart cannot reach.
const char* const kMalformed = "E01";
const char* const kNoThread = "E02";
const char* const kNoRegister = "E03";
const char* const kBadAccess = "E14";
const char* const kNoTrigger = "E28";  // ENOSPC: every trigger of some hart is in use

}  // namespace

GdbServer::GdbServer(HartCluster& harts, unsigned port)
    : harts_(harts),
      conn_(port),
      threads_(harts.num_harts()),
      start_states_(harts.num_harts()),
      watchpoints_([&harts] {
        std::vector<rv::Triggers*> units;
        for (unsigned h = 0; h < harts.num_harts(); ++h) units.push_back(&harts.hart(h).triggers());
        return units;
      }()) {}

GdbServer::~GdbServer() = default;

void GdbServer::attach() {
  if (while_running_) return;
  if (first_instruction_stop_) {
    attach_at_first_instruction();
    return;
  }
  for (unsigned h = 0; h < harts_.num_harts(); ++h) harts_.hart(h).set_debug_hook(this);
  accept_and_serve(nullptr);  // the debugger inspects the target before anything runs
}

void GdbServer::attach_at_first_instruction() {
  if (while_running_) return;
  wait_first_ = true;
  for (unsigned h = 0; h < harts_.num_harts(); ++h) harts_.hart(h).set_debug_hook(this);
}

void GdbServer::attach_while_running() {
  while_running_ = true;
  std::fprintf(stderr, "accel-vp: gdb may attach on 127.0.0.1:%u (target remote :%u); the run goes on\n", port(), port());
  std::fflush(stderr);
}

void GdbServer::poll_attach() {
  if (!while_running_ || attached_ || !conn_.accept_pending()) return;
  attached_ = true;
  for (unsigned h = 0; h < harts_.num_harts(); ++h) harts_.hart(h).set_debug_hook(this);
  g_thread_ = 1;
  for (unsigned t = 1; t <= threads_; ++t)
    if (!harts_.hart(t - 1).idle()) {
      g_thread_ = t;
      break;
    }
  stop_reply_ = "T05thread:" + thread_id(static_cast<uint64_t>(g_thread_)) + ";";
  const Resume how = serve(false);
  if (how == Resume::Step) step_hart_ = static_cast<int>(g_thread_ - 1);
  if (how == Resume::Kill) sc_core::sc_stop();
}

void GdbServer::accept_and_serve(Hart* first) {
  std::fprintf(stderr, "accel-vp: waiting for gdb on 127.0.0.1:%u (target remote :%u)\n", port(), port());
  std::fflush(stderr);
  if (!conn_.accept()) {
    detach_hooks();
    return;
  }
  attached_ = true;
  if (first) {
    // Every hart that runs is at its start: report the lowest one (hart 0 for a program).
    unsigned t = first->id() + 1;
    for (unsigned u = 1; u <= threads_; ++u)
      if (!harts_.hart(u - 1).idle()) {
        t = u;
        break;
      }
    g_thread_ = t;
    stop_reply_ = "T05thread:" + thread_id(t) + ";";
  }
  serve(false);
}

void GdbServer::detach_hooks() {
  attached_ = false;
  watchpoints_.clear();  // the debugger's triggers go with it
  for (unsigned h = 0; h < harts_.num_harts(); ++h) harts_.hart(h).set_debug_hook(nullptr);
}

void GdbServer::finish(int exit_code) {
  if (!attached_) return;
  conn_.close_after("W" + hex_le(static_cast<uint64_t>(exit_code) & 0xFF, 1));
  detach_hooks();
}

std::string GdbServer::watch_hit(Hart& h, const rv::Insn& insn, uint64_t pc) {
  std::string field;
  watchpoints_.hit(h.id(), insn, pc, h.state(), false, field);
  return field;
}

bool GdbServer::wants_stop(Hart& h, const rv::Insn& insn, uint64_t pc, std::string& watch_field) {
  watch_field.clear();
  if (step_hart_ == static_cast<int>(h.id()) || interrupted_ || breakpoints_.count(pc)) return true;
  return watchpoints_.hit(h.id(), insn, pc, h.state(), true, watch_field);
}

void GdbServer::before_instruction(Hart& h, const rv::Insn& insn, uint64_t pc) {
  if (start_states_.size() <= h.id()) start_states_.resize(harts_.num_harts());
  if (!start_states_[h.id()]) start_states_[h.id()] = h.state();
  if (wait_first_) {
    wait_first_ = false;
    accept_and_serve(&h);
    return;
  }
  if (!attached_) return;
  // Polled every few thousand instructions: a Ctrl-C (0x03) stops the target.
  if (++polls_ % 4096 == 0) {
    if (conn_.poll_interrupt()) interrupted_ = true;
    if (!conn_.connected()) {
      detach_hooks();  // the debugger went away: run free
      return;
    }
  }
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
  watch = watch_hit(h, insn, pc);
  if (!watch.empty()) stop(h, watch);
}

void GdbServer::stop(Hart& h, const std::string& watch_field) {
  // Ctrl-C is reported as SIGINT (T02), any other stop as SIGTRAP (T05).
  const char* signal = interrupted_ && watch_field.empty() && step_hart_ != static_cast<int>(h.id()) &&
                               !breakpoints_.count(h.state().pc) ? "T02" : "T05";
  step_hart_ = -1;
  interrupted_ = false;
  g_thread_ = static_cast<int64_t>(h.id()) + 1;
  stop_reply_ = signal + ("thread:" + thread_id(h.id() + 1) + ";" + watch_field);
  const Resume how = serve(true);
  if (how == Resume::Step) step_hart_ = static_cast<int>(g_thread_ - 1);
  if (how == Resume::Kill) sc_core::sc_stop();
}

GdbServer::Resume GdbServer::serve(bool report_stop) {
  if (report_stop) conn_.send(stop_reply_);
  std::string packet;
  for (;;) {
    const gdb::Connection::Input in = conn_.receive(packet);
    if (in == gdb::Connection::Input::Closed) break;
    if (in == gdb::Connection::Input::Interrupt) {  // already stopped: report the stop again
      conn_.send(stop_reply_);
      continue;
    }
    const gdb::Request request = gdb::parse_request(packet);
    bool resume = false;
    Resume how = Resume::Continue;
    const std::string reply = handle(request, resume, how);
    if (resume) {
      if (how == Resume::Detach) conn_.close_after("OK");
      if (how == Resume::Kill) conn_.close();
      if (how == Resume::Detach || how == Resume::Kill) detach_hooks();
      return how;
    }
    conn_.send(reply);
    if (request.kind == Kind::StartNoAck) conn_.set_no_ack();  // acknowledgements stop after this reply
  }
  detach_hooks();  // the debugger went away: run free
  return Resume::Detach;
}

std::string GdbServer::handle(const gdb::Request& r, bool& resume, Resume& how) {
  switch (r.kind) {
    case Kind::Unsupported:
      return "";
    case Kind::Malformed:
      return kMalformed;
    case Kind::StopReason:
      return stop_reply_;
    case Kind::Supported:
      return "PacketSize=" + thread_id(gdb::kMaxPayload) + ";qXfer:features:read+;QStartNoAckMode+;vContSupported+";
    case Kind::StartNoAck:
      return "OK";
    case Kind::XferFeatures:
      return xfer_features(r.text, r.number, r.length);
    case Kind::ThreadInfoFirst: {
      std::string s = "m";
      for (unsigned t = 1; t <= threads_; ++t) s += (t > 1 ? "," : "") + thread_id(t);
      return s;
    }
    case Kind::ThreadInfoNext:
      return "l";
    case Kind::CurrentThread:
      return "QC" + thread_id(static_cast<uint64_t>(g_thread_));
    case Kind::Attached:
      return "1";
    case Kind::ThreadExtraInfo: {
      if (!valid_thread(r.thread)) return kNoThread;
      const Hart& h = harts_.hart(static_cast<unsigned>(r.thread - 1));
      return gdb::hex_bytes("hart " + std::to_string(h.id()) + (h.idle() ? " (idle)" : " (running)"));
    }
    case Kind::SetThread:
      if (r.thread == gdb::kAnyThread || r.thread == gdb::kAllThreads) return "OK";
      if (!valid_thread(r.thread)) return kNoThread;
      if (r.op == 'g') g_thread_ = r.thread;
      return "OK";
    case Kind::ThreadAlive:
      return valid_thread(r.thread) ? "OK" : kNoThread;
    case Kind::ReadRegisters:
      return read_registers(current_hart());
    case Kind::ReadRegister: {
      uint64_t v = 0;
      return read_register(current_hart(), r.number, v) ? hex_le(v, reg_bytes(r.number)) : kNoRegister;
    }
    case Kind::WriteRegister:
      return write_register(current_hart(), r.number, r.bytes) ? "OK" : kNoRegister;
    case Kind::ReadMemory:
      return read_memory(current_hart(), r.number, r.length);
    case Kind::WriteMemory:
      if (r.length) {
        std::vector<uint8_t> b(r.bytes);
        if (!access_memory(current_hart(), r.number, b.data(), r.length, true)) return kBadAccess;
      }
      harts_.invalidate_icaches();  // the debugger may have written code
      return "OK";
    case Kind::InsertPoint:
    case Kind::RemovePoint:
      return point_request(r);
    case Kind::VContQuery:
      return "vCont;c;C;s;S";
    case Kind::Continue:
    case Kind::Step:
      if (r.kind == Kind::Step && r.thread != gdb::kAnyThread) {
        if (!valid_thread(r.thread)) return kNoThread;
        g_thread_ = r.thread;
      }
      if (r.has_address) current_hart().state().pc = r.number;
      resume = true;
      how = r.kind == Kind::Step ? Resume::Step : Resume::Continue;
      return "";
    case Kind::Detach:
    case Kind::Kill:
      resume = true;
      how = r.kind == Kind::Detach ? Resume::Detach : Resume::Kill;
      return "";
    case Kind::Monitor:
      return monitor_request(r.text);
  }
  return "";
}

std::string GdbServer::point_request(const gdb::Request& r) {
  // Zt,addr,kind: t 0 software breakpoint (kept by the server; the code is
  // never patched), 1 hardware breakpoint, 2/3/4 write/read/access
  // watchpoint of `kind` bytes; 1-4 take the harts' triggers (watchpoints.h).
  const bool insert = r.kind == Kind::InsertPoint;
  if (r.op == 0) {
    if (insert) breakpoints_.insert(r.number);
    else breakpoints_.erase(r.number);
    return "OK";
  }
  const auto type = static_cast<Watchpoints::Kind>(r.op);
  if (r.length == 0) return kMalformed;
  if (insert) return watchpoints_.insert(type, r.number, r.length) ? "OK" : kNoTrigger;
  if (!watchpoints_.remove(type, r.number, r.length)) return kMalformed;
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

bool GdbServer::read_register(Hart& h, uint64_t n, uint64_t& v) {
  const rv::HartState& s = h.state();
  if (n < 32) v = s.x[n];
  else if (n == kGdbPc) v = s.pc;
  else if (n >= kGdbFirstFpr && n < kGdbFirstFpr + 32) v = s.f[n - kGdbFirstFpr];
  else if (n >= kGdbFirstCsr && n < kGdbFirstCsr + 4096) return h.debug_csr(static_cast<unsigned>(n - kGdbFirstCsr), v);
  else if (n == kGdbPriv) v = s.priv;
  else return false;
  return true;
}

bool GdbServer::write_register(Hart& h, uint64_t n, const std::vector<uint8_t>& value) {
  if (value.size() != reg_bytes(n)) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < value.size(); ++i) v |= static_cast<uint64_t>(value[i]) << (8 * i);
  rv::HartState& s = h.state();
  if (n > 0 && n < 32) s.x[n] = v;
  else if (n == kGdbPc) s.pc = v;
  else if (n >= kGdbFirstFpr && n < kGdbFirstFpr + 32) s.f[n - kGdbFirstFpr] = v;
  else if (n == kGdbPriv && (v == rv::PRV_U || v == rv::PRV_S || v == rv::PRV_M)) s.priv = static_cast<rv::Priv>(v);
  else return n == 0;
  return true;
}

bool GdbServer::access_memory(Hart& h, uint64_t addr, uint8_t* data, uint64_t len, bool write) {
  const bool virt = h.state().priv != rv::PRV_M && (h.state().satp >> 60) != 0;
  for (uint64_t done = 0; done < len;) {
    const uint64_t at = addr + done, n = virt ? std::min(len - done, 4096 - (at & 4095)) : len - done;
    uint64_t pa = at;
    std::string why;
    if (virt && !h.debug_translate(at, pa, why)) return false;
    if (!(write ? h.debug_write(pa, data + done, static_cast<unsigned>(n)) : h.debug_read(pa, data + done, static_cast<unsigned>(n))))
      return false;
    done += n;
  }
  return true;
}

std::string GdbServer::read_memory(Hart& h, uint64_t addr, uint64_t len) {
  std::vector<uint8_t> b(len);
  if (len == 0 || !access_memory(h, addr, b.data(), len, false)) return kBadAccess;
  return gdb::hex_bytes(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
}

std::string GdbServer::xfer_features(const std::string& annex, uint64_t offset, uint64_t len) {
  if (annex != "target.xml") return "E00";
  const std::string xml = gdb_target_xml();
  if (offset >= xml.size()) return "l";
  const std::string part = xml.substr(offset, std::min<uint64_t>(len, gdb::kMaxPayload - 1));
  return (offset + part.size() >= xml.size() ? "l" : "m") + part;
}

}  // namespace avp
