#include <gtest/gtest.h>

#include "base/log.h"
#include "base/params.h"

using namespace avp;

TEST(Log, LongestPrefixWinsAndDefaultAppliesElsewhere) {
  reset_log_levels();
  set_default_log_level(Level::Warn);
  set_log_level("harts", Level::Debug);
  set_log_level("harts.core1", Level::Error);
  EXPECT_EQ(log_level("harts.core0.hart0"), Level::Debug);
  EXPECT_EQ(log_level("harts.core1.hart2"), Level::Error);
  EXPECT_EQ(log_level("dram"), Level::Warn);
  reset_log_levels();
}

TEST(Log, LoggerSeesLevelChangesAfterConstruction) {
  reset_log_levels();
  Logger log("cmp");
  EXPECT_FALSE(log.enabled(Level::Info));
  set_log_level("cmp", Level::Info);
  EXPECT_TRUE(log.enabled(Level::Info));
  EXPECT_FALSE(log.enabled(Level::Debug));
  reset_log_levels();
}

TEST(Log, WarningsAreCountedNotThrown) {
  uint64_t before = log_count(Level::Warn);
  Logger log("dev");
  AVP_LOG(log, Warn, "value " << 3);
  AVP_LOG(log, Error, "a model error is reported, not thrown");
  EXPECT_EQ(log_count(Level::Warn), before + 1);
}

TEST(Log, UnknownLevelNameIsAnError) { EXPECT_THROW(parse_level("loud"), ParamError); }
