// The example kernels on the harts through the command processor: matrix
// multiply, DMA double-buffered copy through the xintf DMA device, and a
// kernel whose per-hart performance counters are sampled with COPY_MEM64.
#include <gtest/gtest.h>

#include <vector>

#include "base/elf_loader.h"
#include "cmp_fixture.h"
#include "kernel_loader.h"

using namespace avp;
using avp::test::CmpBench;

namespace {
LoadedKernel load(CmpBench& t, const char* elf) {
  // The kernel's block ends where the tests' data begins (0x40'0000).
  LoadedKernel k = load_kernel(elf, t.dram(0x10'0000), 0x30'0000,
                               [&](uint64_t a, const void* d, uint64_t n) { return t.p.device_port.write_debug(a, d, n); });
  k.return_addr = t.p.base_of("tcim");
  return k;
}
CommandBuffer launch(const LoadedKernel& k) {
  CommandBuffer cb;
  cb.window(0, k.link_base, k.dram, (k.size + 0xFFF) & ~0xFFFull, AVP_CMP_WIN_SHARED, 7)
      .sync_cache(AVP_CMP_SYNC_ICACHE)
      .write_reg(AVP_CMP_ENTRY_PT_FN, k.entry)
      .write_reg(AVP_CMP_STACK_TOP, 0)
      .write_reg(AVP_CMP_RETURN_ADDR, k.return_addr);
  return cb;
}
void run(CmpBench& t, const CommandBuffer& cb) {
  t.place(t.dram(0), cb);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), cb.size_bytes());
    t.wait_idle();
  });
  ASSERT_EQ(t.p.cmp.status().error_code, 0u) << cmp_error_name(t.p.cmp.status().error_code);
}
}  // namespace

TEST(Kernels, MatrixMultiply) {
  CmpBench t;
  const unsigned n = 24;
  std::vector<double> a(n * n), b(n * n), c(n * n, -1);
  for (unsigned i = 0; i < n * n; ++i) a[i] = 0.5 * (i % 7), b[i] = 1.0 + (i % 5);
  const uint64_t pa = t.dram(0x40'0000), pb = pa + 8 * n * n, pc = pb + 8 * n * n;
  t.p.device_port.write_debug(pa, a.data(), 8 * n * n);
  t.p.device_port.write_debug(pb, b.data(), 8 * n * n);
  CommandBuffer cb = launch(load(t, AVP_KERNEL_MATMUL_ELF));
  cb.run_instances(0, n, {pa, pb, pc, n}).sync_cache(AVP_CMP_SYNC_DCACHE).finish();
  run(t, cb);
  t.p.device_port.read_debug(pc, c.data(), 8 * n * n);
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j) {
      double s = 0;
      for (unsigned k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
      ASSERT_EQ(c[i * n + j], s) << i << "," << j;
    }
}

// Eight instances copy blocks through the xintf DMA device (its register
// block wherever the address map puts it), adding one to each word.
static void dma_copy(CmpBench& t) {
  const uint64_t block = 512, blocks = 6, instances = 8;
  const uint64_t bytes = block * blocks * instances;
  std::vector<uint64_t> src(bytes / 8), dst(bytes / 8, 0);
  for (size_t i = 0; i < src.size(); ++i) src[i] = i * 0x10001;
  const uint64_t ps = t.dram(0x40'0000), pd = t.dram(0x80'0000);
  t.p.device_port.write_debug(ps, src.data(), bytes);
  CommandBuffer cb = launch(load(t, AVP_KERNEL_DMA_COPY_ELF));
  const uint64_t hart_slice = t.p.tcdm_slice.get() / t.p.harts_per_core.get();
  cb.run_instances(0, instances, {ps, pd, block, blocks, t.p.tcdm_global_base(), hart_slice}).finish();
  run(t, cb);
  t.p.device_port.read_debug(pd, dst.data(), bytes);
  for (size_t i = 0; i < src.size(); ++i) ASSERT_EQ(dst[i], src[i] + 1) << i;
  auto* transfers = dynamic_cast<const Counter*>(StatRegistry::instance().find("dma.transfers"));
  EXPECT_EQ(transfers->value(), 2 * blocks * instances);
}

TEST(Kernels, DmaDoubleBufferedCopyThroughTheXintfDevice) {
  CmpBench t;
  dma_copy(t);
}

// The xintf DMA device programs the block the address map names, not a second parameter.
TEST(Kernels, TheXintfDmaDeviceFollowsAMovedDmaBlock) {
  ParamRegistry::instance().add_preset("bus.dma.base", "0x20006000", "test");
  CmpBench t;
  ASSERT_EQ(t.p.base_of("dma"), 0x2000'6000u);
  dma_copy(t);
}

TEST(Kernels, PerformanceCountersSampledWithCopyMem64) {
  CmpBench t;
  const uint64_t iterations = 1000, samples = t.dram(0x40'0000), sink = t.dram(0x41'0000);
  CommandBuffer cb = launch(load(t, AVP_KERNEL_COUNT_ELF));
  cb.run_instances(2, 2, {iterations, sink});
  // Hart 0's and hart 1's instret and cycle, read as those harts (the per-hart block at 0x2010_0000).
  cb.copy_mem(1, 0x2010'0010, samples, make_unit(UnitKind::Hart, 0))
      .copy_mem(1, 0x2010'0010, samples + 8, make_unit(UnitKind::Hart, 1))
      .copy_mem(1, 0x2010'0000, samples + 16, make_unit(UnitKind::Hart, 0))
      .copy_mem(1, 0x2010'0100, samples + 24, kCmpUnit)  // global: instructions of all harts
      .finish();
  run(t, cb);
  const uint64_t instret0 = t.peek(samples), instret1 = t.peek(samples + 8), cycles0 = t.peek(samples + 16);
  EXPECT_GE(instret0, 3 * iterations);
  EXPECT_EQ(instret0, instret1);  // the same work on both harts
  EXPECT_GE(cycles0, instret0);
  EXPECT_GE(t.peek(samples + 24), instret0 + instret1);
}

TEST(KernelLoader, TheWindowBaseIsTheImagesFirstPageAndTheImageMustFitItsBlock) {
  CmpBench t;
  const LoadedKernel k = load(t, AVP_KERNEL_MATMUL_ELF);
  EXPECT_EQ(k.link_base, 0x1'0000u);  // kernel.ld's default __avp_kernel_base
  EXPECT_GT(k.size, 0u);
  EXPECT_GE(k.entry, k.link_base);
  EXPECT_LT(k.entry, k.link_base + k.size);
  uint64_t written = 0;
  EXPECT_THROW(load_kernel(AVP_KERNEL_MATMUL_ELF, t.dram(0x10'0000), k.size - 1,
                           [&](uint64_t, const void*, uint64_t n) { written += n; return true; }),
               ElfError);
  EXPECT_EQ(written, 0u);  // nothing is placed when the image does not fit
}
