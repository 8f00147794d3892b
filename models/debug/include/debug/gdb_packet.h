// The GDB remote serial protocol without a socket: framing of the byte
// stream into packets (checksums, acknowledgements, interrupts, a bounded
// packet size), framing of replies, and parsing of a packet's payload into a
// request whose every number has been checked. The server acts only on a
// request that parsed completely, so a malformed packet never changes state.
// Pure functions of their input: fuzzed by tests/fuzz/fuzz_gdb_packet.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace avp::gdb {

// The largest payload (between '$' and '#') the server accepts; advertised
// as PacketSize in the qSupported reply.
constexpr size_t kMaxPayload = 0x4000;
// The largest m/M transfer: its hex reply or data fits in kMaxPayload.
constexpr uint64_t kMaxMemoryBytes = (kMaxPayload - 32) / 2;

// Splits the byte stream from the debugger into events, one byte at a time.
class PacketFramer {
 public:
  enum class Event {
    None,         // the byte was consumed, nothing complete yet
    Packet,       // a packet with a correct checksum: payload()
    BadChecksum,  // a packet whose checksum is wrong or not hex: answer '-'
    Oversized,    // a packet longer than kMaxPayload (checksum correct): answer an error
    Interrupt,    // 0x03 outside a packet (Ctrl-C)
    Ack,          // '+'
    Nak,          // '-': retransmit the last reply
  };
  Event feed(char c);
  // The payload of the last Packet event (escapes left as sent).
  const std::string& payload() const { return payload_; }

 private:
  enum class State { Idle, Data, Sum1, Sum2 } state_ = State::Idle;
  std::string payload_;
  unsigned sum_ = 0, received_sum_ = 0;
  bool oversized_ = false, bad_digit_ = false;
};

// "$payload#cs" with '$', '#', '}' and '*' escaped ('}' then the byte ^ 0x20).
std::string frame(std::string_view payload);

// Strict hex: 1..16 digits, nothing else.
bool parse_hex(std::string_view s, uint64_t& v);
// Pairs of hex digits; false on an odd length or a non-hex digit.
bool parse_hex_bytes(std::string_view s, std::vector<uint8_t>& out);
std::string hex_bytes(std::string_view bytes);
// `bytes` little-endian bytes of v as hex (register values).
std::string hex_le(uint64_t v, unsigned bytes);

// A thread id: a positive hex number, 0 (any thread) or -1 (all threads).
constexpr int64_t kAnyThread = 0, kAllThreads = -1;

struct Request {
  enum class Kind {
    Unsupported,  // answered with the empty packet
    Malformed,    // answered E01, nothing changes
    StopReason, Supported, StartNoAck, XferFeatures, ThreadInfoFirst, ThreadInfoNext, CurrentThread,
    Attached, ThreadExtraInfo, SetThread, ThreadAlive, ReadRegisters, ReadRegister, WriteRegister,
    ReadMemory, WriteMemory, InsertPoint, RemovePoint, VContQuery, Continue, Step, Detach, Kill, Monitor,
  } kind = Kind::Unsupported;
  char op = 0;             // SetThread: 'g' or 'c'; Insert/RemovePoint: type 0..4
  int64_t thread = 0;      // SetThread, ThreadAlive, ThreadExtraInfo, Step (vCont;s:tid; kAnyThread: current)
  uint64_t number = 0;     // register number; address; xfer offset; point address
  uint64_t length = 0;     // memory length; xfer length; point kind; register value
  bool has_address = false;  // c ADDR / s ADDR
  std::string text;        // xfer annex; monitor command (decoded)
  std::vector<uint8_t> bytes;  // WriteMemory data; WriteRegister value (little-endian)
};
Request parse_request(std::string_view payload);

}  // namespace avp::gdb
