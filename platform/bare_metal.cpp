#include "bare_metal.h"

#include <iostream>
#include <vector>

#include "debug/gdb_server.h"
#include "harts/elf_loader.h"
#include "platform.h"

namespace avp {

int run_bare_metal(Platform& p, const std::string& elf, unsigned n, GdbServer* gdb) {
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
    p.harts.start_bare_metal(h, l, [&, h](const HartExit& e) {
      exits[h] = e;
      if (++done == n) all_done.notify(sc_core::SC_ZERO_TIME);
    });
  }
  sc_core::wait(all_done);
  int code = 0;
  for (unsigned h = 0; h < n; ++h) {
    const HartExit& e = exits[h];
    const bool ok = e.kind == HartExitKind::Exit && e.code == 0;
    if (!ok) std::cerr << "accel-vp: hart " << h << " " << e.describe() << "\n";
    if (h == 0) code = e.kind == HartExitKind::Exit ? static_cast<int>(e.code & 0xFF) : 1;
    else if (!ok && code == 0) code = 1;
  }
  return code;
}

}  // namespace avp
