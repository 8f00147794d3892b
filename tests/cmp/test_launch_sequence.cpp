// The RefSi host layer's launch sequence, end to end on the command processor:
// kernel ELF in a shared window, KUB with packed arguments and the per-thread
// template, per-hart state replicated to every hart's TCDM slice by one 2D DMA
// (source stride 0) issued with STORE_IMM64, waited for with LOAD_REG64 /
// STORE_REG64 on DMASTARTSEQ / DMADONESEQ, SYNC_CACHE, entry/stack/return
// registers, RUN_KERNEL_SLICE per slice, SYNC_CACHE, FINISH.
#include <gtest/gtest.h>

#include "cmp_fixture.h"
#include "dma/dma_regs.h"
#include "kernel_loader.h"

using namespace avp;
using avp::test::CmpBench;

TEST(LaunchSequence, RunKernelSliceWithKubKtbAndDmaReplicatedState) {
  CmpBench t;
  const uint64_t dram = t.p.dram_base();
  const uint64_t kernel_at = dram + 0x10'0000, kub = dram + 0x20'0000, state = dram + 0x21'0000, out = dram + 0x30'0000;
  const uint64_t harts = t.p.num_harts(), per_slice = 12, slices = 2;
  const uint64_t hart_slice = t.p.tcdm_slice.get() / t.p.harts_per_core.get();
  LoadedKernel k = load_kernel(AVP_KERNEL_SLICE_ELF, kernel_at, kub - kernel_at,
                               [&](uint64_t a, const void* d, uint64_t n) { return t.p.device_port.write_debug(a, d, n); });
  // KUB: packed arguments at +0x40, thread-specific data template at +0x80.
  const int64_t args[3] = {static_cast<int64_t>(out), 10, static_cast<int64_t>(per_slice)};
  const int64_t tsd[2] = {7, 0};
  const int64_t hart_state = 500;
  ASSERT_TRUE(t.p.device_port.write_debug(kub + 0x40, args, sizeof args));
  ASSERT_TRUE(t.p.device_port.write_debug(kub + 0x80, tsd, sizeof tsd));
  ASSERT_TRUE(t.p.device_port.write_debug(state, &hart_state, 8));

  auto dma = [](uint32_t reg) { return static_cast<uint32_t>(AVP_DMA_BASE + reg); };
  CommandBuffer cb;
  cb.window(0, k.link_base, k.dram, (k.size + 0xFFF) & ~0xFFFull, AVP_CMP_WIN_SHARED, 7)
      // One 2D transfer: the same 8-byte row to offset 0x800 of every hart's TCDM slice.
      .store_imm(dma(AVP_DMASRCADDR), state)
      .store_imm(dma(AVP_DMADSTADDR), t.p.tcdm_global_base() + 0x800)
      .store_imm(dma(AVP_DMAXFERSIZE0), 8)
      .store_imm(dma(AVP_DMAXFERSIZE1), harts)
      .store_imm(dma(AVP_DMAXFERSRCSTRIDE0), 0)
      .store_imm(dma(AVP_DMAXFERDSTSTRIDE0), hart_slice)
      .store_imm(dma(AVP_DMACTRL), AVP_DMACTRL_START | AVP_DMACTRL_DIMS(2) | AVP_DMACTRL_SRC_STRIDE | AVP_DMACTRL_DST_STRIDE)
      .load_reg(AVP_CMP_SCRATCH, AVP_DMA_BASE + AVP_DMASTARTSEQ)
      .store_reg(AVP_CMP_SCRATCH, AVP_DMA_BASE + AVP_DMADONESEQ)
      .sync_cache(AVP_CMP_SYNC_DCACHE | AVP_CMP_SYNC_ICACHE)
      .write_reg(AVP_CMP_ENTRY_PT_FN, k.entry)
      .write_reg(AVP_CMP_STACK_TOP, 0)
      .write_reg(AVP_CMP_RETURN_ADDR, t.p.base_of("tcim"))
      .write_reg(AVP_CMP_KUB_DESC, kub | (uint64_t{1} << 48))          // 256 bytes
      .write_reg(AVP_CMP_KARGS_INFO, (uint64_t{0x40} << 16) | (uint64_t{24} << 40))
      .write_reg(AVP_CMP_TSD_INFO, (uint64_t{0x80} << 16) | (uint64_t{16} << 40));
  for (uint64_t s = 0; s < slices; ++s) cb.run_kernel_slice(0, per_slice, s);
  cb.sync_cache(AVP_CMP_SYNC_DCACHE).finish();
  t.place(dram, cb);
  t.run([&] {
    t.p.cmp.submit(dram, cb.size_bytes());
    t.wait_idle();
  });
  ASSERT_EQ(t.p.cmp.status().error_code, 0u) << cmp_error_name(t.p.cmp.status().error_code);
  EXPECT_EQ(t.p.cmp.completed_count(), 1u);
  for (uint64_t s = 0; s < slices; ++s)
    for (uint64_t i = 0; i < per_slice; ++i) {
      const int64_t v = static_cast<int64_t>(t.peek(out + 8 * (s * per_slice + i)));
      // state + scale x instance + magic + 1000 x slice + 100000 x calls, where the
      // KTB is a fresh copy per instance, so calls is always 1.
      EXPECT_EQ(v, 500 + 10 * static_cast<int64_t>(i) + 7 + 1000 * static_cast<int64_t>(s) + 100000) << s << "/" << i;
    }
  // Every hart's slice received the replicated state.
  for (uint64_t h = 0; h < harts; ++h) EXPECT_EQ(t.peek(t.p.tcdm_global_base() + h * hart_slice + 0x800), 500u) << h;
}
