#include "run_outputs.h"

#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <systemc>

#include "base/duration_text.h"
#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "base/status_line.h"
#include "harts/rv_disasm.h"
#include "output_paths.h"
#include "platform/platform.h"
#include "rtl_coverage.h"
#include "report/run_report.h"
#include "platform/run_signals.h"
#include "report/stats_text.h"

namespace avp {
namespace {

double peak_rss_mib() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

std::string ended_text(const nlohmann::json& m) {
  if (m.contains("interrupted_by")) return "interrupted by " + m["interrupted_by"].get<std::string>();
  return m["finished"].get<bool>() ? "" : "did not finish";
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

// --rtl-coverage: the decoder writes its .dat, the report goes beside it.
nlohmann::json rtl_coverage_json(Platform& platform, const std::string& dat) {
  platform.cmp.write_decoder_coverage();
  try {
    const RtlCoverage c = write_rtl_coverage_report(dat);
    return {{"file", dat}, {"report", rtl_coverage_report_path(dat)}, {"line_points", c.lines},
            {"line_points_hit", c.lines_hit}, {"toggle_points", c.toggles}, {"toggle_points_hit", c.toggles_hit},
            {"opcodes_never_decoded", c.opcodes_never}, {"error_paths_never_taken", c.errors_never}};
  } catch (const std::runtime_error& e) {
    return {{"file", dat}, {"error", e.what()}};
  }
}

void print_rtl_coverage_summary(const nlohmann::json& m) {
  if (!m.contains("rtl_coverage")) return;
  const auto& c = m["rtl_coverage"];
  if (c.contains("error")) {
    std::printf("  rtl coverage     %s\n", c["error"].get<std::string>().c_str());
    return;
  }
  auto names = [](const nlohmann::json& list) {
    std::string s;
    for (const auto& n : list) s += (s.empty() ? "" : " ") + n.get<std::string>();
    return s.empty() ? std::string("none") : s;
  };
  std::printf("  rtl coverage     %s (lines %u/%u, toggles %u/%u; report %s)\n", c["file"].get<std::string>().c_str(),
              c["line_points_hit"].get<unsigned>(), c["line_points"].get<unsigned>(), c["toggle_points_hit"].get<unsigned>(),
              c["toggle_points"].get<unsigned>(), c["report"].get<std::string>().c_str());
  std::printf("    opcodes never decoded    %s\n", names(c["opcodes_never_decoded"]).c_str());
  std::printf("    error paths never taken  %s\n", names(c["error_paths_never_taken"]).c_str());
}

// Parameters whose value differs from their default: name -> {value, default}.
nlohmann::json non_default_parameters() {
  nlohmann::json out = nlohmann::json::object();
  for (const ParamBase* p : ParamRegistry::instance().all())
    if (p->value_string() != p->default_string())
      out[p->name()] = {{"value", p->value_string()}, {"default", p->default_string()}};
  return out;
}

std::string hex(uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
  return s;
}

// The traps that stopped harts, with the register file: a post-mortem without GDB.
nlohmann::json traps_json(const std::vector<TrapRecord>& traps) {
  nlohmann::json out = nlohmann::json::array();
  for (const TrapRecord& t : traps) {
    nlohmann::json regs = nlohmann::json::object();
    for (unsigned r = 1; r < 32; ++r) regs[rv::xreg_name(r)] = hex(t.x[r]);
    out.push_back({{"hart", t.hart}, {"cause", t.cause & ~rv::kInterruptBit}, {"cause_name", rv::cause_name(t.cause)},
                   {"pc", hex(t.pc)}, {"tval", hex(t.tval)}, {"symbol", t.symbol}, {"source", t.source},
                   {"instruction", t.insn}, {"privilege", t.priv}, {"registers", regs}});
  }
  return out;
}

// Every file the run writes: name -> path.
nlohmann::json output_files(const SessionOptions& opt, const nlohmann::json& params) {
  nlohmann::json f = nlohmann::json::object();
  for (const char* name : {"manifest.json", "report.json", "report.html", "stats.txt"}) f[name] = opt.out_dir + "/" + name;
  if (!opt.timeline_file.empty()) f["timeline"] = opt.timeline_file;
  if (!opt.trace.empty()) f["trace"] = opt.trace_file.empty() ? opt.out_dir + "/trace.log" : opt.trace_file;
  if (!opt.vcd_file.empty()) f["vcd"] = opt.vcd_file;
  if (const auto it = params.find("cmp.rtl_vcd"); it != params.end() && it->is_string() && !it->get<std::string>().empty())
    f["rtl_vcd"] = *it;
  if (const auto it = params.find("cmp.rtl_coverage"); it != params.end() && it->is_string() && !it->get<std::string>().empty()) {
    f["rtl_coverage"] = *it;
    f["rtl_coverage_report"] = rtl_coverage_report_path(it->get<std::string>());
  }
  return f;
}

// A run that started functional: where it became timed (docs/timing.md).
nlohmann::json timing_json(const HartCluster& harts) {
  const TimingSwitch& sw = harts.timing_switch();
  nlohmann::json t = {{"mode", harts.timing.get()},
                      {"timed_from", harts.timed_from.get()},
                      {"warm_caches", harts.warm_caches.get()},
                      {"switched", sw.done}};
  if (sw.done) {
    t["switch_cause"] = sw.cause;
    t["switch_time_ns"] = sw.time_ps / 1000.0;
    t["switch_hart"] = sw.hart;
    t["switch_hart_instructions"] = sw.hart_instructions;
    t["switch_instructions"] = sw.instructions;
  }
  return t;
}

}  // namespace

std::string RunEnd::kind() const {
  if (finished) return "finished";
  if (signal) return "interrupted";
  if (time_limit) return "time_limit";
  if (killed) return "killed";
  return error.empty() ? "starved" : "error";
}

nlohmann::json build_manifest(Platform& platform, const SessionOptions& opt, const std::string& name,
                              const RunResult& res, const RunEnd& end) {
  platform.harts.update_running_stats(sc_core::sc_time_stamp());  // harts still running count what they did so far
  const nlohmann::json params = ParamRegistry::instance().to_json();
  std::ostringstream hash;
  hash << std::hex << fnv1a64(params.dump());
  const uint64_t instructions = platform.instructions_retired();
  nlohmann::json m;
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
  m["non_default_parameters"] = non_default_parameters();
  m["outputs"] = output_files(opt, params);
  m["exit_code"] = res.exit_code;
  m["finished"] = end.finished;
  if (end.signal) m["interrupted_by"] = stop_cause();
  if (end.time_limit) m["time_limit_reached"] = true;
  m["ending"] = end.kind();
  m["ending_message"] = end.error.empty() ? end.message : end.error;
  m["simulated_time_ns"] = sc_core::sc_time_stamp().to_default_time_units();
  m["wall_time_s"] = res.wall_seconds;
  m["speed_sim_per_wall"] = res.wall_seconds > 0 ? res.sim_seconds / res.wall_seconds : 0;
  m["real_time_paced"] = res.paced;
  if (res.paced) m["paced_sleep_s"] = res.paced_seconds;
  m["instructions"] = instructions;
  m["mips"] = res.wall_seconds > 0 ? instructions / res.wall_seconds / 1e6 : 0;
  m["peak_memory_mib"] = peak_rss_mib();
  m["warnings"] = log_count(Level::Warn);
  m["errors"] = log_count(Level::Error);
  m["cmp_failed_buffers"] = platform.cmp.failed_count();
  if (platform.harts.timing.get() != "timed") m["timing"] = timing_json(platform.harts);
  m["statistics"] = StatRegistry::instance().to_json();
  nlohmann::json console = nlohmann::json::array();
  for (const auto& l : platform.harts.console().lines())
    console.push_back({{"hart", l.hart}, {"time_ns", l.time.to_seconds() * 1e9}, {"text", l.text}});
  m["console"] = console;
  m["console_dropped"] = platform.harts.console().dropped();
  if (!platform.cmp.rtl_coverage.get().empty()) m["rtl_coverage"] = rtl_coverage_json(platform, platform.cmp.rtl_coverage.get());
  if (!platform.harts.trap_records().empty()) m["traps"] = traps_json(platform.harts.trap_records());
  if (!platform.uart.lines().empty()) {
    nlohmann::json uart = nlohmann::json::array();
    for (const auto& l : platform.uart.lines())
      uart.push_back({{"start_ns", l.start.to_seconds() * 1e9}, {"time_ns", l.when.to_seconds() * 1e9}, {"text", l.text}});
    m["uart"] = uart;
    m["uart_dropped"] = platform.uart.lines_dropped();
  }
  return m;
}

void write_manifest_file(const nlohmann::json& m, const SessionOptions& opt) {
  const std::string path = opt.out_dir + "/manifest.json";
  // Console text is the program's bytes: invalid UTF-8 is replaced, never a reason to lose the manifest.
  if (!write_file_atomically(path, m.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"))
    std::cerr << "accel-vp: cannot write " << path << "\n";
}

nlohmann::json write_run_files(const nlohmann::json& m, const SessionOptions& opt, const TimelineDigest* timeline) {
  write_manifest_file(m, opt);
  const nlohmann::json report = build_report(m, timeline);
  write_report_json(report, opt.out_dir + "/report.json");
  write_report_html(report, timeline, opt.out_dir + "/report.html");
  write_stats_text(opt.out_dir + "/stats.txt", m["statistics"], m["simulated_time_ns"].get<double>());
  return report;
}

void print_summary(const nlohmann::json& m, const nlohmann::json& report, const SessionOptions& opt,
                   const std::string& name) {
  status_line_end();
  const std::string ended = ended_text(m);
  std::printf("\n== accel-vp summary: %s ==\n", name.c_str());
  std::printf("  exit code        %d%s\n", m["exit_code"].get<int>(), ended.empty() ? "" : (" (" + ended + ")").c_str());
  std::printf("  simulated time   %s\n", format_duration(sc_core::sc_time_stamp()).c_str());
  std::printf("  wall time        %s\n", format_duration_ns(m["wall_time_s"].get<double>() * 1e9).c_str());
  std::printf("  instructions     %llu (%.1f MIPS)\n", m["instructions"].get<unsigned long long>(), m["mips"].get<double>());
  std::printf("  speed            %.3g simulated s per wall s\n", m["speed_sim_per_wall"].get<double>());
  std::printf("  peak memory      %.1f MiB\n", m["peak_memory_mib"].get<double>());
  std::printf("  warnings/errors  %llu/%llu\n", m["warnings"].get<unsigned long long>(), m["errors"].get<unsigned long long>());
  print_lockstep_summary();
  print_rtl_coverage_summary(m);
  std::printf("  manifest         %s/manifest.json (config %s, seed %llu)\n", opt.out_dir.c_str(),
              m["config_hash"].get<std::string>().c_str(), m["seed"].get<unsigned long long>());
  std::printf("  report           %s/report.html, %s/report.json, %s/stats.txt\n", opt.out_dir.c_str(), opt.out_dir.c_str(),
              opt.out_dir.c_str());
  for (const auto& [what, label] : {std::pair<const char*, const char*>{"timeline", "timeline"}, {"trace", "text trace"},
                                    {"vcd", "vcd"}, {"rtl_vcd", "rtl vcd"}})
    if (m["outputs"].contains(what)) std::printf("  %-16s %s\n", label, m["outputs"][what].get<std::string>().c_str());
  const auto busiest = busiest_units(report, 5);
  if (!busiest.empty()) std::printf("  where the time went (busiest units):\n");
  for (const auto& line : busiest) std::printf("    %s\n", line.c_str());
  std::fflush(stdout);
}

}  // namespace avp
