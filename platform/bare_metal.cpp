#include "platform/bare_metal.h"

#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "debug/gdb_server.h"
#include "base/elf_loader.h"
#include "platform/platform.h"

namespace avp {
namespace {

// "1-5,7": the harts after the first, runs of consecutive ids folded.
std::string hart_list(const std::vector<unsigned>& harts) {
  std::string s;
  for (size_t i = 1; i < harts.size();) {
    size_t j = i;
    while (j + 1 < harts.size() && harts[j + 1] == harts[j] + 1) ++j;
    if (!s.empty()) s += ",";
    s += std::to_string(harts[i]);
    if (j > i) s += "-" + std::to_string(harts[j]);
    i = j + 1;
  }
  return s;
}

}  // namespace

int run_bare_metal(Platform& p, const std::string& elf, unsigned n, uint64_t max_insns, GdbServer* gdb) {
  ElfImage img;
  try {
    img = load_elf(elf, [&](uint64_t a, const void* d, uint64_t len) { return p.device_port.write_debug(a, d, len); });
  } catch (const ElfError& e) {
    std::cerr << "accel-vp: " << e.what() << "\n";
    return 2;
  }
  register_symbols(img);
  // The debugger connects when the first hart is about to run the entry:
  // registers set up, pc at the ELF entry (as QEMU's -S).
  if (gdb) gdb->attach_at_first_instruction();
  const unsigned hpc = p.harts_per_core.get();
  const uint64_t slice = p.tcdm_slice.get() / hpc;
  std::vector<HartExit> exits(n);
  unsigned done = 0;
  sc_core::sc_event all_done;
  for (unsigned h = 0; h < n; ++h) {
    HartLaunch l;
    l.pc = img.entry;
    l.a[0] = h;
    l.sp = p.tcdm_global_base() + (h / hpc) * p.tcdm_slice.get() + (h % hpc + 1) * slice;
    l.launch_id = 0;
    l.instruction_limit = max_insns ? max_insns : ~0ull;  // harts.instruction_limit bounds the CMP's kernels only
    l.limit_name = "--max-insns";
    p.harts.start_bare_metal(h, l, [&, h](const HartExit& e) {
      exits[h] = e;
      if (++done == n) all_done.notify(sc_core::SC_ZERO_TIME);
    });
  }
  sc_core::wait(all_done);
  int code = 0;
  // Harts that ended the same way (kind, code, cause, pc, tval) share one line.
  std::map<std::tuple<int, uint64_t, uint64_t, uint64_t, uint64_t>, std::vector<unsigned>> endings;
  for (unsigned h = 0; h < n; ++h) {
    const HartExit& e = exits[h];
    const bool ok = e.kind == HartExitKind::Exit && e.code == 0;
    if (!ok) endings[{static_cast<int>(e.kind), e.code, e.cause, e.pc, e.tval}].push_back(h);
    if (h == 0) code = e.kind == HartExitKind::Exit ? static_cast<int>(e.code & 0xFF) : 1;
    else if (!ok && code == 0) code = 1;
  }
  for (const auto& [how, harts] : endings) {
    std::cerr << "accel-vp: hart " << harts[0] << " " << exits[harts[0]].describe();
    if (harts.size() > 1) std::cerr << "; " << harts.size() - 1 << " more harts ended the same way (" << hart_list(harts) << ")";
    std::cerr << "\n";
  }
  return code;
}

}  // namespace avp
