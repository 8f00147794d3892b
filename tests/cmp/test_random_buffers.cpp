// Robustness of the command processor against arbitrary command buffers:
// random mixes of well-formed commands with random operands and corrupted
// chunks. Every buffer must finish or fail with a documented error code, the
// queue must drain, and nothing may crash or hang.
#include <gtest/gtest.h>

#include <random>

#include "base/params.h"
#include "cmp_fixture.h"

using namespace avp;
using avp::test::CmpBench;

TEST(CommandProcessor, RandomBuffersFinishOrFailWithADocumentedError) {
  // Bound the work a random buffer can ask for: small DRAM (DMA sizes), short kernels.
  ParamRegistry::instance().add_preset("dram.size", "64MiB", "test");
  ParamRegistry::instance().add_preset("harts.instruction_limit", "20000", "test");
  ParamRegistry::instance().add_preset("cmp.kernel_watchdog", "200 us", "test");
  CmpBench t;
  std::mt19937_64 rng(2024);
  const uint64_t dram = t.p.dram_base();
  auto addr = [&]() -> uint64_t {
    switch (rng() % 5) {
      case 0: return dram + (rng() % (1 << 20)) * 8;
      case 1: return 0x2000'2000 + (rng() % 16) * 8;  // DMA registers
      case 2: return 0x2000'0000 + (rng() % 80) * 8;  // CMP mirror
      case 3: return 0x1800'0000 + (rng() % 1024) * 8;
      default: return rng();
    }
  };
  unsigned finished = 0, failed = 0;
  t.run([&] {
    for (int b = 0; b < 300; ++b) {
      CommandBuffer cb;
      const int n = 1 + static_cast<int>(rng() % 12);
      for (int i = 0; i < n; ++i) {
        switch (rng() % 11) {
          case 0: cb.write_reg(static_cast<unsigned>(rng() % 44), rng() % 2 ? addr() : rng()); break;
          case 1: cb.load_reg(static_cast<unsigned>(rng() % 40), addr()); break;
          case 2: cb.store_reg(static_cast<unsigned>(rng() % 40), addr()); break;
          case 3: cb.store_imm(static_cast<uint32_t>(addr()), rng() % 3 ? rng() % 4096 : rng()); break;
          case 4: cb.copy_mem(static_cast<uint32_t>(rng() % 8), addr(), addr(), rng() % 2 ? kCmpUnit : make_unit(UnitKind::Hart, rng() % 10)); break;
          case 5: cb.run_instances(static_cast<unsigned>(rng() % 10), rng() % 20, {addr(), addr()}); break;
          case 6: cb.run_kernel_slice(static_cast<unsigned>(rng() % 10), rng() % 20, rng() % 4); break;
          case 7: cb.sync_cache(static_cast<unsigned>(rng() % 4)); break;
          case 8: cb.window(static_cast<unsigned>(rng() % 8), 0x1'0000 + (rng() % 64) * 0x1000, addr(), 1 + rng() % 0x10000,
                            static_cast<unsigned>(rng() % 4), static_cast<unsigned>(rng() % 8), rng() % 2 ? 0 : rng(),
                            rng() % 2, static_cast<unsigned>(rng() % 16)); break;
          case 9: cb.raw(rng()); break;
          default: cb.nop(static_cast<unsigned>(rng() % 3)); break;
        }
      }
      if (rng() % 4) cb.finish();
      t.place(dram + 0x200'0000, cb);
      const uint64_t before = t.p.cmp.completed_count();
      ASSERT_TRUE(t.p.cmp.submit(dram + 0x200'0000, cb.size_bytes()));
      t.wait_idle();
      if (t.p.cmp.completed_count() > before) {
        ++finished;
      } else {
        ++failed;
        const unsigned e = t.p.cmp.status().error_code;
        ASSERT_GE(e, 1u);
        ASSERT_LE(e, 16u);
      }
    }
  });
  EXPECT_EQ(finished + failed, 300u);
  EXPECT_GT(finished, 0u);
  EXPECT_GT(failed, 0u);
}
