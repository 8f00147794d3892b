// `accel-vp run [WORKLOAD] [-- ARGS...]`: runs a named workload (the default
// scenario when none is named) and writes the manifest and summary.
#include <iostream>

#include "cli.h"
#include "platform/bare_metal.h"
#include "cli_gdb.h"
#include "platform/platform.h"
#include "platform/workload.h"
#include "workloads.h"

namespace avp {

void add_run_command(CLI::App& app, CliContext& ctx) {
  auto* cmd = app.add_subcommand("run", "run a workload (default: the default scenario)");
  auto workload = std::make_shared<std::string>(kDefaultWorkload);
  auto args = std::make_shared<std::vector<std::string>>();
  auto list = std::make_shared<bool>(false);
  auto elf = std::make_shared<std::string>();
  auto harts = std::make_shared<unsigned>(1);
  auto* workload_opt = cmd->add_option("workload", *workload, "workload name (see --list)");
  cmd->add_flag("--list", *list, "list the workloads and exit");
  cmd->add_option("--args", *args, "arguments passed to the workload")->expected(0, -1);
  cmd->add_option("--elf", *elf, "run a bare-metal RISC-V ELF program on the harts instead of a workload")
      ->check(kNonEmpty)
      ->excludes(workload_opt);
  cmd->add_option("--harts", *harts, "harts that run the --elf program (default 1)");
  auto max_insns = std::make_shared<uint64_t>(0);
  cmd->add_option("--max-insns", *max_insns,
                  "stop each hart of the --elf program after this many instructions (default: no limit, the "
                  "program runs until it exits, Ctrl-C or platform.time_limit)");
  auto uart = std::make_shared<std::string>();
  cmd->add_option("--uart", *uart,
                  "connect the UART for an --elf program: stdio (input from stdin), tcp:PORT or pty "
                  "(default: its output to stdout, no input)")
      ->check(kNonEmpty);
  cmd->callback([&ctx, workload, args, list, elf, harts, uart, max_insns] {
    if (!uart->empty() && elf->empty()) {
      std::cerr << "accel-vp: --uart needs --elf (workloads do not use the UART)\n";
      ctx.exit_code = 2;
      return;
    }
    if (*max_insns && elf->empty()) {
      std::cerr << "accel-vp: --max-insns needs --elf (workloads' kernels are bounded by harts.instruction_limit)\n";
      ctx.exit_code = 2;
      return;
    }
    if (!elf->empty()) {
      auto platform = make_platform(ctx);
      if (*harts == 0 || *harts > platform->num_harts()) {
        std::cerr << "accel-vp: --harts " << *harts << ": the platform has " << platform->num_harts() << " harts\n";
        ctx.exit_code = 2;
        return;
      }
      if (!uart->empty()) {
        try {
          platform->uart.connect(*uart);
        } catch (const std::exception& e) {
          std::cerr << "accel-vp: " << e.what() << "\n";
          ctx.exit_code = 2;
          return;
        }
        if (*uart != "stdio") std::cerr << "accel-vp: UART on " << platform->uart.backend().description() << "\n";
      }
      ctx.session.uart_on_stdio = uart->empty() || *uart == "stdio";  // its output goes to stdout at least
      std::unique_ptr<GdbServer> gdb = make_gdb_server(ctx, *platform, *harts);
      if (gdb) ctx.session.between_chunks = [g = gdb.get()] { g->poll_attach(); };
      RunResult r = run_session(*platform, ctx.session, "elf:" + *elf, [&](Platform& p) {
        const int code = run_bare_metal(p, *elf, *harts, *max_insns, gdb.get());
        if (gdb) gdb->finish(code);
        return code;
      });
      ctx.exit_code = r.exit_code;
      return;
    }
    if (*list) {
      for (const Workload* w : all_workloads()) {
        std::cout << w->name << "\t" << w->description << "\n";
        for (const auto& line : describe_workload_args(*w)) std::cout << "    " << line << "\n";
      }
      return;
    }
    const Workload* w = find_workload(*workload);
    if (!w) {
      std::cerr << "accel-vp: unknown workload '" << *workload << "' (accel-vp run --list shows them)\n";
      ctx.exit_code = 2;
      return;
    }
    if (const std::string bad = check_workload_args(*w, *args); !bad.empty()) {
      std::cerr << "accel-vp: " << bad << " (accel-vp run --list describes the arguments)\n";
      ctx.exit_code = 2;
      return;
    }
    auto platform = make_platform(ctx);
    WorkloadArgs wa{*args};
    std::unique_ptr<GdbServer> gdb = make_gdb_server(ctx, *platform);
    if (gdb) ctx.session.between_chunks = [g = gdb.get()] { g->poll_attach(); };
    RunResult r = run_session(*platform, ctx.session, w->name, [&](Platform& p) {
      if (gdb) gdb->attach();
      const int code = w->run(p, wa);
      if (gdb) gdb->finish(code);
      return code;
    });
    ctx.exit_code = r.exit_code;
  });
}

}  // namespace avp
