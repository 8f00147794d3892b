#include <gtest/gtest.h>

#include "base/params.h"

using namespace avp;

TEST(Params, ParsesIntegersWithPrefixesSeparatorsAndSuffixes) {
  EXPECT_EQ(parse_u64("0x1000_0000", "x"), 0x10000000u);
  EXPECT_EQ(parse_u64("4MiB", "x"), 4u << 20);
  EXPECT_EQ(parse_u64("2 GiB", "x"), 2ull << 30);
  EXPECT_EQ(parse_u64("0b101", "x"), 5u);
  EXPECT_EQ(parse_i64("-12", "x"), -12);
  EXPECT_THROW(parse_u64("-1", "x"), ParamError);
  EXPECT_THROW(parse_u64("12abc", "x"), ParamError);
  EXPECT_THROW(parse_u64("0x", "x"), ParamError);
  EXPECT_THROW(parse_u64("99999999999999999999", "x"), ParamError);
}

TEST(Params, AnIntegerTooLargeIsNamedAsSuch) {
  const auto message = [](const std::string& text) {
    try {
      parse_u64(text, "x");
    } catch (const ParamError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("99999999999999999999"), "x: '99999999999999999999' is not a 64-bit value");
  EXPECT_EQ(message("0x1_0000_0000_0000_0000"), "x: '0x1_0000_0000_0000_0000' is not a 64-bit value");
  EXPECT_EQ(message("20000000000 GiB"), "x: '20000000000 GiB' is not a 64-bit value");
  EXPECT_EQ(message("12abc"), "x: '12abc' is not an unsigned integer");
  EXPECT_EQ(parse_u64("18446744073709551615", "x"), UINT64_MAX);
}

TEST(Params, ParsesTimesAndFormatsThemBack) {
  EXPECT_EQ(parse_time("10 ns", "x"), sc_core::sc_time(10, sc_core::SC_NS));
  EXPECT_EQ(parse_time("1us", "x"), sc_core::sc_time(1, sc_core::SC_US));
  EXPECT_EQ(format_time(sc_core::sc_time(1500, sc_core::SC_PS)), "1.500 ns");
  EXPECT_EQ(parse_time(format_time(sc_core::sc_time(2500001, sc_core::SC_PS)), "x"), sc_core::sc_time(2500001, sc_core::SC_PS));
  EXPECT_EQ(format_time(sc_core::sc_time(3, sc_core::SC_US)), "3 us");
  EXPECT_THROW(parse_time("10", "x"), ParamError);
  EXPECT_THROW(parse_time("ten ns", "x"), ParamError);
}

TEST(Params, PresetFromYamlAppliesAtConstructionAndNamesTheLineOnError) {
  auto& reg = ParamRegistry::instance();
  reg.clear_presets();
  reg.load_yaml_text("a:\n  size: 8KiB\n  lat: 5 ns\n", "cfg.yaml");
  Param<uint64_t> size("a.size", 1, "size");
  Param<sc_core::sc_time> lat("a.lat", sc_core::SC_ZERO_TIME, "latency");
  EXPECT_EQ(size.get(), 8192u);
  EXPECT_EQ(lat.get(), sc_core::sc_time(5, sc_core::SC_NS));
  EXPECT_NO_THROW(reg.check_unused_presets());

  reg.clear_presets();
  reg.load_yaml_text("b:\n  count: many\n", "cfg.yaml");
  try {
    Param<uint32_t> count("b.count", 1, "count");
    FAIL() << "wrong type accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("cfg.yaml:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("b.count"), std::string::npos) << e.what();
  }
  reg.clear_presets();
}

TEST(Params, UnknownPresetIsAnErrorNamingItsOrigin) {
  auto& reg = ParamRegistry::instance();
  reg.clear_presets();
  reg.load_yaml_text("known: 1\nunknwon: 2\n", "x.yaml");
  Param<uint64_t> known("known", 0, "a known parameter");
  try {
    reg.check_unused_presets();
    FAIL();
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("x.yaml:2: unknown parameter 'unknwon'"), std::string::npos) << e.what();
  }
  reg.clear_presets();
}

TEST(Params, MalformedYamlNamesTheLine) {
  try {
    ParamRegistry::instance().load_yaml_text("a: 1\nb: [1, 2\n", "bad.yaml");
    FAIL();
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.yaml:"), std::string::npos) << e.what();
  }
  ParamRegistry::instance().clear_presets();
}

// Found by fuzz.config_loader: yaml-cpp reads bytes that are not UTF-8 into
// strings that --dump-config then writes back differently.
TEST(Params, TextThatIsNotUtf8IsRejectedWithItsLine) {
  auto& reg = ParamRegistry::instance();
  reg.clear_presets();
  for (const char* bad : {"a: 1\nname: \"x\xff\"\n", "a: 1\nname: \xc0\xaf\n", "a: 1\nname: \xed\xa0\x80\n"}) {
    try {
      reg.load_yaml_text(bad, "u.yaml");
      FAIL() << "accepted " << bad;
    } catch (const ParamError& e) {
      EXPECT_NE(std::string(e.what()).find("u.yaml:2: not UTF-8 text"), std::string::npos) << e.what();
    }
    reg.clear_presets();
  }
  EXPECT_NO_THROW(reg.load_yaml_text("name: \"gr\xc3\xbc\xc3\x9f \xf0\x9f\x99\x82\"\n", "u.yaml"));
  reg.clear_presets();
}

// Found by fuzz.config_loader: YAML::LoadAll loops for ever on this text.
TEST(Params, TextAfterAFlowMapIsAnErrorNotAHang) {
  auto& reg = ParamRegistry::instance();
  reg.clear_presets();
  reg.collect_errors();
  reg.load_yaml_text("{platform: , quantum: 1us}, pci/B}}\n", "flow.yaml");
  try {
    reg.check_unused_presets();
    FAIL() << "accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("flow.yaml:1: a second YAML document"), std::string::npos) << e.what();
  }
  reg.clear_presets();
}

// Found by fuzz.config_loader: 650 bytes of aliases of aliases named 2^24 parameters.
TEST(Params, AliasExpansionIsBounded) {
  std::string text = "a0: &a0 {x: 1, y: 1}\n";
  for (int i = 1; i < 24; ++i)
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " {x: *a" + std::to_string(i - 1) + ", y: *a" +
            std::to_string(i - 1) + "}\n";
  auto& reg = ParamRegistry::instance();
  reg.clear_presets();
  try {
    reg.load_yaml_text(text, "bomb.yaml");
    FAIL() << "accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("expands to more than 10000 entries"), std::string::npos) << e.what();
  }
  reg.clear_presets();
  try {  // an alias inside its own anchor nests without end
    reg.load_yaml_text("a: &a {x: *a, y: 1}\n", "loop.yaml");
    FAIL() << "accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("loop.yaml:1: the configuration expands to more than 32 levels"), std::string::npos)
        << e.what();
  }
  reg.clear_presets();
  // Aliases within the bound are fine.
  reg.load_yaml_text("base: &b {size: 4}\nq: *b\n", "ok.yaml");
  Param<uint64_t> size("q.size", 0, "");
  EXPECT_EQ(size.get(), 4u);
  reg.clear_presets();
}

TEST(Params, Uint32RejectsValuesThatDoNotFit) {
  Param<uint32_t> p("p32", 0, "");
  EXPECT_THROW(p.set_from_string("0x100000000"), ParamError);
  p.set_from_string("0xFFFFFFFF");
  EXPECT_EQ(p.get(), 0xFFFFFFFFu);
}

TEST(Params, DuplicateNamesAreRejected) {
  Param<bool> a("dup", false, "");
  EXPECT_THROW(Param<bool>("dup", true, ""), ParamError);
}
