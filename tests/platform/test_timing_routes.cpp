// The timing paths an initiator learnt from probes (base/timing_path.h): found
// by address range, none past a range's end, and at most four kept, the one
// used least lately making room.
#include <gtest/gtest.h>

#include <utility>

#include "base/timing_path.h"

namespace avp {
namespace {

struct NamedPath final : TimingPath {
  void time(uint64_t, unsigned, CacheTrafficExtension&, uint64_t&) override {}
};

TEST(TimingRoutes, FindsARangesPathAndNoneAcrossItsEndOrForAPageWithout) {
  NamedPath dram;
  TimingRoutes routes;
  bool known = true;
  EXPECT_EQ(routes.find(0x8000'0000, 64, known), nullptr);
  EXPECT_FALSE(known);  // not probed yet
  routes.learn(0x8000'0040, &dram, 0x8000'0000, 0x1000'0000);
  EXPECT_EQ(routes.find(0x8123'4540, 64, known), &dram);
  EXPECT_TRUE(known);
  EXPECT_EQ(routes.find(0x8fff'fff0, 64, known), nullptr);  // runs past the range: by TLM
  EXPECT_TRUE(known);
  routes.learn(0x1000'0008, nullptr, 0, 0);  // a device: its page has no path
  EXPECT_EQ(routes.find(0x1000'0ffc, 4, known), nullptr);
  EXPECT_TRUE(known);
  EXPECT_EQ(routes.find(0x1000'1000, 4, known), nullptr);
  EXPECT_FALSE(known);  // the next page is not known
}

TEST(TimingRoutes, TheRouteUsedLeastLatelyMakesRoom) {
  NamedPath a, b, c, d, e;
  TimingRoutes routes;
  routes.learn(0x1'0000, &a, 0x1'0000, 0x1000);
  routes.learn(0x2'0000, &b, 0x2'0000, 0x1000);
  routes.learn(0x3'0000, &c, 0x3'0000, 0x1000);
  routes.learn(0x4'0000, &d, 0x4'0000, 0x1000);
  bool known = false;
  EXPECT_EQ(routes.find(0x1'0080, 8, known), &a);  // the oldest, used again: b is now the least lately used
  routes.learn(0x5'0000, &e, 0x5'0000, 0x1000);
  for (const auto& [addr, path] : {std::pair<uint64_t, TimingPath*>{0x1'0000, &a}, {0x3'0000, &c}, {0x4'0000, &d},
                                   {0x5'0000, &e}}) {
    EXPECT_EQ(routes.find(addr, 8, known), path) << std::hex << addr;
    EXPECT_TRUE(known) << std::hex << addr;
  }
  EXPECT_EQ(routes.find(0x2'0000, 8, known), nullptr);
  EXPECT_FALSE(known);  // b made room
}

}  // namespace
}  // namespace avp
