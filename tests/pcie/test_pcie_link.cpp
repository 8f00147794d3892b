// PcieLink timing with exact expected simulated times. Gen 1 x1 carries
// 2.5 GT/s x 8/10 = 0.25 bytes/ns, so every wire byte costs exactly 4 ns.
#include <gtest/gtest.h>

#include "pcie/pcie_link.h"

using namespace avp;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
void gen1_x1(PcieLink& l) {
  l.lanes.set(1);
  l.generation.set(1);
  l.max_payload.set(256);
  l.tlp_overhead.set(24);
  l.completion_latency.set(sc_time(400, SC_NS));
}
}  // namespace

TEST(PcieLink, WireTimeCountsHeadersPerTlpAndTheLineEncoding) {
  PcieLink l("link_wire");
  gen1_x1(l);
  EXPECT_DOUBLE_EQ(l.bytes_per_ns(), 0.25);
  EXPECT_EQ(l.wire_time(0), sc_time(96, SC_NS));     // one header-only TLP
  EXPECT_EQ(l.wire_time(4), sc_time(112, SC_NS));    // 4 + 24 bytes
  EXPECT_EQ(l.wire_time(256), sc_time(1120, SC_NS)); // exactly one full TLP
  EXPECT_EQ(l.wire_time(257), sc_time(1220, SC_NS)); // a second TLP: (257 + 2 x 24) x 4 ns
  EXPECT_EQ(l.wire_time(512), sc_time(2240, SC_NS));
  l.generation.set(3);  // 8 GT/s with 128b/130b
  EXPECT_DOUBLE_EQ(l.bytes_per_ns(), 8.0 * 128.0 / 130.0 / 8.0);
}

TEST(PcieLink, TransfersInOneDirectionContendAndTheDirectionsAreIndependent) {
  PcieLink l("link_contend");
  gen1_x1(l);
  EXPECT_EQ(l.posted(PcieLink::Down, 4, sc_time(0, SC_NS)), sc_time(112, SC_NS));
  EXPECT_EQ(l.posted(PcieLink::Down, 4, sc_time(0, SC_NS)), sc_time(224, SC_NS));  // queued behind the first
  EXPECT_EQ(l.posted(PcieLink::Up, 4, sc_time(0, SC_NS)), sc_time(112, SC_NS));    // own port
  EXPECT_EQ(l.posted(PcieLink::Down, 4, sc_time(1000, SC_NS)), sc_time(1112, SC_NS));  // idle again
}

TEST(PcieLink, AReadIsRequestThenCompletionLatencyThenDataInTheOtherDirection) {
  PcieLink l("link_read");
  gen1_x1(l);
  // Request: 96 ns downstream; completer 400 ns; 4 data bytes + header upstream: 112 ns.
  EXPECT_EQ(l.read(PcieLink::Down, 4, sc_time(1000, SC_NS)), sc_time(1608, SC_NS));
  // Device-initiated read of 512 bytes: request upstream, two completion TLPs downstream.
  EXPECT_EQ(l.read(PcieLink::Up, 512, sc_time(2000, SC_NS)), sc_time(2000 + 96 + 400 + 2240, SC_NS));
  // A downstream posted write issued during that completion waits for it.
  EXPECT_EQ(l.posted(PcieLink::Down, 4, sc_time(2500, SC_NS)), sc_time(2000 + 96 + 400 + 2240 + 112, SC_NS));
}
