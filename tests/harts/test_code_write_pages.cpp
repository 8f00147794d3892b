// A store into one page of decoded code drops only that page's blocks
// (code_write_pages.c): in a translated fetch regime, where decoding a block
// looks its page up in the TLB, a loop run after a store into another code
// page makes the same TLB lookups as after a store into data. Were every
// block dropped at a code store, the loop and its caller would be decoded
// again, each with a lookup.
#include <gtest/gtest.h>

#include <string>

#include "accel_vp_cli.h"

namespace {

using avp::test::read_json;
using avp::test::run_accel_vp;

double counter(const nlohmann::json& dump, const char* unit, const char* name) {
  return dump["units"][unit]["counters"][name]["value"].get<double>();
}

void expect_code_store_keeps_other_pages(const std::string& out, const std::string& sets) {
  const auto r = run_accel_vp("-o " + out + " " + sets + " run --elf " + CODE_WRITE_PAGES_ELF);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("code_write_pages: 0 traps, sum 24632"), std::string::npos) << r.out;
  const auto rep = read_json(out + "/report.json");
  ASSERT_EQ(rep["dumps"].size(), 4u);  // two rounds of (code store, data store)
  const auto& code = rep["dumps"][2];
  const auto& data = rep["dumps"][3];
  EXPECT_EQ(counter(code, "harts", "code_flushes"), 1);  // the store hit decoded code
  EXPECT_EQ(counter(data, "harts", "code_flushes"), 0);
  EXPECT_EQ(counter(code, "harts.hart0", "tlb_hits") + counter(code, "harts.hart0", "tlb_misses"),
            counter(data, "harts.hart0", "tlb_hits") + counter(data, "harts.hart0", "tlb_misses"));
}

TEST(CodeWritePages, AStoreIntoOneCodePageKeepsTheBlocksOfTheOthers) {
  expect_code_store_keeps_other_pages("code_write_pages", "");
  expect_code_store_keeps_other_pages("code_write_pages_interpreted", "-s harts.translate=false");
}

}  // namespace
