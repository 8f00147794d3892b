#include "session.h"

#include <sys/resource.h>
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

double peak_rss_mib() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

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
  std::error_code ec;
  std::filesystem::create_directories(opt.out_dir, ec);
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

}  // namespace

RunResult run_session(Platform& platform, const SessionOptions& opt, const std::string& name,
                      const std::function<int(Platform&)>& body) {
  RunResult res;
  const auto start = Clock::now();
  if (!opt.timeline_file.empty()) Trace::instance().enable(true);
  std::error_code ec;
  std::filesystem::create_directories(opt.out_dir, ec);
  if (!opt.vcd_file.empty()) {
    if (!std::ofstream(opt.vcd_file)) throw ParamError(opt.vcd_file + ": cannot write the VCD file");
    Vcd::instance().enable(true);
  }
  const std::unique_ptr<InsnTracer> tracer = start_text_trace(platform, opt);
  sc_core::sc_spawn(
      [&] {
        res.exit_code = body(platform);
        res.finished = true;
        sc_core::sc_stop();
      },
      "host_program");
  if (opt.progress && isatty(STDERR_FILENO)) sc_core::sc_spawn([start] { progress_thread(start); }, "progress");

  if (platform.time_limit.get() > sc_core::SC_ZERO_TIME)
    sc_core::sc_start(platform.time_limit.get());
  else
    sc_core::sc_start();

  res.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  res.sim_seconds = sc_core::sc_time_stamp().to_seconds();
  if (!res.finished) {
    std::cerr << "accel-vp: workload '" << name << "' did not finish: "
              << (sc_core::sc_pending_activity() ? "simulated time limit reached" : "simulation starved (no more events)")
              << " at " << format_time(sc_core::sc_time_stamp()) << "\n";
    res.exit_code = 3;
  }

  const nlohmann::json params = ParamRegistry::instance().to_json();
  std::ostringstream hash;
  hash << std::hex << fnv1a64(params.dump());
  nlohmann::json& m = res.manifest;
  m["tool"] = "accel-vp";
  m["version"] = version_string();
  m["systemc"] = sc_core::sc_version();
  m["command_line"] = opt.command_line;
  m["config_file"] = opt.config_file;
  m["sets"] = opt.sets;
  m["workload"] = name;
  m["seed"] = platform.seed.get();
  m["quantum_ns"] = platform.quantum.get().to_default_time_units();
  m["config_hash"] = hash.str();
  m["parameters"] = params;
  m["exit_code"] = res.exit_code;
  m["finished"] = res.finished;
  m["simulated_time_ns"] = sc_core::sc_time_stamp().to_default_time_units();
  m["wall_time_s"] = res.wall_seconds;
  m["speed_sim_per_wall"] = res.wall_seconds > 0 ? res.sim_seconds / res.wall_seconds : 0;
  m["peak_memory_mib"] = peak_rss_mib();
  m["warnings"] = log_count(Level::Warn);
  m["errors"] = log_count(Level::Error);
  m["statistics"] = StatRegistry::instance().to_json();
  nlohmann::json console = nlohmann::json::array();
  for (const auto& l : platform.harts.console_lines())
    console.push_back({{"hart", l.hart}, {"time_ns", l.time.to_seconds() * 1e9}, {"text", l.text}});
  m["console"] = console;

  const std::string manifest_path = opt.out_dir + "/manifest.json";
  std::ofstream f(manifest_path);
  if (f) f << m.dump(2) << "\n";
  else std::cerr << "accel-vp: cannot write " << manifest_path << "\n";
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
    std::printf("  manifest         %s (config %s, seed %llu)\n", manifest_path.c_str(), hash.str().c_str(),
                static_cast<unsigned long long>(platform.seed.get()));
    std::printf("  report           %s/report.html, %s/report.json\n", opt.out_dir.c_str(), opt.out_dir.c_str());
    const auto busiest = busiest_units(report, 5);
    if (!busiest.empty()) std::printf("  where the time went (busiest units):\n");
    for (const auto& line : busiest) std::printf("    %s\n", line.c_str());
  }
  return res;
}

}  // namespace avp
