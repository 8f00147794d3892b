// The GDB protocol without a socket (models/debug/include/debug/gdb_packet.h): framing,
// checksums, the packet-size bound, strict numbers.
#include "debug/gdb_packet.h"

#include <gtest/gtest.h>

using namespace avp::gdb;
using Event = PacketFramer::Event;
using Kind = Request::Kind;

namespace {

std::vector<Event> feed(PacketFramer& f, const std::string& bytes) {
  std::vector<Event> events;
  for (char c : bytes)
    if (Event e = f.feed(c); e != Event::None) events.push_back(e);
  return events;
}

}  // namespace

TEST(GdbPacket, FramesAPacketWithItsChecksum) {
  EXPECT_EQ(frame("OK"), "$OK#9a");
  EXPECT_EQ(frame(""), "$#00");
  PacketFramer f;
  EXPECT_EQ(feed(f, "$qC#b4"), std::vector<Event>{Event::Packet});
  EXPECT_EQ(f.payload(), "qC");
  EXPECT_EQ(feed(f, "$qC#B4"), std::vector<Event>{Event::Packet});  // upper-case checksum digits
}

TEST(GdbPacket, EscapesTheProtocolCharactersInReplies) {
  // '}' then the byte ^ 0x20; the checksum covers the escaped form.
  EXPECT_EQ(frame("a$b#c}d*"), "$a}\x04" "b}\x03" "c}]d}\x0a#" + hex_le((97 + 0x7d + 4 + 98 + 0x7d + 3 + 99 + 0x7d + 0x5d + 100 + 0x7d + 10) & 0xFF, 1));
}

TEST(GdbPacket, WrongOrNonHexChecksumIsRejected) {
  PacketFramer f;
  EXPECT_EQ(feed(f, "$qC#b5"), std::vector<Event>{Event::BadChecksum});
  EXPECT_EQ(feed(f, "$qC#zz"), std::vector<Event>{Event::BadChecksum});
  EXPECT_EQ(feed(f, "$qC#4b"), std::vector<Event>{Event::BadChecksum});
  EXPECT_EQ(feed(f, "$qC#b4"), std::vector<Event>{Event::Packet});  // and the framer recovers
}

TEST(GdbPacket, AcksInterruptsAndNoiseBetweenPackets) {
  PacketFramer f;
  EXPECT_EQ(feed(f, "+x-\x03\n$?#3f"), (std::vector<Event>{Event::Ack, Event::Nak, Event::Interrupt, Event::Packet}));
  EXPECT_EQ(f.payload(), "?");
  // 0x03 inside a packet is data; a '$' inside one restarts it.
  EXPECT_EQ(feed(f, "$a$?#3f"), std::vector<Event>{Event::Packet});
  EXPECT_EQ(f.payload(), "?");
}

TEST(GdbPacket, PacketsBeyondPacketSizeAreRefusedWithoutGrowing) {
  PacketFramer f;
  std::string big(kMaxPayload + 1, 'a');
  unsigned sum = 0;
  for (char c : big) sum += static_cast<unsigned char>(c);
  EXPECT_EQ(feed(f, "$" + big + "#" + hex_le(sum & 0xFF, 1)), std::vector<Event>{Event::Oversized});
  EXPECT_EQ(feed(f, "$" + big.substr(1) + "#" + hex_le((sum - 'a') & 0xFF, 1)), std::vector<Event>{Event::Packet});
  EXPECT_EQ(f.payload().size(), kMaxPayload);
  // A packet that never ends keeps the payload at the bound.
  EXPECT_EQ(feed(f, "$" + std::string(3 * kMaxPayload, 'b')), std::vector<Event>{});
  EXPECT_LE(f.payload().capacity(), 2 * kMaxPayload);
}

TEST(GdbPacket, HexNumbersAreStrict) {
  uint64_t v = 0;
  EXPECT_TRUE(parse_hex("fFfF0000ffff0000", v));
  EXPECT_EQ(v, 0xFFFF0000FFFF0000ull);
  for (const char* bad : {"", "1x", "x1", " 1", "-1", "11111111111111111", "0x1"}) EXPECT_FALSE(parse_hex(bad, v)) << bad;
  std::vector<uint8_t> b;
  EXPECT_TRUE(parse_hex_bytes("00ff7e", b));
  EXPECT_EQ(b, (std::vector<uint8_t>{0, 0xFF, 0x7E}));
  EXPECT_FALSE(parse_hex_bytes("0", b));
  EXPECT_FALSE(parse_hex_bytes("0g", b));
}

TEST(GdbPacket, RequestsCarryCheckedNumbers) {
  Request r = parse_request("M40000000,2:a1b2");
  EXPECT_EQ(r.kind, Kind::WriteMemory);
  EXPECT_EQ(r.number, 0x40000000u);
  EXPECT_EQ(r.bytes, (std::vector<uint8_t>{0xA1, 0xB2}));
  r = parse_request("vCont;c:1;s:a");
  EXPECT_EQ(r.kind, Kind::Step);
  EXPECT_EQ(r.thread, 10);
  EXPECT_EQ(parse_request("vCont;c").kind, Kind::Continue);
  r = parse_request("Hg-1");
  EXPECT_EQ(r.thread, kAllThreads);
  r = parse_request("qRcmd,6869");
  EXPECT_EQ(r.kind, Kind::Monitor);
  EXPECT_EQ(r.text, "hi");
  r = parse_request("qXfer:features:read:target.xml:10,ff");
  EXPECT_EQ(r.kind, Kind::XferFeatures);
  EXPECT_EQ(r.text, "target.xml");
  EXPECT_EQ(r.length, 0xFFu);
  EXPECT_EQ(parse_request("Z9,1000,4").kind, Kind::Unsupported);
  EXPECT_EQ(parse_request("vMustReplyEmpty").kind, Kind::Unsupported);
}

TEST(GdbPacket, MalformedRequestsAreMalformed) {
  for (const char* p : {"Hg2zz", "Hg", "Hq1", "T", "Tx", "p", "pzz", "P20", "P20=", "P20=0", "P20=001122334455667788",
                        "m1", "m1,", "m,1", "m1,1x", "m0,2000", "M1,2:00", "M1,1:0g", "M1,1", "Z0,1", "Z0,1,x",
                        "Z0,1,2;X1,0", "vCont", "vCont;", "vCont;q", "vCont;C", "vCont;s:", "vCont;c;;s", "c1g",
                        "sx", "D1", "kx", "qThreadExtraInfo,", "qXfer:features:read:target.xml:1", "qRcmd,6g"})
    EXPECT_EQ(parse_request(p).kind, Kind::Malformed) << p;
}
