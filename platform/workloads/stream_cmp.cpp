// Workloads "stream-dma" and "stream-direct" (the DMA double-buffering
// study): 8 kernel instances each add 1 to every 64-bit word of 8 blocks of
// BLOCK bytes (default 1024, `--args BLOCK`) from a source to a destination
// buffer in device DRAM. stream-dma moves the blocks through two buffers in
// the hart's TCDM slice with the xintf DMA device, fetching block k + 1 while
// block k is processed (kernel_dma_copy); stream-direct loads and stores DRAM
// through the data cache (kernel_stream_direct). The host checks every word.
// Background traffic (`--args BLOCK BACKGROUND`): the command processor
// starts a DRAM-to-DRAM DMA copy of BACKGROUND bytes just before the kernel
// (its own DMA register set, STORE_IMM64), which competes with the kernel
// for DRAM bandwidth, and waits for it after the kernel; the host checks it.
#include <cstdio>
#include <string>
#include <vector>

#include "accel_device.h"
#include "dma/dma_regs.h"
#include "kernel_loader.h"
#include "platform/platform.h"
#include "platform/workload.h"

namespace avp {

namespace {

constexpr uint64_t kInstances = 8, kBlocks = 8;

int stream(Platform& p, const WorkloadArgs& args, bool dma) {
  const char* who = dma ? "stream-dma" : "stream-direct";
  // Checked against the workload's argument list before the run.
  const uint64_t block = args.args.size() > 0 ? std::stoull(args.args[0]) : 1024;
  const uint64_t background = args.args.size() > 1 ? std::stoull(args.args[1]) : 0;
  AccelDevice dev(p.host);
  if (!dev.open()) {
    std::fprintf(stderr, "%s: %s\n", who, dev.error().c_str());
    return 2;
  }
  const uint64_t hart_slice = dev.info().tcdm_per_core / dev.info().harts_per_core;
  if (dma && 2 * block > hart_slice / 2) {
    std::fprintf(stderr, "%s: two %llu-byte buffers do not fit the lower half of a hart's %llu-byte TCDM slice\n", who,
                 static_cast<unsigned long long>(block), static_cast<unsigned long long>(hart_slice));
    return 2;
  }
  LoadedKernel k;
  if (!load_kernel_into(dev, dma ? AVP_KERNEL_DMA_COPY_ELF : AVP_KERNEL_STREAM_DIRECT_ELF, who, k)) return 2;
  const uint64_t bytes = kInstances * kBlocks * block;
  std::vector<uint64_t> src(bytes / 8), dst(bytes / 8, 0);
  for (size_t i = 0; i < src.size(); ++i) src[i] = i * 0x10001;
  const uint64_t src_at = dev.alloc(bytes), dst_at = dev.alloc(bytes);
  if (!src_at || !dst_at || !dev.write(src_at, src.data(), bytes) || !dev.write(dst_at, dst.data(), bytes)) {
    std::fprintf(stderr, "%s: cannot place the buffers in device memory\n", who);
    return 2;
  }
  std::vector<uint64_t> bg(background / 8);
  for (size_t i = 0; i < bg.size(); ++i) bg[i] = ~i;
  const uint64_t bg_src = background ? dev.alloc(background) : 0, bg_dst = background ? dev.alloc(background) : 0;
  if (background && (!bg_src || !bg_dst || !dev.write(bg_src, bg.data(), background))) {
    std::fprintf(stderr, "%s: cannot place the background copy's buffers in device memory\n", who);
    return 2;
  }
  const uint64_t dma_regs = background ? dev.read_address_map()[AVP_RANGE_DMA].base : 0;  // MMIO reads: only when needed
  const sc_core::sc_time t1 = sc_core::sc_time_stamp();
  CommandBuffer cb;
  append_kernel_setup(cb, k);
  if (background)
    cb.store_imm(static_cast<uint32_t>(dma_regs + AVP_DMASRCADDR), bg_src)
        .store_imm(static_cast<uint32_t>(dma_regs + AVP_DMADSTADDR), bg_dst)
        .store_imm(static_cast<uint32_t>(dma_regs + AVP_DMAXFERSIZE0), background)
        .store_imm(static_cast<uint32_t>(dma_regs + AVP_DMACTRL), AVP_DMACTRL_START | AVP_DMACTRL_DIMS(1));
  cb.run_instances(0, kInstances, {src_at, dst_at, block, kBlocks, dev.info().tcdm_base, hart_slice})
      .sync_cache(AVP_CMP_SYNC_DCACHE);
  if (background)  // waits for the copy: DMADONESEQ written with the id it got
    cb.load_reg(AVP_CMP_SCRATCH, dma_regs + AVP_DMASTARTSEQ).store_reg(AVP_CMP_SCRATCH, dma_regs + AVP_DMADONESEQ);
  cb.finish();
  if (const int rc = execute_and_wait(dev, cb, who)) return rc;
  const sc_core::sc_time t2 = sc_core::sc_time_stamp();
  if (!dev.read(dst_at, dst.data(), bytes)) return 2;
  size_t bad = 0;
  for (size_t i = 0; i < src.size(); ++i) bad += dst[i] != src[i] + 1;
  if (background) {
    std::vector<uint64_t> copied(bg.size());
    if (!dev.read(bg_dst, copied.data(), background)) return 2;
    for (size_t i = 0; i < bg.size(); ++i) bad += copied[i] != bg[i];
  }
  std::printf("%s: %llu bytes in %llu-byte blocks on %u harts: %s (%zu wrong words)\n", who,
              static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(block),
              dev.info().cores * dev.info().harts_per_core, bad ? "MISMATCH" : "results OK", bad);
  std::printf("%s: command buffer (submit to interrupt) %s\n", who, format_time(t2 - t1).c_str());
  return bad ? 1 : 0;
}

}  // namespace

void register_stream_examples() {
  const std::vector<WorkloadArg> args = {
      WorkloadArg::number("block", 8, 131072, 1024, "bytes per block (8 instances x 8 blocks)", 8),
      WorkloadArg::number("background", 0, 16 << 20, 0, "bytes of a DRAM-to-DRAM DMA copy running beside the kernel (0: none)",
                          8)};
  register_workload({"stream-dma", "add 1 to 64 KiB of DRAM words, blocks double-buffered through TCDM by the DMA device",
                     [](Platform& p, const WorkloadArgs& a) { return stream(p, a, true); }, args});
  register_workload({"stream-direct", "add 1 to 64 KiB of DRAM words, loaded and stored directly through the data cache",
                     [](Platform& p, const WorkloadArgs& a) { return stream(p, a, false); }, args});
}

}  // namespace avp
