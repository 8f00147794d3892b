// libFuzzer target: the GDB remote protocol without a socket (framing,
// checksums, the PacketSize bound, request parsing). Every byte stream must
// frame and parse without a crash; a packet never exceeds PacketSize; a
// parsed request's numbers are within their bounds; framing a reply and
// reading it back gives the same payload.
#include <cstdint>
#include <string>

#include "debug/gdb_packet.h"

using namespace avp::gdb;

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

void check_request(const std::string& payload) {
  const Request r = parse_request(payload);
  using Kind = Request::Kind;
  if (r.kind == Kind::ReadMemory) check(r.length <= kMaxMemoryBytes);
  if (r.kind == Kind::WriteMemory) check(r.length <= kMaxMemoryBytes && r.bytes.size() == r.length);
  if (r.kind == Kind::WriteRegister) check(!r.bytes.empty() && r.bytes.size() <= 8);
  if (r.kind == Kind::InsertPoint || r.kind == Kind::RemovePoint) check(r.op >= 0 && r.op <= 4);
  if (r.kind == Kind::SetThread) check(r.op == 'g' || r.op == 'c');
  if (r.kind == Kind::SetThread || r.kind == Kind::ThreadAlive || r.kind == Kind::Step) check(r.thread >= kAllThreads);
  const Request again = parse_request(payload);  // parsing is a pure function of the payload
  check(again.kind == r.kind && again.number == r.number && again.length == r.length && again.bytes == r.bytes);
}

// A reply framed by the server reads back as one packet whose unescaped payload is the reply.
void check_reply_roundtrip(const std::string& reply) {
  if (reply.size() > kMaxPayload / 2) return;
  const std::string framed = frame(reply);
  PacketFramer f;
  int packets = 0;
  for (size_t i = 0; i < framed.size(); ++i) {
    const PacketFramer::Event e = f.feed(framed[i]);
    check(e == PacketFramer::Event::None || (e == PacketFramer::Event::Packet && i + 1 == framed.size()));
    packets += e == PacketFramer::Event::Packet;
  }
  check(packets == 1);
  std::string unescaped;
  const std::string& p = f.payload();
  for (size_t i = 0; i < p.size(); ++i) unescaped += p[i] == '}' && i + 1 < p.size() ? static_cast<char>(p[++i] ^ 0x20) : p[i];
  check(unescaped == reply);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  PacketFramer f;
  for (char c : bytes) {
    if (f.feed(c) != PacketFramer::Event::Packet) continue;
    check(f.payload().size() <= kMaxPayload);
    check_request(f.payload());
  }
  // The input as one payload (what a framer hands over after a good checksum).
  check_request(bytes.substr(0, kMaxPayload));
  check_reply_roundtrip(bytes);
  return 0;
}
