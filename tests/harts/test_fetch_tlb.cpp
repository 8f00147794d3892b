// Instruction fetches use the TLB as data accesses do (fetch_tlb.c): a
// decoded block keeps its page's translation only while the TLB keeps the
// entry, so a loop whose code and data pages do not fit in the TLB walks the
// page tables every iteration, in every mode of running the harts.
#include <gtest/gtest.h>

#include <string>

#include "accel_vp_cli.h"

namespace {

using avp::test::read_json;
using avp::test::run_accel_vp;

// The measured loop's page walks with `sets` (--set options).
double loop_walks(const std::string& out, const std::string& sets) {
  const auto r = run_accel_vp("-o " + out + " " + sets + " run --elf " + FETCH_TLB_ELF);
  EXPECT_EQ(r.code, 0) << r.out;
  // 200 iterations of data[1] + data[2] + data[3] + data[4]
  EXPECT_NE(r.out.find("fetch_tlb: 0 traps, sum 2000"), std::string::npos) << r.out;
  const auto rep = read_json(out + "/report.json");
  EXPECT_EQ(rep["dumps"].size(), 1u);
  return rep["dumps"][0]["units"]["harts.hart0"]["counters"]["page_walks"]["value"].get<double>();
}

TEST(FetchTlb, ALoopWhosePagesFitWalksOnlyToFillTheTlb) {
  EXPECT_LE(loop_walks("fetch_tlb_fit", "-s harts.tlb_entries=5"), 8);
}

TEST(FetchTlb, ACodePageTheDataPushedOutIsWalkedAgainAtTheNextEntry) {
  // Four entries for five pages, FIFO: each iteration the code page's entry
  // is gone by the time the loop's block is entered again, its walk evicts
  // the oldest data page, and so on: five walks an iteration. (Before,
  // a decoded block kept its translation for ever: the code page was walked
  // once and the four data pages then fitted, about 5 walks in all.)
  const double walks = loop_walks("fetch_tlb_thrash", "-s harts.tlb_entries=4");
  EXPECT_GE(walks, 5 * 200);
  EXPECT_LE(walks, 5 * 200 + 8);
  // The same in the interpreter, in the parallel quantum schedule (whose
  // slices leave the walk to the hart's thread) and with DMI off.
  EXPECT_EQ(loop_walks("fetch_tlb_interpreted", "-s harts.tlb_entries=4 -s harts.translate=false"), walks);
  EXPECT_EQ(loop_walks("fetch_tlb_parallel", "-s harts.tlb_entries=4 -s harts.parallel_quantum=true"), walks);
  EXPECT_EQ(loop_walks("fetch_tlb_dmi_off", "-s harts.tlb_entries=4 -s dram.dmi=false"), walks);
}

}  // namespace
