// `accel-vp sweep`: runs a workload over a grid of parameter values, each
// point a child accel-vp process with its own output directory, in parallel
// on the local cores (or as a Slurm job array), resumable (points whose run
// completed with the same arguments are not run again), and tabulates chosen
// metrics. Names, values and metrics are checked against the elaborated
// platform before anything runs.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "base/duration_text.h"
#include "base/params.h"
#include "cli.h"
#include "platform/platform.h"
#include "rtl_coverage.h"
#include "platform/run_signals.h"
#include "sweep_slurm.h"
#include "sweep_table.h"
#include "platform/workload.h"
#include "workloads.h"

namespace avp {

namespace {

// Where a sweep writes without -o: its own directory, apart from single runs' accel-vp-out.
constexpr const char* kDefaultSweepDir = "accel-vp-sweep";

struct SweepOptions {
  std::vector<std::string> workloads{kDefaultWorkload};
  std::vector<std::string> workload_args;
  std::vector<std::string> params;  // name=v1,v2,...
  std::vector<std::string> metrics{"simulated_time_ns"};
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  bool slurm = false;
  SlurmOptions slurm_options;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

// Several workloads are one more axis, "workload", varying fastest.
constexpr const char* kWorkloadAxis = "workload";

SweepAxes parse_axes(const std::vector<std::string>& params) {
  SweepAxes axes;
  for (const auto& p : params) {
    const size_t eq = p.find('=');
    if (eq == std::string::npos || eq == 0) throw ParamError("--param " + p + ": expected name=v1,v2,...");
    const std::string name = p.substr(0, eq);
    if (name == kWorkloadAxis) throw ParamError("--param workload: use --workload w1,w2,... to sweep workloads");
    for (const auto& a : axes)
      if (a.first == name) throw ParamError("--param " + name + ": given twice (list all its values in one --param)");
    axes.push_back({name, split(p.substr(eq + 1), ',')});
    if (axes.back().second.empty()) throw ParamError("--param " + p + ": no values");
  }
  return axes;
}

// Names and values against the parameters of the platform elaborated from the
// base configuration (each value is parsed as that parameter's type).
void check_axes(const SweepAxes& axes) {
  for (const auto& [name, values] : axes) {
    if (name == kWorkloadAxis) continue;
    ParamBase* p = ParamRegistry::instance().find(name);
    if (!p) throw ParamError("--param " + name + ": no such parameter (accel-vp --list-params lists them)");
    const std::string keep = p->value_string();
    for (const auto& v : values) p->set_from_string(v, "--param");
    p->set_from_string(keep);
  }
}

void check_metrics(const std::vector<std::string>& metrics) {
  for (const auto& m : metrics) {
    if (known_metric(m)) continue;
    std::string near;
    const std::string head = m.substr(0, m.find('.'));
    for (const auto& n : metric_names())
      if (n.compare(0, head.size(), head) == 0 && near.size() < 600) near += "\n  " + n;
    throw ParamError("--metrics " + m + ": neither a manifest field nor <statistic>.<field> of this platform" +
                     (near.empty() ? std::string(" (see the statistics in any run's manifest.json)") : "; similar:" + near));
  }
}

// Why a point failed: the first error its run logged (or its first
// "accel-vp:" line), and how the run ended (its manifest), else the exit status.
std::string point_failure(const SweepPoint& pt, int status) {
  std::ifstream log(pt.dir + "/log.txt");
  std::string line, error, said, last;
  while (std::getline(log, line)) {
    if (line.empty()) continue;
    if (!said.empty() && said.back() == ':') said += " " + line;  // "accel-vp: configuration error:" and its reason
    last = line;
    if (error.empty() && line.find("] error ") != std::string::npos) error = line;
    if (said.empty() && line.rfind("accel-vp: ", 0) == 0) said = line;
  }
  std::string cause = !error.empty() ? error : !said.empty() ? said : last;
  const std::string ending = point_ending(pt);
  std::string how = WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                      : std::string("killed by signal ") + std::to_string(WTERMSIG(status));
  if (!ending.empty()) how += ", ending " + ending;
  return "(" + how + ") " + (cause.empty() ? std::string("no output") : cause);
}

using Clock = std::chrono::steady_clock;

std::string seconds_text(double s) { return format_duration_ns(s * 1e9); }

pid_t spawn(const std::vector<std::string>& args, const std::string& log) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  FILE* f = std::freopen(log.c_str(), "w", stdout);
  if (f) dup2(fileno(stdout), STDERR_FILENO);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  _exit(127);
}

struct LocalRun {
  size_t done = 0, failed = 0, interrupted = 0;
  int signal = 0;  // SIGINT/SIGTERM stopped the sweep
};

// Runs the points, `jobs` at a time, with a line per finished point (its
// wall time and the sweep's ETA). SIGINT/SIGTERM stop starting points; the
// running ones get the signal (they record an interrupted run) and are waited for.
LocalRun run_local(const std::string& exe, const std::vector<const SweepPoint*>& todo, unsigned jobs) {
  install_run_signals();
  std::map<pid_t, std::pair<const SweepPoint*, Clock::time_point>> running;
  LocalRun r;
  size_t next = 0;
  double wall_sum = 0;
  bool forwarded = false;
  while ((next < todo.size() && !r.signal) || !running.empty()) {
    while (next < todo.size() && running.size() < jobs && !(r.signal = stop_signal())) {
      const SweepPoint* pt = todo[next++];
      std::filesystem::create_directories(pt->dir);
      std::vector<std::string> args{exe};
      args.insert(args.end(), pt->args.begin(), pt->args.end());
      running[spawn(args, pt->dir + "/log.txt")] = {pt, Clock::now()};
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid < 0) break;
    if (pid == 0) {
      // A signal sent to the sweep alone (the terminal's reaches the points too) is passed on to them.
      if ((r.signal = stop_signal()) && !forwarded) {
        for (const auto& [child, point] : running) kill(child, r.signal);
        forwarded = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const SweepPoint& pt = *it->second.first;
    const double wall = std::chrono::duration<double>(Clock::now() - it->second.second).count();
    running.erase(it);
    ++r.done;
    wall_sum += wall;
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    const bool stopped = !ok && (r.signal = r.signal ? r.signal : stop_signal()) && WIFEXITED(status) &&
                         WEXITSTATUS(status) == 128 + r.signal;
    if (!ok && !stopped) ++r.failed;
    if (stopped) ++r.interrupted;
    // ETA: the mean wall time of a point so far, over the points left, `jobs` at a time.
    const size_t left = todo.size() - r.done;
    const double eta = left ? wall_sum / r.done * std::ceil(static_cast<double>(left) / jobs) : 0;
    std::fprintf(stderr, "accel-vp sweep: [%zu/%zu] %s %s in %s%s\n", r.done, todo.size(),
                 std::filesystem::path(pt.dir).filename().c_str(), ok ? "done" : stopped ? "interrupted" : "FAILED",
                 seconds_text(wall).c_str(),
                 left && !r.signal ? (", about " + seconds_text(eta) + " to go").c_str() : "");
    if (!ok && !stopped)
      std::fprintf(stderr, "accel-vp sweep: point %s failed %s (log: %s/log.txt)\n", pt.dir.c_str(),
                   point_failure(pt, status).c_str(), pt.dir.c_str());
  }
  if (!r.signal) r.signal = stop_signal();
  return r;
}

std::string self_exe() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "accel-vp" : p.string();
}

// A point's own RTL coverage file (--rtl-coverage).
std::string point_coverage(const SweepPoint& pt) { return pt.dir + "/rtl_coverage.dat"; }

// The points' coverage files summed into `dat` (verilator_coverage --write), with its report.
void merge_point_coverage(const std::vector<SweepPoint>& points, const std::string& dat) {
  std::vector<std::string> inputs;
  for (const auto& pt : points)
    if (std::error_code ec; std::filesystem::file_size(point_coverage(pt), ec) > 0 && !ec) inputs.push_back(point_coverage(pt));
  if (inputs.empty()) {
    std::fprintf(stderr, "accel-vp sweep: no point wrote RTL coverage; %s not written\n", dat.c_str());
    return;
  }
  merge_rtl_coverage(inputs, dat);
  const RtlCoverage c = write_rtl_coverage_report(dat);
  std::printf("rtl coverage of %zu points: %s (report %s)\n%s", inputs.size(), dat.c_str(),
              rtl_coverage_report_path(dat).c_str(), rtl_coverage_report(dat, c).c_str());
}

}  // namespace

void add_sweep_command(CLI::App& app, CliContext& ctx) {
  auto* cmd = app.add_subcommand("sweep", "run a workload over a grid of parameter values and tabulate metrics");
  auto o = std::make_shared<SweepOptions>();
  cmd->add_option("--workload", o->workloads, "workload to run at every point (default vecadd); several: one more axis")
      ->delimiter(',');
  cmd->add_option("--args", o->workload_args, "arguments passed to the workload at every point")->expected(0, -1);
  cmd->add_option("--param", o->params, "a parameter and its values: name=v1,v2,... (repeat for a grid)")->required();
  cmd->add_option("--metrics", o->metrics, "manifest fields or statistics (e.g. simulated_time_ns, cmp.busy.fraction)")
      ->delimiter(',');
  cmd->add_option("--jobs", o->jobs, "points run at once (default: the number of cores)")->check(CLI::Range(1u, 4096u));
  cmd->add_flag("--slurm", o->slurm, "run the missing points as a Slurm job array (writes sweep.sbatch, submits it with sbatch)");
  cmd->add_flag("--slurm-script-only", o->slurm_options.script_only,
                "with --slurm: write sweep.sbatch and do not submit it");
  cmd->add_option("--slurm-partition", o->slurm_options.partition, "with --slurm: #SBATCH --partition");
  cmd->add_option("--slurm-time", o->slurm_options.time, "with --slurm: #SBATCH --time (a task's time limit, e.g. 00:30:00)");
  cmd->add_option("--slurm-mem", o->slurm_options.mem, "with --slurm: #SBATCH --mem (memory per task, e.g. 2G)");
  auto* out_option = app.get_option("--out");
  cmd->callback([&ctx, o, out_option] {
    const bool slurm_extras = o->slurm_options.script_only || !o->slurm_options.partition.empty() ||
                              !o->slurm_options.time.empty() || !o->slurm_options.mem.empty();
    if (slurm_extras && !o->slurm) throw ParamError("--slurm-script-only, --slurm-partition, --slurm-time and --slurm-mem need --slurm");
    SweepAxes axes = parse_axes(o->params);
    for (const auto& w : o->workloads)
      if (!find_workload(w)) throw ParamError("--workload " + w + ": no such workload (accel-vp run --list shows them)");
    if (o->workloads.size() > 1) axes.push_back({kWorkloadAxis, o->workloads});
    std::map<std::string, std::string> units;  // metric -> unit, for the tables and charts
    std::string rtl_coverage;                  // --rtl-coverage: every point writes its own, merged here
    {
      auto platform = make_platform(ctx);  // the base configuration: every parameter and statistic
      rtl_coverage = platform->cmp.rtl_coverage.get();
      check_axes(axes);
      check_metrics(o->metrics);
      for (const auto& m : o->metrics) units[m] = metric_unit(m);
    }
    // A sweep has its own default directory, and never shares one with a single run.
    const std::string dir = out_option->count() ? ctx.session.out_dir : std::string(kDefaultSweepDir);
    const std::string out = std::filesystem::absolute(dir).lexically_normal().string();
    if (std::filesystem::exists(out + "/manifest.json"))
      throw ParamError("-o " + dir + ": holds a single run (manifest.json); a sweep needs a directory of its own");
    std::filesystem::create_directories(out);
    std::vector<SweepPoint> points = sweep_grid(axes, out);
    std::vector<const SweepPoint*> todo;
    for (auto& pt : points) {
      pt.args = {"--no-progress", "-o", pt.dir};
      if (!ctx.session.config_file.empty())
        pt.args.insert(pt.args.end(), {"--config", std::filesystem::absolute(ctx.session.config_file).string()});
      for (const auto& s : ctx.session.sets) pt.args.insert(pt.args.end(), {"--set", s});
      std::string workload = o->workloads.front();
      for (const auto& [name, value] : pt.values)
        if (name == kWorkloadAxis) workload = value;
        else pt.args.insert(pt.args.end(), {"--set", name + "=" + value});
      if (!rtl_coverage.empty()) pt.args.insert(pt.args.end(), {"--set", "cmp.rtl_coverage=" + point_coverage(pt)});
      pt.args.insert(pt.args.end(), {"run", workload});
      if (!o->workload_args.empty()) {
        pt.args.push_back("--args");
        pt.args.insert(pt.args.end(), o->workload_args.begin(), o->workload_args.end());
      }
      if (!point_complete(pt)) todo.push_back(&pt);
    }
    if (o->slurm && !todo.empty()) {
      std::printf("accel-vp sweep: %zu points, %zu done, %zu to run on Slurm\n", points.size(), points.size() - todo.size(),
                  todo.size());
      ctx.exit_code = submit_slurm_array(todo, self_exe(), out, o->slurm_options);
      return;
    }
    const LocalRun run = run_local(self_exe(), todo, o->jobs);
    std::fprintf(stderr, "accel-vp sweep: %zu points, %zu already done, %zu run, %zu failed\n", points.size(),
                 points.size() - todo.size(), run.done, run.failed);
    const auto missing = write_sweep_results(points, axes, o->metrics, units, out, run.signal ? signal_name(run.signal) : "");
    if (!rtl_coverage.empty()) merge_point_coverage(points, rtl_coverage);
    if (run.signal) {
      // The points that completed are kept: the same command runs the others.
      std::fprintf(stderr,
                   "accel-vp sweep: interrupted by %s: %zu of %zu points not run or not complete; run the same command "
                   "again to resume (completed points are not run again)\n",
                   signal_name(run.signal), todo.size() - (run.done - run.failed - run.interrupted), points.size());
      std::printf("partial results: %s/results.csv, %s/results.json, %s/sweep.html\n", out.c_str(), out.c_str(), out.c_str());
      ctx.exit_code = 128 + run.signal;
      return;
    }
    for (const auto& m : missing) std::fprintf(stderr, "accel-vp sweep: no point has a value for metric %s\n", m.c_str());
    std::printf("results: %s/results.csv, %s/results.json, %s/sweep.html\n", out.c_str(), out.c_str(), out.c_str());
    ctx.exit_code = run.failed || !missing.empty() ? 1 : 0;
  });
}

}  // namespace avp
