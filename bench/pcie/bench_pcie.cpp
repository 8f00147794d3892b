// PCIe figures: MMIO round trip (simulated and wall time per access), FILL
// bandwidth over the link, host-to-device copy bandwidth against the link's
// theoretical maximum.
#include <chrono>
#include <cstdio>
#include <vector>

#include "accel_device.h"
#include "acceldev_driver.h"
#include "pcie/bar0_regs.h"
#include "bench_results.h"
#include "platform/bench_runner.h"

using namespace avp;
using Clock = std::chrono::steady_clock;

namespace {

void bench(Platform& p) {
  BenchResults results;
  // 1. MMIO round trip: BAR0 reads.
  p.host.cfg_write32(0x04, 0x0006);  // memory space, bus master
  const unsigned reads = 100'000;
  sc_core::sc_time s0 = sc_core::sc_time_stamp();
  auto w0 = Clock::now();
  uint32_t sink = 0;
  for (unsigned i = 0; i < reads; ++i) sink ^= p.host.mmio_read32(AVP_INFO_MAGIC);
  double wall = std::chrono::duration<double>(Clock::now() - w0).count();
  std::printf("MMIO read round trip: %.1f ns simulated, %.0f ns wall per access (%u reads, gen %u x%u, magic 0x%x)\n",
              (sc_core::sc_time_stamp() - s0).to_seconds() * 1e9 / reads, wall * 1e9 / reads, reads,
              p.link.generation.get(), p.link.lanes.get(), sink);
  results.add("pcie.mmio_read_wall", wall * 1e9 / reads, "ns", false);

  // 2. Host-to-device copy through BAR2.
  AccelDevice dev(p.host);
  dev.open();
  const uint64_t bytes = 64ull << 20;
  std::vector<uint8_t> buf(bytes, 0x5A);
  const uint64_t at = dev.alloc(bytes);
  s0 = sc_core::sc_time_stamp();
  dev.write(at, buf.data(), bytes);
  double sim = (sc_core::sc_time_stamp() - s0).to_seconds();
  std::printf("host-to-device copy (BAR2, %llu MiB): %.2f GB/s simulated; link maximum %.2f GB/s raw, %.2f GB/s with "
              "%u-byte TLPs\n",
              static_cast<unsigned long long>(bytes >> 20), bytes / sim / 1e9, p.link.bytes_per_ns(),
              p.link.max_payload.get() * p.link.bytes_per_ns() / (p.link.max_payload.get() + p.link.tlp_overhead.get()),
              p.link.max_payload.get());

  // 3. Acceldev FILL of a 4 MiB buffer in host memory over the link.
  AcceldevDriver drv(p.host);
  drv.start();
  auto ctx = drv.open_context();
  const int data = ctx->create_buffer(AcceldevContext::Kind::Data, 4 << 20);
  const int code = ctx->create_buffer(AcceldevContext::Kind::Code, 4096);
  const uint32_t cmds[2][5] = {{ACCELDEV_USER_CMD_TYPE_FILL, 7, static_cast<uint32_t>(ctx->slot(data)), 0, 4u << 20},
                               {ACCELDEV_USER_CMD_TYPE_FENCE, 0, 0, 0, 0}};
  ctx->write(code, 0, cmds, sizeof cmds);
  s0 = sc_core::sc_time_stamp();
  if (!ctx->run(code, 0, sizeof cmds) || !ctx->wait(1)) std::printf("Acceldev FILL failed\n");
  sim = (sc_core::sc_time_stamp() - s0).to_seconds();
  std::printf("Acceldev FILL of 4 MiB: %.2f GB/s simulated (engine %.1f B/ns, page walks and writes over the link)\n",
              (4 << 20) / sim / 1e9, p.acceldev->fill_bandwidth.get());
}

}  // namespace

int sc_main(int, char**) { return run_platform_bench(bench); }
