// The host-bridge benchmark's operations from the simulator's own host thread
// (the baseline for bench_bridge_client): BAR0 MMIO read, BAR2 copy, RUN + WAIT
// of an empty Acceldev command, each timed in wall and simulated time.
#include <chrono>
#include <cstdio>
#include <vector>

#include "acceldev_driver.h"
#include "platform/bench_runner.h"
#include "pcie/bar0_regs.h"

using namespace avp;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void bench(Platform& p) {
  p.host.cfg_write32(0x04, 0x0006);
  const unsigned reads = 20000;
  uint32_t sink = 0;
  sc_core::sc_time s0 = sc_core::sc_time_stamp();
  auto w0 = Clock::now();
  for (unsigned i = 0; i < reads; ++i) sink ^= p.host.mmio_read32(AVP_INFO_MAGIC);
  double wall = since(w0);
  std::printf("in-simulator: BAR0 MMIO read round trip %.2f us wall, %.1f ns simulated per read (%u reads, 0x%x)\n",
              wall * 1e6 / reads, (sc_core::sc_time_stamp() - s0).to_seconds() * 1e9 / reads, reads, sink);

  const uint64_t bytes = 16u << 20;
  std::vector<uint8_t> buf(bytes, 0x5A);
  p.host.bar2_write(0, buf.data(), bytes);  // warm: the first copy also pays for touching the memory's pages
  s0 = sc_core::sc_time_stamp();
  w0 = Clock::now();
  p.host.bar2_write(0, buf.data(), bytes);
  wall = since(w0);
  std::printf("in-simulator: BAR2 host-to-device copy %.0f MB/s wall, %.2f GB/s simulated (%llu MiB, warm)\n", bytes / wall / 1e6,
              bytes / (sc_core::sc_time_stamp() - s0).to_seconds() / 1e9, static_cast<unsigned long long>(bytes >> 20));
  w0 = Clock::now();
  p.host.bar2_read(0, buf.data(), bytes);
  std::printf("in-simulator: BAR2 device-to-host copy %.0f MB/s wall\n", bytes / since(w0) / 1e6);

  AcceldevDriver drv(p.host);
  drv.start();
  auto ctx = drv.open_context();
  const int code = ctx->create_buffer(AcceldevContext::Kind::Code, 4096);
  const uint32_t fence[5] = {ACCELDEV_USER_CMD_TYPE_FENCE, 0, 0, 0, 0};
  ctx->write(code, 0, fence, sizeof fence);
  const unsigned runs = 2000;
  s0 = sc_core::sc_time_stamp();
  w0 = Clock::now();
  for (unsigned i = 1; i <= runs; ++i) {
    if (!ctx->run(code, 0, sizeof fence) || !ctx->wait(i)) return;
  }
  wall = since(w0);
  std::printf("in-simulator: Acceldev RUN+WAIT of an empty command %.2f us wall, %.2f us simulated (%u runs)\n",
              wall * 1e6 / runs, (sc_core::sc_time_stamp() - s0).to_seconds() * 1e6 / runs, runs);
}

}  // namespace

int sc_main(int, char**) { return run_platform_bench(bench); }
