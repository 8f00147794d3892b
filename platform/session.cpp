#include "platform/session.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <systemc>

#include "base/duration_text.h"
#include "base/log.h"
#include "base/params.h"
#include "base/raw_terminal.h"
#include "base/run_ahead.h"
#include "base/status_line.h"
#include "base/text_trace.h"
#include "base/trace.h"
#include "base/vcd.h"
#include "base/utf8.h"
#include "harts/insn_tracer.h"
#include "output_paths.h"
#include "real_time_pace.h"
#include "platform/platform.h"
#include "run_outputs.h"
#include "platform/run_signals.h"
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
    if (eq == std::string::npos || eq == 0) throw ParamError("--set " + (s.size() > 80 ? quoted(s) : s) + ": expected name=value");
    const auto shorthand = opt.set_origins.find(s);
    reg.add_preset(s.substr(0, eq), s.substr(eq + 1),
                   shorthand != opt.set_origins.end() ? shorthand->second
                                                     : "--set " + (s.size() > 80 ? quoted(s) : s));  // a huge one cut
  }
}

namespace {

using Clock = std::chrono::steady_clock;

// The progress line: simulated time, speed in MIPS and wall time, refreshed
// about once a second after the first two seconds. On stderr when it is a
// terminal; in the terminal's title instead when the UART uses that terminal
// (its prompt and typed text stay intact).
class Progress {
 public:
  Progress(bool on, bool in_title, Clock::time_point start) : on_(on), in_title_(in_title), start_(start), last_(start) {}
  ~Progress() {
    if (titled_) std::fputs("\033]0;\007", stderr);  // the title back to the terminal's own
  }
  void tick(Platform& p) {
    if (!on_) return;
    const auto now = Clock::now();
    const double wall = std::chrono::duration<double>(now - start_).count();
    const double since = std::chrono::duration<double>(now - last_).count();
    if (wall < 2.0 || since < 1.0) return;
    const uint64_t insns = p.instructions_retired();
    char buf[160];
    std::snprintf(buf, sizeof buf, "[accel-vp] simulated %s  %.1f MIPS  wall %s", format_duration(sc_core::sc_time_stamp()).c_str(),
                  (insns - last_insns_) / since / 1e6, format_duration_ns(std::floor(wall) * 1e9).c_str());
    if (in_title_) {
      std::fprintf(stderr, "\033]0;%s\007", buf);
      std::fflush(stderr);
      titled_ = true;
    } else {
      status_line_show(buf);
    }
    last_ = now;
    last_insns_ = insns;
  }

 private:
  bool on_, in_title_, titled_ = false;
  Clock::time_point start_, last_;
  uint64_t last_insns_ = 0;
};

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

// SIGUSR1: the manifest and reports of the run so far, the run goes on.
void write_snapshot(Platform& platform, const SessionOptions& opt, const std::string& name, RunResult res,
                    Clock::time_point start) {
  res.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  res.sim_seconds = sc_core::sc_time_stamp().to_seconds();
  RunEnd running;
  nlohmann::json m = build_manifest(platform, opt, name, res, running);
  m["snapshot"] = true;
  write_run_files(m, opt, nullptr);
  status_line_end();
  std::cerr << "accel-vp: statistics at " << format_duration(sc_core::sc_time_stamp()) << " written to " << opt.out_dir
            << "/report.json (the run goes on)\n";
}

}  // namespace

RunResult run_session(Platform& platform, const SessionOptions& opt, const std::string& name,
                      const std::function<int(Platform&)>& body) {
  RunResult res;
  const auto start = Clock::now();
  check_output_paths(opt);
  // Files of an earlier run in the same directory must not pass for this one's.
  for (const char* f : {"/manifest.json", "/report.json", "/report.html", "/stats.txt"}) std::remove((opt.out_dir + f).c_str());
  if (!opt.timeline_file.empty()) Trace::instance().open(opt.timeline_file);
  if (!opt.vcd_file.empty()) Vcd::instance().enable(true);
  const std::unique_ptr<InsnTracer> tracer = start_text_trace(platform, opt);
  sc_core::sc_spawn(
      [&] {
        res.exit_code = body(platform);
        res.finished = true;
        sc_core::sc_stop();
      },
      "host_program");

  // Runs the simulation in chunks so signals, snapshot requests and the
  // progress line are seen every few milliseconds of wall-clock time; the
  // order of events is the same as in one sc_start. A chunk starts at one
  // quantum and doubles while chunks take less than kChunkWall / 4, halves
  // above kChunkWall. Where it stops bounds run-ahead (base/run_ahead.h).
  install_run_signals();
  platform.uart.on_quit = request_console_stop;
  const bool uart_terminal = opt.uart_on_stdio && (same_terminal(STDERR_FILENO, STDOUT_FILENO) || same_terminal(STDERR_FILENO, STDIN_FILENO));
  Progress progress(opt.progress && isatty(STDERR_FILENO), uart_terminal, start);
  RunEnd end;
  const sc_core::sc_time limit = platform.time_limit.get();
  const sc_core::sc_time step = platform.quantum.get() > sc_core::SC_ZERO_TIME ? platform.quantum.get()
                                                                             : sc_core::sc_time(1, sc_core::SC_US);
  constexpr auto kChunkWall = std::chrono::milliseconds(20);
  sc_core::sc_time span = step;
  RealTimePace pace(res.paced = platform.paced());
  for (;;) {
    // Idle stretches (e.g. a host program's long timed wait) are crossed in one
    // call: nothing happens before the next pending event, so the order of
    // events is the same and signals are still seen at once. Before the first
    // sc_start no process has run, so nothing is pending yet: one step then.
    sc_core::sc_time chunk = span;
    if (sc_core::sc_get_status() == sc_core::SC_PAUSED) chunk = std::max(span, sc_core::sc_time_to_pending_activity());
    if (limit > sc_core::SC_ZERO_TIME && limit - sc_core::sc_time_stamp() < chunk) chunk = limit - sc_core::sc_time_stamp();
    chunk = pace.limit(chunk);
    try {
      RunAhead::bound(platform.run_ahead.get() ? chunk : sc_core::SC_ZERO_TIME);
      const auto chunk_start = Clock::now();
      sc_core::sc_start(chunk);
      const auto wall = Clock::now() - chunk_start;
      if (wall < kChunkWall / 4 && span < step * 1000000) span = span * 2;
      else if (wall > kChunkWall && span > step) span = std::max(step, span / 2);
    } catch (const std::exception& e) {
      // The manifest says how the run ended even when an error ends it.
      std::fflush(stdout);
      status_line_end();
      res.exit_code = 1;
      res.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
      res.sim_seconds = sc_core::sc_time_stamp().to_seconds();
      res.paced_seconds = pace.slept_seconds();
      end.error = e.what();
      write_manifest_file(build_manifest(platform, opt, name, res, end), opt);
      throw;
    }
    std::fflush(stdout);  // the UART's line in progress (uart_backend.cpp) shows within a chunk
    if (res.finished || sc_core::sc_get_status() != sc_core::SC_PAUSED) break;
    if ((end.signal = stop_signal())) break;
    if (limit > sc_core::SC_ZERO_TIME && sc_core::sc_time_stamp() >= limit) {
      end.time_limit = true;
      break;
    }
    if (!sc_core::sc_pending_activity()) break;  // starved
    if (take_snapshot_request()) write_snapshot(platform, opt, name, res, start);
    progress.tick(platform);
    pace.wait();
    if (opt.between_chunks) {
      opt.between_chunks();
      if (sc_core::sc_get_status() != sc_core::SC_PAUSED) break;  // a debugger's kill
    }
  }
  status_line_end();
  res.paced_seconds = pace.slept_seconds();
  end.finished = res.finished;
  // Only the GDB server's kill stops the simulation without the workload finishing.
  end.killed = !res.finished && !end.signal && !end.time_limit && sc_core::sc_get_status() == sc_core::SC_STOPPED;

  res.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  res.sim_seconds = sc_core::sc_time_stamp().to_seconds();
  if (end.signal) {
    end.message = "workload '" + name + "' interrupted by " + stop_cause() + " at " +
                  format_duration(sc_core::sc_time_stamp());
    std::cerr << "accel-vp: " << end.message << "\n";
    res.exit_code = 128 + end.signal;
  } else if (!res.finished) {
    end.message = "workload '" + name + "' did not finish: " +
                  (end.time_limit ? "simulated time limit reached (platform.time_limit = " + platform.time_limit.value_string() + ")"
                                  : end.killed ? std::string("killed by the debugger")
                                               : std::string("simulation starved (no more events)")) +
                  " at " + format_duration(sc_core::sc_time_stamp());
    std::cerr << "accel-vp: " << end.message << "\n";
    res.exit_code = 3;
  } else if (res.exit_code == 0 && platform.cmp.failure_exit_status.get() && platform.cmp.failed_count()) {
    std::cerr << "accel-vp: " << platform.cmp.failed_count() << " command buffer(s) failed (cmp.failure_exit_status)\n";
    res.exit_code = static_cast<int>(platform.cmp.failure_exit_status.get());
  }

  if (platform.harts.switch_point().kind != TimedFrom::Never && !platform.harts.timing_switch().done) {
    Logger log{"harts"};
    AVP_LOG(log, Warn, "harts.timed_from = " << platform.harts.timed_from.get()
                           << ": the run ended before that point; it stayed functional throughout");
  }
  res.manifest = build_manifest(platform, opt, name, res, end);
  std::unique_ptr<TimelineDigest> timeline;
  platform.trace_running_harts(sc_core::sc_time_stamp());  // harts still running (an interrupted run, a power-off) keep their slices
  if (Trace::instance().enabled()) timeline = std::make_unique<TimelineDigest>(Trace::instance().close(sc_core::sc_time_stamp()));
  TextTrace::instance().close();
  if (Vcd::instance().enabled()) Vcd::instance().write(opt.vcd_file);
  const nlohmann::json report = write_run_files(res.manifest, opt, timeline.get());
  if (!opt.quiet) print_summary(res.manifest, report, opt, name);
  return res;
}

}  // namespace avp
