// Workload "vecadd": the RefSi flow on the command processor. The host loads
// the kernel into DRAM, maps it with a memory window at its link address,
// writes the inputs, runs a command buffer (window, SYNC_CACHE, entry/return
// registers, RUN_INSTANCES, SYNC_CACHE, FINISH) and checks the result.
#include <cstdio>
#include <vector>

#include "harts/elf_loader.h"
#include "kernel_loader.h"
#include "platform.h"
#include "workload.h"

namespace avp {

static int vecadd(Platform& p, const WorkloadArgs& args) {
  const unsigned n = args.args.empty() ? 256 : static_cast<unsigned>(std::stoul(args.args[0]));
  const uint64_t dram = p.dram_base();
  const uint64_t kernel_at = dram + 0x10'0000, a_at = dram + 0x20'0000, b_at = a_at + 4 * n, out_at = b_at + 4 * n;
  const uint64_t cb_at = dram + 0x30'0000;
  LoadedKernel k;
  try {
    k = load_kernel(p, AVP_KERNEL_ADD_ELF, kernel_at);
  } catch (const ElfError& e) {
    std::fprintf(stderr, "vecadd: %s\n", e.what());
    return 2;
  }
  std::vector<int32_t> a(n), b(n), out(n, -1);
  for (unsigned i = 0; i < n; ++i) a[i] = static_cast<int32_t>(3 * i + 1), b[i] = static_cast<int32_t>(1000 - i);
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  if (!host_write(p, a_at, a.data(), 4 * n) || !host_write(p, b_at, b.data(), 4 * n)) return 2;
  const sc_core::sc_time t1 = sc_core::sc_time_stamp();

  CommandBuffer cb;
  cb.window(0, k.link_base, k.dram, (k.size + 0xFFF) & ~0xFFFull, AVP_CMP_WIN_SHARED, 7)
      .sync_cache(AVP_CMP_SYNC_ICACHE)
      .write_reg(AVP_CMP_ENTRY_PT_FN, k.entry)
      .write_reg(AVP_CMP_RETURN_ADDR, 0x1000)
      .write_reg(AVP_CMP_STACK_TOP, 0)
      .run_instances(0, n, {a_at, b_at, out_at})
      .sync_cache(AVP_CMP_SYNC_DCACHE)
      .finish();
  const unsigned err = run_command_buffer(p, cb, cb_at);
  const sc_core::sc_time t2 = sc_core::sc_time_stamp();
  if (err) {
    std::fprintf(stderr, "vecadd: command buffer failed: error %u (%s)\n", err, cmp_error_name(err));
    return 1;
  }
  if (!host_read(p, out_at, out.data(), 4 * n)) return 2;
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i) bad += out[i] != a[i] + b[i];
  std::printf("vecadd: %u elements on %u harts: %s\n", n, p.num_harts(), bad ? "MISMATCH" : "results OK");
  std::printf("vecadd: copy-in %s, command buffer %s, copy-out %s\n", format_time(t1 - t0).c_str(),
              format_time(t2 - t1).c_str(), format_time(sc_core::sc_time_stamp() - t2).c_str());
  return bad ? 1 : 0;
}

void register_cmp_examples() {
  register_workload({"vecadd", "vector add on the harts through a command buffer (window, RUN_INSTANCES)", vecadd});
}

}  // namespace avp
