// ISS speed on the default platform: a pure integer loop (5 instructions per
// iteration: addi, add, xor, slli, bne) run from DRAM on one hart, then on
// every hart at once. Prints MIPS (retired instructions / CPU seconds of the
// simulation, elaboration excluded: CPU time, so a loaded machine does not
// inflate it). Usage: bench_iss_mips [iterations]
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <systemc>

#include "base/log.h"
#include "bench_results.h"
#include "base/text_trace.h"
#include "harts/insn_tracer.h"
#include "platform/platform.h"

using namespace avp;

namespace {

// mv t0, a1; 1: addi t0, t0, -1; add t1, t1, t0; xor t2, t2, t1; slli t3, t2, 1;
// bnez t0, 1b; li a0, 0; li a7, 0; ecall (exit 0)
const uint32_t kLoop[] = {0x00058293, 0xfff28293, 0x00530333, 0x0063c3b3, 0x00139e13,
                          0xfe0298e3, 0x00000513, 0x00000893, 0x00000073};

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double run(Platform& p, unsigned harts, uint64_t iterations, uint64_t entry, uint64_t& instructions) {
  unsigned done = 0;
  sc_core::sc_event all_done;
  instructions = 0;
  const double t0 = cpu_seconds();
  for (unsigned h = 0; h < harts; ++h) {
    HartLaunch l;
    l.pc = entry;
    l.a[0] = h;
    l.a[1] = iterations;
    p.harts.start_bare_metal(h, l, [&](const HartExit& e) {
      if (e.kind != HartExitKind::Exit || e.code != 0) std::fprintf(stderr, "hart: %s\n", e.describe().c_str());
      instructions += e.instructions;
      if (++done == harts) all_done.notify(sc_core::SC_ZERO_TIME);
    });
  }
  sc_core::wait(all_done);
  return cpu_seconds() - t0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  install_log_handler();
  const uint64_t iterations = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 20'000'000;
  Platform p;
  BenchResults results;
  sc_core::sc_spawn([&] {
    const uint64_t entry = p.dram_base() + 0x1000;
    if (!p.device_port.write_debug(entry, kLoop, sizeof(kLoop))) {
      std::fprintf(stderr, "bench_iss_mips: cannot place the loop at 0x%llx\n", static_cast<unsigned long long>(entry));
      sc_core::sc_stop();
      return;
    }
    double mips1 = 0;
    for (unsigned harts : {1u, p.num_harts()}) {
      uint64_t n = 0;
      const double s = run(p, harts, iterations, entry, n);
      const double mips = n / s / 1e6;
      std::printf("iss integer loop: %u hart(s), %llu instructions in %.3f s: %.1f MIPS aggregate, %.1f MIPS per hart\n",
                  harts, static_cast<unsigned long long>(n), s, mips, mips / harts);
      // One hart: absolute (its QEMU ratio is bench/riscv's iss.loop.1h); all harts: against one.
      if (harts == 1) results.add("iss.loop_cpp.1h", mips1 = mips, "MIPS");
      else results.add("iss.loop_cpp.all_harts", mips, "MIPS", "iss.loop_cpp.1h", mips1);
    }
    // The same loop on one hart while the text trace records every instruction
    // (insn) or every instruction and access (insn,mem) into a file.
    for (const char* cats : {"insn", "insn,mem"}) {
      TextTraceOptions opt;
      opt.categories = parse_trace_categories(cats);
      const std::string path = "bench_iss_trace.log";
      TextTrace::instance().open(path, opt);
      uint64_t n = 0;
      double s = 0;
      {
        InsnTracer tracer(p.harts);
        s = run(p, 1, iterations / 20, entry, n);
      }
      const uint64_t lines = TextTrace::instance().lines();
      TextTrace::instance().close();
      std::remove(path.c_str());
      std::printf("iss integer loop traced (--trace %s): 1 hart, %llu instructions, %llu lines in %.3f s: %.2f MIPS\n",
                  cats, static_cast<unsigned long long>(n), static_cast<unsigned long long>(lines), s, n / s / 1e6);
      results.add(std::string("iss.loop_traced.") + (std::string(cats) == "insn" ? "insn" : "insn_mem"), n / s / 1e6,
                  "MIPS", "iss.loop_cpp.1h", mips1);
    }
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  return 0;
}
