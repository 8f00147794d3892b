#include <gtest/gtest.h>

#include <map>

#include "base/stats.h"

using namespace avp;

TEST(Stats, HistogramPercentilesAreWithinBucketPrecision) {
  Histogram h("h", "latency", "ns");
  for (int i = 1; i <= 1000; ++i) h.sample(i);
  EXPECT_EQ(h.count(), 1000u);
  EXPECT_DOUBLE_EQ(h.min(), 1);
  EXPECT_DOUBLE_EQ(h.max(), 1000);
  EXPECT_DOUBLE_EQ(h.mean(), 500.5);
  EXPECT_NEAR(h.percentile(50), 500, 500 * 0.016);
  EXPECT_NEAR(h.percentile(99), 990, 990 * 0.016);
  auto j = h.to_json();
  EXPECT_EQ(j["count"], 1000);
}

// Each value lands in the bucket that holds it, at every magnitude
// (subnormal, small, large) and among more buckets than sample() keeps at hand.
TEST(Stats, HistogramBucketsHoldTheirValuesAtEveryMagnitude) {
  const double values[] = {4.9e-324, 1e-310, 1e-300, 1e-9, 0.1, 0.5, 1, 1.5, 1.999, 2, 3, 63.9, 64, 1000.3,
                           12345.678, 1e12, 1e300};
  for (double v : values) {
    Histogram h("h", "values", "ns");
    h.sample(v);
    const auto j = h.to_json();
    const auto& buckets = j["buckets"];
    ASSERT_EQ(buckets.size(), 1u) << v;
    const double mid = buckets[0][0];
    EXPECT_NEAR(mid, v, v / 64) << v;  // a bucket is 1/64 of its power of two wide
  }
  Histogram h("h", "values", "ns");
  for (int round = 0; round < 3; ++round)
    for (int i = 1; i <= 100; ++i) h.sample(i * 37.5);  // a hundred buckets, again and again
  const auto j = h.to_json();
  uint64_t counted = 0;
  for (const auto& b : j["buckets"]) counted += b[1].get<uint64_t>();
  EXPECT_EQ(counted, 300u);
  EXPECT_NEAR(h.percentile(50), 50 * 37.5, 50 * 37.5 * 0.016);
}

// Values that alternate or come back (sample() counts the last two new
// values without their bucket's lookup) land in their buckets, with exact
// count, sum, min and max, also after a reset.
TEST(Stats, HistogramCountsAlternatingAndReturningValuesInTheirBuckets) {
  Histogram h("h", "queueing", "ns");
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 10; ++i) {
      h.sample(0);
      h.sample(16);
    }
    h.sample(3);
    h.sample(16);   // one of the last two new values again
    h.sample(0);    // no longer one of them
    h.sample(100);
    h.sample(3);
    EXPECT_EQ(h.count(), 25u);
    EXPECT_DOUBLE_EQ(h.sum(), 11 * 16 + 2 * 3 + 100);
    EXPECT_DOUBLE_EQ(h.min(), 0);
    EXPECT_DOUBLE_EQ(h.max(), 100);
    std::map<double, uint64_t> counts;
    const auto j = h.to_json();
    for (const auto& b : j["buckets"]) counts[b[0].get<double>()] += b[1].get<uint64_t>();
    ASSERT_EQ(counts.size(), 4u);
    auto it = counts.begin();
    EXPECT_EQ(it->second, 11u);  // 0
    EXPECT_EQ((++it)->second, 2u);  // 3
    EXPECT_EQ((++it)->second, 11u);  // 16
    EXPECT_EQ((++it)->second, 1u);  // 100
    h.reset(sc_core::SC_ZERO_TIME);
  }
}

TEST(Stats, UtilisationDoesNotCountOverlapTwice) {
  Utilisation u("u", "busy");
  using sc_core::sc_time;
  u.add_busy(sc_time(0, sc_core::SC_NS), sc_time(10, sc_core::SC_NS));
  u.add_busy(sc_time(5, sc_core::SC_NS), sc_time(15, sc_core::SC_NS));
  u.add_busy(sc_time(20, sc_core::SC_NS), sc_time(30, sc_core::SC_NS));
  EXPECT_EQ(u.busy(), sc_time(25, sc_core::SC_NS));
  EXPECT_DOUBLE_EQ(u.fraction(sc_time(50, sc_core::SC_NS)), 0.5);
}

TEST(Stats, IdleUnitHasZeroUtilisation) {
  Utilisation u("idle", "never busy");
  EXPECT_DOUBLE_EQ(u.fraction(sc_core::sc_time(1, sc_core::SC_US)), 0.0);
}

TEST(Stats, OccupancyIsWeightedByTime) {
  using sc_core::sc_time;
  Occupancy q("q", "entries queued", "entries");
  q.set(2, sc_time(10, sc_core::SC_NS));  // 0 for 10 ns
  q.set(1, sc_time(30, sc_core::SC_NS));  // 2 for 20 ns
  q.set(0, sc_time(40, sc_core::SC_NS));  // 1 for 10 ns, then 0
  EXPECT_EQ(q.max(), 2u);
  EXPECT_DOUBLE_EQ(q.mean(sc_time(100, sc_core::SC_NS)), (2 * 20 + 1 * 10) / 100.0);
  const auto levels = q.time_at_level(sc_time(100, sc_core::SC_NS));
  EXPECT_EQ(levels.at(0), sc_time(70, sc_core::SC_NS));
  EXPECT_EQ(levels.at(2), sc_time(20, sc_core::SC_NS));
  Occupancy idle("idle_q", "never used", "entries");
  EXPECT_DOUBLE_EQ(idle.mean(sc_time(1, sc_core::SC_US)), 0.0);
  EXPECT_EQ(idle.max(), 0u);
}

TEST(Stats, RegistryCollectsByName) {
  Counter c("unit.count", "things", "things");
  c.inc(3);
  auto j = StatRegistry::instance().to_json();
  EXPECT_EQ(j["unit.count"]["value"], 3);
}

TEST(Stats, CounterArrayRegistersOneCounterPerElement) {
  struct Owner : sc_core::sc_object {
    Owner() : sc_object("arr_owner") {}
  } owner;
  CounterArray a(&owner, "op.",
                 {{"NOP", "packets executed", ""}, {"FINISH", "packets executed", ""}, {"READS", "reads", "reads"}},
                 "packets");
  ASSERT_EQ(a.size(), 3u);
  a[1].inc();
  a[2].inc(5);
  EXPECT_EQ(a.total(), 6u);
  const StatBase* finish = StatRegistry::instance().find("arr_owner.op.FINISH");
  ASSERT_NE(finish, nullptr);
  EXPECT_EQ(finish->to_json()["value"], 1);
  EXPECT_EQ(finish->unit(), "packets");
  EXPECT_EQ(StatRegistry::instance().find("arr_owner.op.READS")->unit(), "reads");
  EXPECT_EQ(StatRegistry::instance().find("arr_owner.op.NOP")->to_json()["value"], 0);
}
