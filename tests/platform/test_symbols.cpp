// The symbol table behind trace lines and error reports.
#include <gtest/gtest.h>

#include "base/symbols.h"

using namespace avp;

TEST(Symbols, SizedAndUnsizedSymbolsAndOffsets) {
  SymbolTable& t = SymbolTable::instance();
  t.clear();
  t.add_image(0x1000, 0x1100, {{"main", 0x1000, 0x20}, {"label", 0x1040, 0}, {"table", 0x1080, 0x10}, {"abs", 0x5, 0}});
  EXPECT_EQ(t.describe(0x1000), "<main>");
  EXPECT_EQ(t.describe(0x101c), "<main+0x1c>");
  EXPECT_EQ(t.describe(0x1020), "");           // past main's size, before the label
  EXPECT_EQ(t.describe(0x107f), "<label+0x3f>");  // unsized: up to the next symbol
  EXPECT_EQ(t.describe(0x1088), "<table+0x8>");
  EXPECT_EQ(t.describe(0x1090), "");
  EXPECT_EQ(t.describe(0x5), "");              // outside its image: not registered
  EXPECT_EQ(t.describe(0xfff), "");
  t.clear();
}

TEST(Symbols, ANewImageReplacesTheSymbolsOfItsRange) {
  SymbolTable& t = SymbolTable::instance();
  t.clear();
  t.add_image(0x1000, 0x2000, {{"old_a", 0x1000, 0x10}, {"old_b", 0x1800, 0x10}});
  t.add_image(0x1800, 0x1900, {{"new_b", 0x1800, 0x8}});
  EXPECT_EQ(t.describe(0x1004), "<old_a+0x4>");
  EXPECT_EQ(t.describe(0x1804), "<new_b+0x4>");
  // A label and a function at one address: the function (sized) names it.
  t.add_image(0x3000, 0x3100, {{"start", 0x3000, 0}, {"func", 0x3000, 0x40}});
  EXPECT_EQ(t.describe(0x3010), "<func+0x10>");
  t.clear();
}
