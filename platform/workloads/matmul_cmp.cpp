// Workload "matmul": C = A x B for n x n matrices of doubles (default n = 32,
// `--args N`), one output row per kernel instance (RUN_INSTANCES), on the
// whole host-to-device path like vecadd. The inputs are small integers, so
// every product and sum is exact and the host checks C bit for bit.
#include <cstdio>
#include <string>
#include <vector>

#include "accel_device.h"
#include "kernel_loader.h"
#include "platform/platform.h"
#include "platform/workload.h"

namespace avp {

static int matmul(Platform& p, const WorkloadArgs& args) {
  unsigned long n = 32;
  if (!args.args.empty()) {
    const std::string& s = args.args[0];
    if (s.empty() || s.size() > 4 || s.find_first_not_of("0123456789") != std::string::npos || (n = std::stoul(s)) == 0 ||
        n > 256) {
      std::fprintf(stderr, "matmul: matrix size '%s': expected 1..256\n", s.c_str());
      return 2;
    }
  }
  AccelDevice dev(p.host);
  if (!dev.open()) {
    std::fprintf(stderr, "matmul: %s\n", dev.error().c_str());
    return 2;
  }
  LoadedKernel k;
  if (!load_kernel_into(dev, AVP_KERNEL_MATMUL_ELF, "matmul", k)) return 2;
  const uint64_t bytes = 8 * n * n;
  std::vector<double> a(n * n), b(n * n), c(n * n, -1);
  for (unsigned i = 0; i < n * n; ++i) a[i] = static_cast<double>(i % 7) - 3, b[i] = static_cast<double>(i % 5) + 1;
  const uint64_t a_at = dev.alloc(bytes), b_at = dev.alloc(bytes), c_at = dev.alloc(bytes);
  if (!a_at || !b_at || !c_at || !dev.write(a_at, a.data(), bytes) || !dev.write(b_at, b.data(), bytes)) {
    std::fprintf(stderr, "matmul: cannot place the matrices in device memory\n");
    return 2;
  }
  const sc_core::sc_time t1 = sc_core::sc_time_stamp();
  CommandBuffer cb;
  append_kernel_setup(cb, k).run_instances(0, n, {a_at, b_at, c_at, n}).sync_cache(AVP_CMP_SYNC_DCACHE).finish();
  if (const int rc = execute_and_wait(dev, cb, "matmul")) return rc;
  const sc_core::sc_time t2 = sc_core::sc_time_stamp();
  if (!dev.read(c_at, c.data(), bytes)) return 2;
  unsigned long bad = 0;
  for (unsigned long i = 0; i < n; ++i)
    for (unsigned long j = 0; j < n; ++j) {
      double sum = 0;
      for (unsigned long x = 0; x < n; ++x) sum += a[i * n + x] * b[x * n + j];
      bad += c[i * n + j] != sum;
    }
  std::printf("matmul: %lux%lu on %u harts: %s (%lu wrong elements)\n", n, n, dev.info().cores * dev.info().harts_per_core,
              bad ? "MISMATCH" : "results OK", bad);
  std::printf("matmul: command buffer (submit to interrupt) %s\n", format_time(t2 - t1).c_str());
  return bad ? 1 : 0;
}

void register_matmul_example() {
  register_workload({"matmul", "matrix multiply of doubles, one row per kernel instance, checked on the host", matmul,
                     {WorkloadArg::number("n", 1, 256, 32, "rows and columns of the square matrices")}});
}

}  // namespace avp
