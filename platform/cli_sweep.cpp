// `accel-vp sweep`: runs a workload over a grid of parameter values, each
// point a child accel-vp process with its own output directory, in parallel
// on the local cores (or as a Slurm job array), resumable (points whose run
// completed with the same arguments are not run again), and tabulates chosen
// metrics. Names, values and metrics are checked against the elaborated
// platform before anything runs.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "base/params.h"
#include "cli.h"
#include "platform.h"
#include "sweep_slurm.h"
#include "sweep_table.h"
#include "workload.h"

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

std::string last_line(const std::string& path) {
  std::ifstream f(path);
  std::string line, last;
  while (std::getline(f, line))
    if (!line.empty()) last = line;
  return last;
}

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

// Runs the points, `jobs` at a time; returns how many failed.
size_t run_local(const std::string& exe, const std::vector<const SweepPoint*>& todo, unsigned jobs) {
  std::map<pid_t, const SweepPoint*> running;
  size_t next = 0, failed = 0;
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && running.size() < jobs) {
      const SweepPoint* pt = todo[next++];
      std::filesystem::create_directories(pt->dir);
      std::vector<std::string> args{exe};
      args.insert(args.end(), pt->args.begin(), pt->args.end());
      running[spawn(args, pt->dir + "/log.txt")] = pt;
    }
    int status = 0;
    const pid_t pid = wait(&status);
    if (pid < 0) break;
    auto it = running.find(pid);
    if (it == running.end()) continue;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      ++failed;
      std::fprintf(stderr, "accel-vp sweep: point %s failed: %s (log: %s/log.txt)\n", it->second->dir.c_str(),
                   last_line(it->second->dir + "/log.txt").c_str(), it->second->dir.c_str());
    }
    running.erase(it);
  }
  return failed;
}

std::string self_exe() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "accel-vp" : p.string();
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
    {
      auto platform = make_platform(ctx);  // the base configuration: every parameter and statistic
      check_axes(axes);
      check_metrics(o->metrics);
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
    const size_t failed = run_local(self_exe(), todo, o->jobs);
    std::fprintf(stderr, "accel-vp sweep: %zu points, %zu already done, %zu run, %zu failed\n", points.size(),
                 points.size() - todo.size(), todo.size(), failed);
    const auto missing = write_sweep_results(points, axes, o->metrics, out);
    for (const auto& m : missing) std::fprintf(stderr, "accel-vp sweep: no point has a value for metric %s\n", m.c_str());
    std::printf("results: %s/results.csv, %s/results.json, %s/sweep.html\n", out.c_str(), out.c_str(), out.c_str());
    ctx.exit_code = failed || !missing.empty() ? 1 : 0;
  });
}

}  // namespace avp
