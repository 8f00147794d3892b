// Decoded blocks of translated fetches stay across SFENCE.VMA and satp
// writes and are checked again when next entered (fetch_remap.c): a call
// through a remapped, re-permissioned or other address space's code page
// runs what the page maps to now, in every mode of running the harts.
#include <gtest/gtest.h>

#include <string>

#include "accel_vp_cli.h"

namespace {

using avp::test::run_accel_vp;

void expect_every_check(const std::string& out, const std::string& sets) {
  // About 260 k instructions: a limit ends a run gone astray (a trap loop) quickly.
  const auto r = run_accel_vp("-o " + out + " -s harts.instruction_limit=20000000 " + sets + " run --elf " +
                              FETCH_REMAP_ELF);
  EXPECT_EQ(r.code, 0) << r.out;
  for (const char* name : {"first-mapping", "remapped-sfence-all", "remapped-sfence-va", "asid2", "asid1",
                           "asid2-again", "not-executable-faults", "executable-again", "crossing-hi1", "crossing-hi2",
                           "crossing-hi1-again"})
    EXPECT_NE(r.out.find(std::string("fetch_remap: ") + name + " ok"), std::string::npos) << name << "\n" << r.out;
  EXPECT_NE(r.out.find("fetch_remap: 0 failed, 0 traps"), std::string::npos) << r.out;
}

TEST(FetchRemap, BlocksRunWhatTheirPageMapsToAfterATranslationChange) { expect_every_check("fetch_remap", ""); }

TEST(FetchRemap, TheSameInterpretedInParallelSlicesAndWithOneTlbEntry) {
  expect_every_check("fetch_remap_interpreted", "-s harts.translate=false");
  expect_every_check("fetch_remap_parallel", "-s harts.parallel_quantum=true");
  expect_every_check("fetch_remap_tlb1", "-s harts.tlb_entries=1");
}

}  // namespace
