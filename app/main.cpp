// accel-vp: command-line entry point.
#include <cstdlib>
#include <fstream>
#include <iostream>

#include <systemc>

#include "base/closest_name.h"
#include "base/log.h"
#include "base/params.h"
#include "cli.h"
#include "platform/config_files.h"
#include "platform/info.h"
#include "platform/platform.h"
#include "platform/session.h"
#include "platform/workload.h"
#include "workloads.h"

namespace avp {

const CLI::Validator kNonEmpty([](std::string& s) { return s.empty() ? std::string("an empty name") : std::string(); }, "NAME");

std::unique_ptr<Platform> make_platform(CliContext& ctx) {
  std::unique_ptr<Platform> p;
  make_platform(ctx, p, {});
  return p;
}

void make_platform(CliContext& ctx, std::unique_ptr<Platform>& p, const std::function<void(Platform&)>& extend) {
  install_log_handler();
  set_default_log_level(ctx.verbosity >= 3 ? Level::Trace : ctx.verbosity == 2 ? Level::Debug
                                           : ctx.verbosity == 1 ? Level::Info : Level::Warn);
  for (const auto& spec : ctx.log_specs) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos) throw ParamError("--log " + spec + ": expected module=level");
    set_log_level(spec.substr(0, eq), parse_level(spec.substr(eq + 1)));
  }
  ParamRegistry& reg = ParamRegistry::instance();
  reg.collect_errors();
  load_presets(ctx.session);
  try {
    p = std::make_unique<Platform>();
    if (extend) extend(*p);
  } catch (const ParamError& e) {
    // A derived value failed: report it with the presets it involves, after
    // the value errors collected so far (unknown names are not known yet).
    std::string all;
    for (const auto& earlier : reg.take_errors()) all += earlier + "\n";
    throw ParamError(all + reg.explain(e.what()));
  }
  reg.check_unused_presets();
  if (!ctx.dump_config.empty()) {
    std::ofstream f(ctx.dump_config);
    reg.write_yaml(f);
    if (!f.flush()) throw ParamError("--dump-config " + ctx.dump_config + ": cannot write the file");
  }
}

// After "argument was not expected": the options of the command line that a
// mistyped one most likely meant.
void suggest_options(CLI::App& app) {
  std::vector<std::string> names;
  std::vector<CLI::App*> apps{&app};
  for (CLI::App* sub : app.get_subcommands()) apps.push_back(sub);
  for (CLI::App* a : apps)
    for (const CLI::Option* o : a->get_options())
      for (const auto& l : o->get_lnames()) names.push_back("--" + l);
  for (std::string arg : app.remaining(true)) {
    if (arg.rfind("--", 0) != 0) continue;
    arg = arg.substr(0, arg.find('='));
    const std::string near = closest_name(arg, names);
    if (!near.empty()) std::cerr << arg << ": did you mean '" << near << "'?\n";
  }
}

// A shorthand option's setting of parameter `key` (--rtl-vcd, --timed-from).
// CLI11 stores the --set values before these options' callbacks run (its
// option is defined first), so a setting pushed here would override a --set
// of the same key unseen, wherever that stands on the command line: one that
// disagrees is a usage error naming both.
void set_by_shorthand(CliContext& ctx, const std::string& option, const std::string& key, const std::string& value) {
  const std::string set = key + "=" + value;
  for (const std::string& s : ctx.session.sets) {
    if (s == set) return;  // a --set of the same: errors name that
    if (s.rfind(key + "=", 0) == 0)
      throw CLI::ValidationError(option, "conflicts with --set " + s + " (it sets " + set + ")");
  }
  ctx.session.sets.push_back(set);
  ctx.session.set_origins[set] = option;  // what a parameter's error names
}

}  // namespace avp

int sc_main(int argc, char* argv[]) {
  using namespace avp;
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  // SystemC's own informational chatter ("Simulation stopped by user") is not for users.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  register_all_workloads();

  CliContext ctx;
  for (int i = 0; i < argc; ++i) ctx.session.command_line += (i ? " " : "") + std::string(argv[i]);
  CLI::App app{"accel-vp: SystemC/TLM-2.0 virtual platform of a PCIe-attached RISC-V accelerator"};
  app.fallthrough();
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", "accel-vp " + version_string() + " (" + sc_core::sc_version() + ")");
  std::string params_filter;
  app.add_option("-c,--config", ctx.session.config_file,
                 "configuration file (YAML), or the name of a shipped one: default, refsi-m1 (docs/refsidrv.md)")
      ->check(kNonEmpty)
      ->transform(CLI::Validator(
          [](std::string& name) {
            std::string searched;
            const std::string path = find_config_file(name, searched);
            if (path.empty()) return "no configuration file " + name + " (nor " + name + ".yaml) in " + searched;
            name = path;
            return std::string();
          },
          "", "config file"));
  app.add_option("-s,--set", ctx.session.sets, "override a parameter: name=value (repeatable)");
  auto* list_params = app.add_option("--list-params", params_filter,
                                     "list the parameters (those whose name contains FILTER) with value, default and description")
                           ->expected(0, 1)
                           ->type_name("[FILTER]");
  app.add_option("--dump-config", ctx.dump_config, "write the resolved configuration as YAML (read back by --config) into this file")
      ->check(kNonEmpty);
  app.add_flag("-v,--verbose", ctx.verbosity, "more log output (-v info, -vv debug, -vvv trace)");
  app.add_option("--log", ctx.log_specs, "log level per module prefix: module=error|warn|info|debug|trace");
  app.add_option("-o,--out", ctx.session.out_dir, "output directory for manifest, report and traces")->check(kNonEmpty);
  app.add_flag("!--no-progress", ctx.session.progress, "no progress line on stderr");
  app.add_option("--gdb", ctx.gdb_port, "wait for GDB on this TCP port (1..65535; 0: any free one) before running; harts are threads")
      ->check(CLI::Range(0, 65535));
  app.add_flag_callback("-g", [&ctx] { ctx.gdb_port = 1234; }, "shorthand for --gdb 1234 (QEMU's -s; -s is --set here)");
  app.add_flag("-S", ctx.gdb_wait_first,
               "with --gdb/-g: wait for GDB when the first hart is about to execute its first instruction (as QEMU's -S)");
  app.add_flag("--gdb-no-wait", ctx.gdb_no_wait,
               "with --gdb/-g: run at once; a debugger may attach at any time and stops the harts where they are "
               "(QEMU's -s without -S)");
  app.add_option("--timeline", ctx.session.timeline_file,
                 "record a timeline (Chrome trace-event JSON for Perfetto / chrome://tracing) into this file")
      ->check(kNonEmpty);
  app.add_option("--trace", ctx.session.trace,
                 "text trace of these categories: insn, mem, cmp, dma, pcie, aql (comma separated) or all");
  app.add_option("--trace-file", ctx.session.trace_file, "text trace file (default: <out>/trace.log)")->check(kNonEmpty);
  app.add_option("--trace-harts", ctx.session.trace_harts, "harts whose insn/mem events are traced, e.g. 0,3-5 (default: all)");
  app.add_option("--trace-window", ctx.session.trace_window,
                 "simulated-time window of the text trace, FROM:TO with units, e.g. 10us:25us (either side may be empty)");
  app.add_option("--vcd", ctx.session.vcd_file,
                 "record the device's interrupt lines (INTR bits, request, INTx, MSI) as a VCD into this file")
      ->check(kNonEmpty);
  app.add_option_function<std::string>(
      "--rtl-vcd", [&ctx](const std::string& f) { set_by_shorthand(ctx, "--rtl-vcd " + f, "cmp.rtl_vcd", f); },
      "record the RTL command decoder's pins as a VCD into this file (with --set cmp.decoder=rtl or lockstep)");
  app.add_option_function<std::string>(
      "--rtl-coverage",
      [&ctx](const std::string& f) { set_by_shorthand(ctx, "--rtl-coverage " + f, "cmp.rtl_coverage", f); },
      "write Verilator line/toggle coverage of the RTL command decoder into this .dat, and beside it (FILE.txt) the "
      "opcodes and error paths never exercised (with --set cmp.decoder=rtl or lockstep; a sweep merges its points)")
      ->check(kNonEmpty);
  app.add_option_function<std::string>(
         "--timed-from",
         [&ctx](const std::string& at) {
           set_by_shorthand(ctx, "--timed-from " + at, "harts.timing", "functional");
           set_by_shorthand(ctx, "--timed-from " + at, "harts.timed_from", at);
         },
         "run functional (no cache or memory timing) up to AT, then timed, as gem5's fast-forward: stats-reset "
         "(the program's statistics reset), insns:N (a hart's N-th instruction) or time:T; the caches start cold "
         "unless --set harts.warm_caches=true (docs/timing.md)")
      ->check(kNonEmpty);
  add_run_command(app, ctx);
  add_info_command(app, ctx);
  add_cmdbuf_command(app, ctx);
  add_sweep_command(app, ctx);
  add_boot_command(app, ctx);
  add_serve_commands(app, ctx);

  try {
    app.parse(argc, argv);
    if (list_params->count() || (!ctx.dump_config.empty() && app.get_subcommands().empty())) {
      std::unique_ptr<Platform> platform;
      if (app.get_subcommands().empty()) platform = make_platform(ctx);  // elaborate to know every parameter
      if (list_params->count()) print_params(std::cout, params_filter);
      return 0;
    }
    if (app.get_subcommands().empty()) {
      std::cout << app.help();
      return 0;
    }
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints the message (or the help)
    if (dynamic_cast<const CLI::ExtrasError*>(&e)) suggest_options(app);
    return code == 0 ? 0 : 2;      // every command-line error is a usage error
  } catch (const ParamError& e) {
    std::cerr << "accel-vp: configuration error:\n" << e.what() << "\n";
    return 2;
  }
  return ctx.exit_code;
}

// Our own main, so the SystemC banner can be switched off before the kernel starts.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
