// Workload "acceldev": the Acceldev programming model through the host
// driver: a context with a data buffer and a code buffer of user commands
// (FILL, FENCE), RUN, WAIT on the fence, then the data is checked.
#include <cstdio>
#include <vector>

#include "acceldev_driver.h"
#include "pcie/bar0_regs.h"
#include "platform/platform.h"
#include "platform/workload.h"

namespace avp {

static int acceldev_fill(Platform& p, const WorkloadArgs&) {
  AcceldevDriver drv(p.host);
  if (!drv.start()) {
    std::fprintf(stderr, "acceldev: no Acceldev device\n");
    return 2;
  }
  auto ctx = drv.open_context();
  const uint64_t size = 256 * 1024;
  const int data = ctx->create_buffer(AcceldevContext::Kind::Data, size);
  const int code = ctx->create_buffer(AcceldevContext::Kind::Code, 4096);
  const uint32_t cmds[][5] = {
      {ACCELDEV_USER_CMD_TYPE_FILL, 0xA1B2C3D4u, static_cast<uint32_t>(ctx->slot(data)), 0, static_cast<uint32_t>(size)},
      {ACCELDEV_USER_CMD_TYPE_FENCE, 0, 0, 0, 0},
      {ACCELDEV_USER_CMD_TYPE_FILL, 0x11223344u, static_cast<uint32_t>(ctx->slot(data)), 4097, 10},
      {ACCELDEV_USER_CMD_TYPE_FENCE, 0, 0, 0, 0},
  };
  ctx->write(code, 0, cmds, sizeof cmds);
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  const bool ok = ctx->run(code, 0, sizeof cmds) && ctx->wait(2);
  const sc_core::sc_time t1 = sc_core::sc_time_stamp();
  std::vector<uint8_t> bytes(size);
  ctx->read(data, 0, bytes.data(), size);
  unsigned bad = 0;
  for (uint64_t k = 0; k < size; ++k) {
    const uint32_t v = (k >= 4097 && k < 4107) ? 0x11223344u : 0xA1B2C3D4u;
    bad += bytes[k] != static_cast<uint8_t>(v >> (8 * (k % 4)));
  }
  std::printf("acceldev: FILL of %llu bytes + patch, fences: %s in %s (%.2f GB/s over the link)\n",
              static_cast<unsigned long long>(size), ok && !bad ? "OK" : "FAILED", format_time(t1 - t0).c_str(),
              size / ((t1 - t0).to_seconds() * 1e9));
  ctx->close();
  return ok && !bad ? 0 : 1;
}

void register_acceldev_kernel_example();  // acceldev_kernel.cpp

void register_acceldev_examples() {
  register_acceldev_kernel_example();
  register_workload({"acceldev", "Acceldev context: FILL a paged host buffer with user commands and wait on a fence", acceldev_fill, {}});
}

}  // namespace avp
