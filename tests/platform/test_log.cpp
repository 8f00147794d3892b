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

// 200 k bad accesses must not print 200 k lines: a module's first 100
// warnings are shown, then every power of ten with the count; all are counted.
TEST(Log, RepeatedWarningsAreRateLimitedWithACount) {
  install_log_handler();
  const uint64_t before = log_count(Level::Warn);
  Logger log("flooding_device");
  testing::internal::CaptureStderr();
  for (int i = 0; i < 20000; ++i) AVP_LOG(log, Warn, "bad access " << i);
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(log_count(Level::Warn), before + 20000);
  size_t lines = 0;
  for (char c : out) lines += c == '\n';
  EXPECT_EQ(lines, 102u);  // 1..100, 1000, 10000
  EXPECT_NE(out.find("bad access 99 (100 warnings from here: further ones are counted"), std::string::npos);
  EXPECT_NE(out.find("bad access 999 (1000 warnings from here so far)"), std::string::npos);
  EXPECT_NE(out.find("bad access 9999 (10000 warnings from here so far)"), std::string::npos);
  EXPECT_EQ(out.find("bad access 100 "), std::string::npos);
}
