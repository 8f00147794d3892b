#include "session.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <systemc>

#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "base/text_trace.h"
#include "base/trace.h"
#include "harts/insn_tracer.h"
#include "base/vcd.h"
#include "manifest.h"
#include "output_paths.h"
#include "platform.h"
#include "run_report.h"
#include "version.h"

namespace avp {

std::string version_string() { return AVP_VERSION; }

uint64_t fnv1a64(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

void load_presets(const SessionOptions& opt) {
  ParamRegistry& reg = ParamRegistry::instance();
  if (!opt.config_file.empty()) reg.load_yaml_file(opt.config_file);
  for (const auto& s : opt.sets) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw ParamError("--set " + s + ": expected name=value");
    reg.add_preset(s.substr(0, eq), s.substr(eq + 1), "--set " + s);
  }
}

namespace {

using Clock = std::chrono::steady_clock;

// Prints simulated time, wall time and speed on stderr every second once a run
// has taken a few seconds. Ends itself when nothing else is pending, so a
// starved simulation still stops.
void progress_thread(Clock::time_point start) {
  const sc_core::sc_time step = tlm::tlm_global_quantum::instance().get() * 10;
  auto last = start;
  bool printed = false;
  for (;;) {
    sc_core::wait(step);
    if (!sc_core::sc_pending_activity()) break;
    auto now = Clock::now();
    double wall = std::chrono::duration<double>(now - start).count();
    if (wall > 3.0 && std::chrono::duration<double>(now - last).count() >= 1.0) {
      double sim = sc_core::sc_time_stamp().to_seconds();
      std::fprintf(stderr, "\r[accel-vp] simulated %s  wall %.1f s  %.3g sim-s/s   ",
                   format_time(sc_core::sc_time_stamp()).c_str(), wall, sim / wall);
      last = now;
      printed = true;
    }
  }
  if (printed) std::fprintf(stderr, "\n");
}

// Opens the text trace the options ask for and attaches the instruction tracer
// to the selected harts. Bad options throw ParamError.
std::unique_ptr<InsnTracer> start_text_trace(Platform& platform, const SessionOptions& opt) {
  if (opt.trace.empty()) {
    for (const auto& [flag, value] : {std::pair<const char*, const std::string*>{"--trace-file", &opt.trace_file},
                                      {"--trace-harts", &opt.trace_harts}, {"--trace-window", &opt.trace_window}})
      if (!value->empty()) throw ParamError(std::string(flag) + " needs --trace CATEGORIES (e.g. --trace insn,mem)");
    return nullptr;
  }
  TextTraceOptions t;
  t.categories = parse_trace_categories(opt.trace);
  if (!opt.trace_harts.empty()) t.harts = parse_trace_harts(opt.trace_harts);
  if (t.harts.size() > platform.num_harts())
    throw ParamError("--trace-harts " + opt.trace_harts + ": hart " + std::to_string(t.harts.size() - 1) +
                     " does not exist (the platform has " + std::to_string(platform.num_harts()) + " harts)");
  if (!opt.trace_window.empty()) parse_trace_window(opt.trace_window, t);
  TextTrace::instance().open(opt.trace_file.empty() ? opt.out_dir + "/trace.log" : opt.trace_file, t);
  return std::make_unique<InsnTracer>(platform.harts);
}

// The co-simulation checker's statistics (cmp.decoder=lockstep) on one summary line.
void print_lockstep_summary() {
  auto value = [](const char* name) -> unsigned long long {
    const auto* c = dynamic_cast<const Counter*>(StatRegistry::instance().find(std::string("cmp.lockstep.") + name));
    return c ? c->value() : 0;
  };
  if (!StatRegistry::instance().find("cmp.lockstep.packets_compared")) return;
  std::printf("  lockstep         %llu packets compared, %llu mismatches, %llu RTL cycles\n", value("packets_compared"),
              value("mismatches"), value("rtl_cycles"));
}

// The run in progress, for write_manifest() from anywhere (errors, interruption).
struct ActiveRun {
  Platform& platform;
  const SessionOptions& opt;
  const std::string& name;
  RunResult& res;
  Clock::time_point start;
};
ActiveRun* active_run = nullptr;

}  // namespace

void write_manifest(const std::string& ending, const std::string& message) {
  if (!active_run) return;
  ActiveRun& run = *active_run;
  run.res.wall_seconds = std::chrono::duration<double>(Clock::now() - run.start).count();
  run.res.sim_seconds = sc_core::sc_time_stamp().to_seconds();
  run.res.manifest = build_manifest(run.platform, run.opt, run.name, run.res, RunEnding{ending, message});
  const std::string path = run.opt.out_dir + "/manifest.json";
  // Console text is the program's bytes: invalid UTF-8 is replaced, never a reason to lose the manifest.
  if (!write_file_atomically(path, run.res.manifest.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"))
    std::cerr << "accel-vp: cannot write " << path << "\n";
}

RunResult run_session(Platform& platform, const SessionOptions& opt, const std::string& name,
                      const std::function<int(Platform&)>& body) {
  RunResult res;
  const auto start = Clock::now();
  check_output_paths(opt);
  const std::string manifest_path = opt.out_dir + "/manifest.json";
  // Files of an earlier run in the same directory must not pass for this one's.
  for (const char* f : {"/manifest.json", "/report.json", "/report.html"}) std::remove((opt.out_dir + f).c_str());
  if (!opt.timeline_file.empty()) Trace::instance().enable(true);
  if (!opt.vcd_file.empty()) Vcd::instance().enable(true);
  const std::unique_ptr<InsnTracer> tracer = start_text_trace(platform, opt);
  ActiveRun run{platform, opt, name, res, start};
  active_run = &run;
  struct Forget {
    ~Forget() { active_run = nullptr; }
  } forget;
  sc_core::sc_spawn(
      [&] {
        res.exit_code = body(platform);
        res.finished = true;
        sc_core::sc_stop();
      },
      "host_program");
  if (opt.progress && isatty(STDERR_FILENO)) sc_core::sc_spawn([start] { progress_thread(start); }, "progress");

  try {
    if (platform.time_limit.get() > sc_core::SC_ZERO_TIME)
      sc_core::sc_start(platform.time_limit.get());
    else
      sc_core::sc_start();
  } catch (const std::exception& e) {
    res.exit_code = 1;
    write_manifest("error", e.what());
    throw;
  }

  RunEnding ending;
  if (!res.finished) {
    const bool limit = sc_core::sc_pending_activity();
    ending.kind = limit ? "time_limit" : "starved";
    ending.message = "workload '" + name + "' did not finish: " +
                     (limit ? "simulated time limit reached (platform.time_limit = " + platform.time_limit.value_string() + ")"
                            : std::string("simulation starved (no more events)")) +
                     " at " + format_time(sc_core::sc_time_stamp());
    std::cerr << "accel-vp: " << ending.message << "\n";
    res.exit_code = 3;
  }
  write_manifest(ending.kind, ending.message);
  nlohmann::json& m = res.manifest;
  const std::string hash = m["config_hash"];
  if (Trace::instance().enabled()) Trace::instance().write(opt.timeline_file.empty() ? opt.out_dir + "/trace.json" : opt.timeline_file);
  TextTrace::instance().close();
  if (Vcd::instance().enabled()) Vcd::instance().write(opt.vcd_file);
  const nlohmann::json report = build_report(m);
  write_report_json(report, opt.out_dir + "/report.json");
  write_report_html(report, opt.out_dir + "/report.html");

  if (!opt.quiet) {
    std::printf("\n== accel-vp summary: %s ==\n", name.c_str());
    std::printf("  exit code        %d%s\n", res.exit_code, res.finished ? "" : " (did not finish)");
    std::printf("  simulated time   %s\n", format_time(sc_core::sc_time_stamp()).c_str());
    std::printf("  wall time        %.3f s\n", res.wall_seconds);
    std::printf("  speed            %.3g simulated s per wall s\n", m["speed_sim_per_wall"].get<double>());
    std::printf("  peak memory      %.1f MiB\n", m["peak_memory_mib"].get<double>());
    std::printf("  warnings/errors  %llu/%llu\n", static_cast<unsigned long long>(log_count(Level::Warn)),
                static_cast<unsigned long long>(log_count(Level::Error)));
    print_lockstep_summary();
    std::printf("  manifest         %s (config %s, seed %llu)\n", manifest_path.c_str(), hash.c_str(),
                static_cast<unsigned long long>(platform.seed.get()));
    std::printf("  report           %s/report.html, %s/report.json\n", opt.out_dir.c_str(), opt.out_dir.c_str());
    const auto busiest = busiest_units(report, 5);
    if (!busiest.empty()) std::printf("  where the time went (busiest units):\n");
    for (const auto& line : busiest) std::printf("    %s\n", line.c_str());
  }
  return res;
}

}  // namespace avp
