// Command-processor and DMA figures: packets per second for register
// commands, kernel-launch latency broken down, DMA simulated bandwidth and
// wall-clock copy rate.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "cmdbuf.h"
#include "dma/dma_regs.h"
#include "base/elf_loader.h"
#include "kernel_loader.h"
#include "base/log.h"
#include "bench_results.h"
#include "platform/bench_runner.h"

using namespace avp;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void run_buffer(Platform& p, const CommandBuffer& cb, uint64_t at) {
  p.device_port.write_debug(at, cb.chunks().data(), cb.size_bytes());
  p.cmp.submit(at, cb.size_bytes());
  while (!p.cmp.idle()) sc_core::wait(p.cmp.idle_event());
}

// Host memcpy of `count` x `bytes` (the same amount as the DMA copy), GB/s.
double memcpy_rate(uint64_t bytes, uint64_t count) {
  std::vector<uint8_t> src(bytes, 0x5a), dst(count * bytes);
  const auto w0 = Clock::now();
  for (uint64_t i = 0; i < count; ++i) std::memcpy(dst.data() + i * bytes, src.data(), bytes);
  const double wall = seconds_since(w0);
  return dst[(count - 1) * bytes] == 0x5a ? count * bytes / wall / 1e9 : 0;
}

void bench(Platform& p) {
  BenchResults results;
  const uint64_t dram = p.dram_base();
  // 1. Register commands.
  CommandBuffer regs;
  const unsigned n = 200'000;
  for (unsigned i = 0; i < n; ++i) regs.write_reg(i % 8, i);
  regs.finish();
  sc_core::sc_time s0 = sc_core::sc_time_stamp();
  auto w0 = Clock::now();
  run_buffer(p, regs, dram + 0x100'0000);
  double wall = seconds_since(w0);
  double sim_ns = (sc_core::sc_time_stamp() - s0).to_seconds() * 1e9;
  std::printf("register commands: %u packets, %.0f packets/s (wall), %.2f ns/packet simulated\n", n, n / wall, sim_ns / n);
  results.add("cmp.register_packets", n / wall, "packets/s");

  // 2. Kernel launch: one instance of the vector-add kernel, then 64 on all harts.
  LoadedKernel k = load_kernel(AVP_KERNEL_ADD_ELF, dram + 0x10'0000, 0x10'0000,  // its data starts at +0x20'0000
                               [&](uint64_t a, const void* d, uint64_t len) { return p.device_port.write_debug(a, d, len); });
  for (unsigned instances : {1u, 64u}) {
    CommandBuffer cb;
    cb.window(0, k.link_base, k.dram, (k.size + 0xFFF) & ~0xFFFull, AVP_CMP_WIN_SHARED, 7)
        .write_reg(AVP_CMP_ENTRY_PT_FN, k.entry)
        .write_reg(AVP_CMP_RETURN_ADDR, p.base_of("tcim"))
        .write_reg(AVP_CMP_STACK_TOP, 0)  // each hart's own TCDM slice
        .run_instances(0, instances, {dram + 0x20'0000, dram + 0x20'0000, dram + 0x30'0000})
        .finish();
    s0 = sc_core::sc_time_stamp();
    run_buffer(p, cb, dram + 0x200'0000);
    sim_ns = (sc_core::sc_time_stamp() - s0).to_seconds() * 1e9;
    std::printf("kernel launch, %2u instance(s): buffer %.0f ns simulated = fetch %s + decode %s + execute %s per packet,"
                " launch %s per instance, kernel run, complete %s\n",
                instances, sim_ns, format_time(p.cmp.fetch_latency).c_str(), format_time(p.cmp.decode_latency).c_str(),
                format_time(p.cmp.execute_latency).c_str(), format_time(p.cmp.launch_latency).c_str(),
                format_time(p.cmp.complete_latency).c_str());
  }

  // 3. DMA: 64 x 1 MiB DRAM to DRAM on the host's register set, once
  // untimed first: the host's first touch of the simulated DRAM's pages
  // (page faults, zeroing) is not the model's speed.
  const uint64_t mib = 1 << 20, count = 64;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  auto reg = [&](uint64_t off, uint64_t v) { p.device_port.write(AVP_DMA_BASE + off, &v, 8, d); };
  auto copies = [&](uint64_t done_before) {
    for (uint64_t i = 0; i < count; ++i) {
      reg(AVP_DMASRCADDR, dram + 0x1000'0000);
      reg(AVP_DMADSTADDR, dram + 0x2000'0000 + i * mib);
      reg(AVP_DMAXFERSIZE0, mib);
      reg(AVP_DMACTRL, AVP_DMACTRL_START | AVP_DMACTRL_DIMS(1));
    }
    reg(AVP_DMADONESEQ, done_before + count);
  };
  copies(0);
  s0 = sc_core::sc_time_stamp();
  w0 = Clock::now();
  copies(count);
  wall = seconds_since(w0);
  const double sim_s = (sc_core::sc_time_stamp() - s0).to_seconds();
  std::printf("DMA: %llu x 1 MiB on %u channels at %.1f B/ns each: %.2f GB/s simulated, %.2f GB/s wall-clock copy rate\n",
              static_cast<unsigned long long>(count), p.dma.channels.get(), p.dma.bandwidth.get(),
              count * mib / sim_s / 1e9, count * mib / wall / 1e9);
  const double host = memcpy_rate(mib, count);
  std::printf("host memcpy of the same %llu x 1 MiB: %.2f GB/s\n", static_cast<unsigned long long>(count), host);
  results.add("dma.copy_wall", count * mib / wall / 1e9, "GB/s", "host memcpy", host);
}

}  // namespace

int sc_main(int, char**) { return run_platform_bench(bench); }
