// Workload "acceldev-kernel [n [KERNEL.elf]]": a kernel launched from an
// Acceldev context. The kernel and its inputs go to device DRAM through BAR2;
// the RefSi command buffer that runs it lives in a context data buffer and a
// code buffer holds CMP_SUBMIT then FENCE; RUN, WAIT on the fence, check.
// The kernel takes (a, b, out) and computes out[i] = a[i] + b[i] (vecadd's).
#include <cstdio>
#include <string>
#include <vector>

#include "accel_device.h"
#include "acceldev_driver.h"
#include "kernel_loader.h"
#include "pcie/bar0_regs.h"
#include "platform/platform.h"
#include "platform/workload.h"

namespace avp {

static int acceldev_kernel(Platform& p, const WorkloadArgs& args) {
  uint32_t n = 1024;
  if (!arg_in(args, "acceldev-kernel", 1, 1u << 20, n)) return 2;
  if (args.args.size() > 2) {
    std::fprintf(stderr, "acceldev-kernel: expected [n [KERNEL.elf]], got %zu arguments\n", args.args.size());
    return 2;
  }
  const std::string elf = args.args.size() == 2 ? args.args[1] : AVP_KERNEL_ADD_ELF;
  AccelDevice dev(p.host);  // BAR2 access and the device-memory allocator
  AcceldevDriver drv(p.host);
  if (!dev.open() || !drv.start()) {
    std::fprintf(stderr, "acceldev-kernel: %s\n", dev.error().empty() ? "no Acceldev device" : dev.error().c_str());
    return 2;
  }
  LoadedKernel k;
  if (!load_kernel_into(dev, elf.c_str(), "acceldev-kernel", k)) return 2;
  std::vector<int32_t> a(n), b(n), out(n, -1);
  for (uint32_t i = 0; i < n; ++i) a[i] = static_cast<int32_t>(3 * i + 1), b[i] = static_cast<int32_t>(1000 - i);
  const uint64_t a_at = dev.alloc(4ull * n), b_at = dev.alloc(4ull * n), out_at = dev.alloc(4ull * n);
  if (!a_at || !b_at || !out_at || !dev.write(a_at, a.data(), 4ull * n) || !dev.write(b_at, b.data(), 4ull * n) ||
      !dev.write(out_at, out.data(), 4ull * n)) {
    std::fprintf(stderr, "acceldev-kernel: cannot place %u elements in device memory\n", n);
    return 2;
  }
  CommandBuffer cb;
  append_kernel_setup(cb, k).run_instances(0, n, {a_at, b_at, out_at}).sync_cache(AVP_CMP_SYNC_DCACHE).finish();

  auto ctx = drv.open_context();
  const int cmdbuf = ctx->create_buffer(AcceldevContext::Kind::Data, cb.size_bytes());
  const int code = ctx->create_buffer(AcceldevContext::Kind::Code, 4096);
  ctx->write(cmdbuf, 0, cb.chunks().data(), cb.size_bytes());
  uint32_t cmds[2][5] = {{}, {ACCELDEV_USER_CMD_TYPE_FENCE, 0, 0, 0, 0}};
  encode_cmp_submit(cmds[0], static_cast<unsigned>(ctx->slot(cmdbuf)), 0, static_cast<uint32_t>(cb.size_bytes()));
  ctx->write(code, 0, cmds, sizeof cmds);
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  const bool ok = ctx->run(code, 0, sizeof cmds) && ctx->wait(1);
  const sc_core::sc_time t1 = sc_core::sc_time_stamp();
  if (!ok) {
    std::fprintf(stderr, "acceldev-kernel: context %u in error (CMP error code %u at offset 0x%x)\n", ctx->id(),
                 p.host.mmio_read32(AVP_CMP_ERR_CODE), p.host.mmio_read32(AVP_CMP_ERR_OFFSET));
    return 1;
  }
  if (!dev.read(out_at, out.data(), 4ull * n)) return 2;
  unsigned bad = 0;
  for (uint32_t i = 0; i < n; ++i) bad += out[i] != a[i] + b[i];
  std::printf("acceldev-kernel: %u elements from context %u (CMP_SUBMIT of %llu bytes, fence): %s in %s\n", n,
              ctx->id(), static_cast<unsigned long long>(cb.size_bytes()), bad ? "MISMATCH" : "results OK",
              format_time(t1 - t0).c_str());
  ctx->close();
  return bad ? 1 : 0;
}

void register_acceldev_kernel_example() {
  register_workload({"acceldev-kernel", "Acceldev context: RUN a CMP_SUBMIT of a kernel's command buffer, wait on a fence, check",
                     acceldev_kernel,
                     {WorkloadArg::number("n", 1, 1u << 20, 1024, "elements per vector (one kernel instance each)"),
                      WorkloadArg::path("kernel", "the SDK's kernel_add", "kernel ELF taking (a, b, out) like kernel_add")}});
}

}  // namespace avp
