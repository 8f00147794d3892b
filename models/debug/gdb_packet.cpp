#include "debug/gdb_packet.h"

namespace avp::gdb {

namespace {

const char* kHex = "0123456789abcdef";

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool parse_thread(std::string_view s, int64_t& tid) {
  if (s == "-1") {
    tid = kAllThreads;
    return true;
  }
  uint64_t v = 0;
  if (!parse_hex(s, v) || v > 0x7FFFFFFF) return false;
  tid = static_cast<int64_t>(v);
  return true;
}

// "ADDR,LEN" (both hex).
bool parse_addr_len(std::string_view s, uint64_t& addr, uint64_t& len) {
  const size_t comma = s.find(',');
  return comma != std::string_view::npos && parse_hex(s.substr(0, comma), addr) && parse_hex(s.substr(comma + 1), len);
}

using Kind = Request::Kind;

Request malformed() {
  Request r;
  r.kind = Kind::Malformed;
  return r;
}

Request simple(Kind k) {
  Request r;
  r.kind = k;
  return r;
}

// vCont;ACTION[:TID]... with actions c, Cxx, s, Sxx (signals are ignored).
// All-stop: a step action names the hart to step; everything else continues.
Request parse_vcont(std::string_view p) {
  Request r = simple(Kind::Continue);
  std::string_view rest = p.substr(5);
  if (rest.empty()) return malformed();
  while (!rest.empty()) {
    if (rest[0] != ';') return malformed();
    rest.remove_prefix(1);
    const size_t end = rest.find(';');
    std::string_view action = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
    int64_t tid = kAllThreads;
    if (const size_t colon = action.find(':'); colon != std::string_view::npos) {
      if (!parse_thread(action.substr(colon + 1), tid)) return malformed();
      action = action.substr(0, colon);
    }
    uint64_t signal = 0;
    if (action.empty()) {
      return malformed();
    } else if (action == "c" || action == "s") {
    } else if ((action[0] == 'C' || action[0] == 'S') && action.size() == 3 && parse_hex(action.substr(1), signal)) {
    } else {
      return malformed();
    }
    if ((action[0] == 's' || action[0] == 'S') && r.kind != Kind::Step) {
      r.kind = Kind::Step;
      r.thread = tid == kAllThreads ? kAnyThread : tid;
    }
  }
  return r;
}

Request parse_query(std::string_view p) {
  if (p == "qfThreadInfo") return simple(Kind::ThreadInfoFirst);
  if (p == "qsThreadInfo") return simple(Kind::ThreadInfoNext);
  if (p == "qC") return simple(Kind::CurrentThread);
  if (p == "qAttached" || starts_with(p, "qAttached:")) return simple(Kind::Attached);
  if (p == "qSupported" || starts_with(p, "qSupported:")) return simple(Kind::Supported);
  if (starts_with(p, "qThreadExtraInfo,")) {
    Request r = simple(Kind::ThreadExtraInfo);
    return parse_thread(p.substr(17), r.thread) ? r : malformed();
  }
  if (starts_with(p, "qXfer:features:read:")) {
    const std::string_view rest = p.substr(20);
    const size_t colon = rest.find(':');
    Request r = simple(Kind::XferFeatures);
    if (colon == std::string_view::npos || !parse_addr_len(rest.substr(colon + 1), r.number, r.length)) return malformed();
    r.text = std::string(rest.substr(0, colon));
    return r;
  }
  if (starts_with(p, "qRcmd,")) {
    std::vector<uint8_t> b;
    if (!parse_hex_bytes(p.substr(6), b)) return malformed();
    Request r = simple(Kind::Monitor);
    r.text.assign(b.begin(), b.end());
    return r;
  }
  return simple(Kind::Unsupported);
}

}  // namespace

PacketFramer::Event PacketFramer::feed(char c) {
  switch (state_) {
    case State::Idle:
      if (c == '$') {
        state_ = State::Data;
        payload_.clear();
        sum_ = 0;
        oversized_ = false;
        return Event::None;
      }
      if (c == 0x03) return Event::Interrupt;
      if (c == '+') return Event::Ack;
      if (c == '-') return Event::Nak;
      return Event::None;  // noise between packets
    case State::Data:
      if (c == '#') {
        state_ = State::Sum1;
        return Event::None;
      }
      if (c == '$') {  // a new packet starts: the unfinished one is dropped
        payload_.clear();
        sum_ = 0;
        oversized_ = false;
        return Event::None;
      }
      sum_ += static_cast<unsigned char>(c);
      if (payload_.size() < kMaxPayload) payload_ += c;
      else oversized_ = true;
      return Event::None;
    case State::Sum1: {
      const int d = hex_digit(c);
      bad_digit_ = d < 0;
      received_sum_ = d < 0 ? 0 : static_cast<unsigned>(d) << 4;
      state_ = State::Sum2;
      return Event::None;
    }
    case State::Sum2: {
      const int d = hex_digit(c);
      state_ = State::Idle;
      if (bad_digit_ || d < 0 || (received_sum_ | static_cast<unsigned>(d)) != (sum_ & 0xFF)) {
        payload_.clear();
        return Event::BadChecksum;
      }
      if (oversized_) {
        payload_.clear();
        return Event::Oversized;
      }
      return Event::Packet;
    }
  }
  return Event::None;
}

std::string frame(std::string_view payload) {
  std::string out = "$";
  unsigned sum = 0;
  auto put = [&](char c) {
    out += c;
    sum += static_cast<unsigned char>(c);
  };
  for (char c : payload) {
    if (c == '$' || c == '#' || c == '}' || c == '*') {
      put('}');
      put(static_cast<char>(c ^ 0x20));
    } else {
      put(c);
    }
  }
  out += '#';
  out += kHex[(sum >> 4) & 0xF];
  out += kHex[sum & 0xF];
  return out;
}

bool parse_hex(std::string_view s, uint64_t& v) {
  if (s.empty() || s.size() > 16) return false;
  v = 0;
  for (char c : s) {
    const int d = hex_digit(c);
    if (d < 0) return false;
    v = v << 4 | static_cast<uint64_t>(d);
  }
  return true;
}

bool parse_hex_bytes(std::string_view s, std::vector<uint8_t>& out) {
  out.clear();
  if (s.size() % 2) return false;
  for (size_t i = 0; i < s.size(); i += 2) {
    const int hi = hex_digit(s[i]), lo = hex_digit(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<uint8_t>(hi << 4 | lo));
  }
  return true;
}

std::string hex_bytes(std::string_view bytes) {
  std::string s;
  for (char c : bytes) {
    s += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
    s += kHex[static_cast<unsigned char>(c) & 0xF];
  }
  return s;
}

std::string hex_le(uint64_t v, unsigned bytes) {
  std::string s;
  for (unsigned i = 0; i < bytes; ++i, v >>= 8) {
    s += kHex[(v >> 4) & 0xF];
    s += kHex[v & 0xF];
  }
  return s;
}

Request parse_request(std::string_view p) {
  if (p.empty()) return simple(Kind::Unsupported);
  if (p == "?") return simple(Kind::StopReason);
  if (p == "QStartNoAckMode") return simple(Kind::StartNoAck);
  if (p == "g") return simple(Kind::ReadRegisters);
  if (p == "vCont?") return simple(Kind::VContQuery);
  if (starts_with(p, "vCont;") || p == "vCont") return parse_vcont(p);
  if (p[0] == 'q') return parse_query(p);
  Request r;
  switch (p[0]) {
    case 'H':  // Hg TID / Hc TID
      r.kind = Kind::SetThread;
      r.op = p.size() > 1 ? p[1] : 0;
      return (r.op == 'g' || r.op == 'c') && parse_thread(p.substr(2), r.thread) ? r : malformed();
    case 'T':
      r.kind = Kind::ThreadAlive;
      return parse_thread(p.substr(1), r.thread) ? r : malformed();
    case 'p':
      r.kind = Kind::ReadRegister;
      return parse_hex(p.substr(1), r.number) ? r : malformed();
    case 'P': {
      const size_t eq = p.find('=');
      r.kind = Kind::WriteRegister;
      if (eq == std::string_view::npos || !parse_hex(p.substr(1, eq - 1), r.number) ||
          !parse_hex_bytes(p.substr(eq + 1), r.bytes) || r.bytes.empty() || r.bytes.size() > 8)
        return malformed();
      return r;
    }
    case 'm':
      r.kind = Kind::ReadMemory;
      return parse_addr_len(p.substr(1), r.number, r.length) && r.length <= kMaxMemoryBytes ? r : malformed();
    case 'M': {
      const size_t colon = p.find(':');
      r.kind = Kind::WriteMemory;
      if (colon == std::string_view::npos || !parse_addr_len(p.substr(1, colon - 1), r.number, r.length) ||
          r.length > kMaxMemoryBytes || !parse_hex_bytes(p.substr(colon + 1), r.bytes) || r.bytes.size() != r.length)
        return malformed();
      return r;
    }
    case 'Z':
    case 'z': {  // Zt,ADDR,KIND
      r.kind = p[0] == 'Z' ? Kind::InsertPoint : Kind::RemovePoint;
      if (p.size() < 3 || p[1] < '0' || p[1] > '4' || p[2] != ',') return simple(Kind::Unsupported);
      r.op = static_cast<char>(p[1] - '0');
      const size_t comma = p.find(',', 3);
      // Conditions and commands (";X...") are not offered in qSupported: malformed here.
      if (comma == std::string_view::npos || !parse_hex(p.substr(3, comma - 3), r.number) ||
          !parse_hex(p.substr(comma + 1), r.length))
        return malformed();
      return r;
    }
    case 'c':
    case 's':
      r.kind = p[0] == 'c' ? Kind::Continue : Kind::Step;
      r.has_address = p.size() > 1;
      return !r.has_address || parse_hex(p.substr(1), r.number) ? r : malformed();
    case 'D':
      return p == "D" || starts_with(p, "D;") ? simple(Kind::Detach) : malformed();
    case 'k':
      return p == "k" ? simple(Kind::Kill) : malformed();
    default:
      return simple(Kind::Unsupported);
  }
}

}  // namespace avp::gdb
