// The PMP's access check against a reference written from the privileged
// spec (section 3.7) over its CSR view: random configurations and runs of
// queries with the locality of a hart's (pages asked again, accesses near
// region edges, accesses crossing pages, whole pages as the data path asks),
// across configuration changes.
#include <gtest/gtest.h>

#include <random>

#include "harts/pmp.h"

namespace avp::rv {
namespace {

constexpr unsigned kEntries = 16;

// The spec's decision: the lowest-numbered enabled entry that matches any
// byte of the access decides, and must match all of them; an M-mode access
// is allowed by an unlocked entry and by no entry at all.
bool reference_allows(const Pmp& pmp, uint64_t addr, uint64_t len, Priv p, unsigned access) {
  const uint64_t last = addr + len - 1;
  for (unsigned i = 0; i < kEntries; ++i) {
    const uint8_t cfg = static_cast<uint8_t>(pmp.read_cfg(i / 8 * 2) >> (8 * (i % 8)));
    const unsigned mode = (cfg >> 3) & 3;
    const uint64_t a = pmp.read_addr(i);
    uint64_t lo = 0, hi = 0;
    if (mode == Pmp::TOR) {
      lo = i == 0 ? 0 : pmp.read_addr(i - 1) << 2;
      hi = a << 2;
    } else if (mode == Pmp::NA4) {
      lo = a << 2;
      hi = lo + 4;
    } else if (mode == Pmp::NAPOT) {
      unsigned ones = 0;
      while ((a >> ones) & 1) ++ones;
      lo = (a & ~((uint64_t{1} << ones) - 1)) << 2;
      hi = lo + (uint64_t{8} << ones);
    } else {
      continue;
    }
    if (hi <= lo || last < lo || addr >= hi) continue;
    if (addr < lo || last >= hi) return false;
    if (p == PRV_M && !(cfg & Pmp::L)) return true;
    return (cfg & access) == access;
  }
  return p == PRV_M;
}

// A region of the test's 1 MiB at 0x8000'0000, in one of the three modes, with random permissions.
void configure_randomly(Pmp& pmp, std::mt19937_64& rng) {
  pmp.reset();
  uint64_t cfg[2] = {0, 0};
  uint64_t tor_base = 0x8000'0000;
  for (unsigned i = 0; i < kEntries; ++i) {
    const unsigned mode = rng() % 4;
    uint64_t addr = 0;
    if (mode == Pmp::TOR) {
      tor_base += (rng() % 64) * 1024 + (rng() % 2) * 4;
      addr = tor_base >> 2;
    } else if (mode == Pmp::NA4) {
      addr = (0x8000'0000 + (rng() % (1 << 20)) / 4 * 4) >> 2;
    } else if (mode == Pmp::NAPOT) {
      const unsigned size_log2 = 3 + rng() % 16;  // 8 B .. 256 KiB
      const uint64_t base = (0x8000'0000 + rng() % (1 << 20)) & ~((uint64_t{1} << size_log2) - 1);
      addr = (base >> 2) | ((uint64_t{1} << (size_log2 - 3)) - 1);
    }
    pmp.write_addr(i, addr);
    uint64_t c = (rng() % 8) | uint64_t{mode} << 3;
    if ((c & Pmp::W) && !(c & Pmp::R)) c |= Pmp::R;  // R=0 W=1 is reserved
    if (rng() % 8 == 0) c |= Pmp::L;
    cfg[i / 8] |= c << (8 * (i % 8));
  }
  // Addresses first (a locked entry ignores later writes), then the configuration.
  pmp.write_cfg(0, cfg[0]);
  pmp.write_cfg(2, cfg[1]);
}

TEST(PmpTest, AgreesWithTheSpecsDecisionOverRandomConfigurationsAndQueries) {
  std::mt19937_64 rng(7);
  Pmp pmp;
  pmp.configure(kEntries, 0);
  const Priv privs[] = {PRV_U, PRV_S, PRV_M};
  const unsigned accesses[] = {kAccessRead, kAccessWrite, kAccessExec, kAccessRead | kAccessWrite};
  unsigned allowed = 0, denied = 0;
  for (int config = 0; config < 200; ++config) {
    configure_randomly(pmp, rng);
    uint64_t addr = 0x8000'0000 + rng() % (1 << 20);
    for (int q = 0; q < 500; ++q) {
      // Mostly near the last query (the same page again), sometimes anywhere; whole pages now and then.
      if (rng() % 8 == 0) addr = 0x8000'0000 + rng() % (1 << 20);
      else addr += static_cast<int64_t>(rng() % 512) - 256;
      uint64_t len = uint64_t{1} << (rng() % 4);
      uint64_t at = addr;
      if (rng() % 16 == 0) {
        at &= ~uint64_t{4095};
        len = 4096;
      }
      const Priv p = privs[rng() % 3];
      const unsigned access = accesses[rng() % 4];
      const bool expected = reference_allows(pmp, at, len, p, access);
      ASSERT_EQ(pmp.allows(at, len, p, access), expected)
          << "configuration " << config << ", query " << q << ": " << len << " bytes at 0x" << std::hex << at
          << ", privilege " << std::dec << int{p} << ", access " << access;
      (expected ? allowed : denied)++;
    }
  }
  EXPECT_GT(allowed, 10000u);  // both answers are well represented
  EXPECT_GT(denied, 10000u);
}

TEST(PmpTest, AnAllowedPageAllowsOnlyAccessesWithinItUntilTheConfigurationChanges) {
  Pmp pmp;
  pmp.configure(kEntries, 0);
  pmp.write_addr(0, (0x8000'1000 + 2048 - 1) >> 2);  // NAPOT: the 4 KiB page at 0x8000'1000
  pmp.write_cfg(0, Pmp::R | Pmp::W | uint64_t{Pmp::NAPOT} << 3);
  EXPECT_TRUE(pmp.allows(0x8000'1000, 4096, PRV_S, kAccessWrite));
  EXPECT_TRUE(pmp.allows(0x8000'1008, 8, PRV_S, kAccessWrite));
  EXPECT_TRUE(pmp.allows(0x8000'1008, 8, PRV_M, kAccessExec)) << "an unlocked entry does not bind M-mode";
  EXPECT_FALSE(pmp.allows(0x8000'1008, 8, PRV_S, kAccessExec)) << "allowed for M, not for S";
  EXPECT_FALSE(pmp.allows(0x8000'1FFC, 8, PRV_S, kAccessWrite)) << "it crosses into the next page";
  EXPECT_FALSE(pmp.allows(0x8000'0FFC, 8, PRV_S, kAccessWrite)) << "it crosses into the page before";
  pmp.write_cfg(0, Pmp::R | uint64_t{Pmp::NAPOT} << 3);  // writes no longer allowed
  EXPECT_FALSE(pmp.allows(0x8000'1008, 8, PRV_S, kAccessWrite));
  EXPECT_TRUE(pmp.allows(0x8000'1008, 8, PRV_S, kAccessRead));
}

}  // namespace
}  // namespace avp::rv
