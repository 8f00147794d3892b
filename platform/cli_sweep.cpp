// `accel-vp sweep`: runs a workload over a grid of parameter values, each
// point a child accel-vp process with its own output directory, in parallel
// on the local cores (or as a Slurm job array), resumable (points with a
// manifest are not run again), and tabulates chosen metrics.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "base/params.h"
#include "cli.h"
#include "sweep_table.h"

namespace avp {

namespace {

struct SweepOptions {
  std::string workload = "vecadd";
  std::vector<std::string> params;  // name=v1,v2,...
  std::vector<std::string> metrics{"simulated_time_ns"};
  unsigned jobs = 2;
  bool slurm = false;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

// The accel-vp command line of one point.
std::vector<std::string> point_command(const CliContext& ctx, const SweepOptions& o, const SweepPoint& pt) {
  std::vector<std::string> args{"/proc/self/exe", "--no-progress", "-o", pt.dir};
  if (!ctx.session.config_file.empty()) args.insert(args.end(), {"--config", ctx.session.config_file});
  for (const auto& s : ctx.session.sets) args.insert(args.end(), {"--set", s});
  for (const auto& [name, value] : pt.values) args.insert(args.end(), {"--set", name + "=" + value});
  args.insert(args.end(), {"run", o.workload});
  return args;
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

int run_local(const CliContext& ctx, const SweepOptions& o, const std::vector<SweepPoint>& points) {
  std::map<pid_t, size_t> running;
  size_t next = 0, failed = 0, skipped = 0;
  while (next < points.size() || !running.empty()) {
    while (next < points.size() && running.size() < std::max(1u, o.jobs)) {
      const SweepPoint& pt = points[next++];
      if (std::filesystem::exists(pt.dir + "/manifest.json")) {
        ++skipped;  // resumable: this point has run
        continue;
      }
      std::filesystem::create_directories(pt.dir);
      running[spawn(point_command(ctx, o, pt), pt.dir + "/log.txt")] = next - 1;
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = wait(&status);
    auto it = running.find(pid);
    if (it == running.end()) continue;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      ++failed;
      std::fprintf(stderr, "accel-vp sweep: point %zu failed (see %s/log.txt)\n", it->second, points[it->second].dir.c_str());
    }
    running.erase(it);
  }
  std::fprintf(stderr, "accel-vp sweep: %zu points, %zu already done, %zu failed\n", points.size(), skipped, failed);
  return failed ? 1 : 0;
}

int write_slurm(const CliContext& ctx, const SweepOptions& o, const std::vector<SweepPoint>& points, const std::string& out) {
  const std::string script = out + "/sweep.sbatch";
  std::ofstream f(script);
  f << "#!/bin/bash\n#SBATCH --job-name=accel-vp-sweep\n#SBATCH --array=0-" << points.size() - 1
    << "\n#SBATCH --cpus-per-task=1\n#SBATCH --output=" << out << "/slurm-%A_%a.out\nset -e\ncase $SLURM_ARRAY_TASK_ID in\n";
  char self[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  for (size_t i = 0; i < points.size(); ++i) {
    auto args = point_command(ctx, o, points[i]);
    args[0] = n > 0 ? std::string(self, n) : "accel-vp";
    f << "  " << i << ") mkdir -p '" << points[i].dir << "' && [ -f '" << points[i].dir << "/manifest.json' ] || exec";
    for (const auto& a : args) f << " '" << a << "'";
    f << " ;;\n";
  }
  f << "esac\n";
  f.close();
  std::printf("wrote %s (%zu array tasks)\n", script.c_str(), points.size());
  if (std::system("command -v sbatch > /dev/null 2>&1") == 0) return std::system(("sbatch " + script).c_str()) == 0 ? 0 : 1;
  std::printf("sbatch is not installed here: submit the script on the cluster, then rerun the sweep to tabulate\n");
  return 0;
}

}  // namespace

void add_sweep_command(CLI::App& app, CliContext& ctx) {
  auto* cmd = app.add_subcommand("sweep", "run a workload over a grid of parameter values and tabulate metrics");
  auto o = std::make_shared<SweepOptions>();
  cmd->add_option("--workload", o->workload, "workload to run at every point (default vecadd)");
  cmd->add_option("--param", o->params, "a parameter and its values: name=v1,v2,... (repeat for a grid)")->required();
  cmd->add_option("--metrics", o->metrics, "manifest fields or statistics (e.g. simulated_time_ns, cmp.busy.fraction)")
      ->delimiter(',');
  cmd->add_option("--jobs", o->jobs, "points run at once (default 2)");
  cmd->add_flag("--slurm", o->slurm, "write a Slurm job-array script (and submit it with sbatch when present)");
  cmd->callback([&ctx, o] {
    std::vector<std::pair<std::string, std::vector<std::string>>> axes;
    for (const auto& p : o->params) {
      const size_t eq = p.find('=');
      if (eq == std::string::npos || eq == 0) throw ParamError("--param " + p + ": expected name=v1,v2,...");
      axes.push_back({p.substr(0, eq), split(p.substr(eq + 1), ',')});
      if (axes.back().second.empty()) throw ParamError("--param " + p + ": no values");
    }
    const std::string out = ctx.session.out_dir;
    std::filesystem::create_directories(out);
    const std::vector<SweepPoint> points = sweep_grid(axes, out);
    ctx.exit_code = o->slurm ? write_slurm(ctx, *o, points, out) : run_local(ctx, *o, points);
    if (o->slurm && !std::filesystem::exists(points.front().dir + "/manifest.json")) return;
    write_sweep_results(points, axes, o->metrics, out);
    std::printf("results: %s/results.csv, %s/results.json, %s/sweep.html\n", out.c_str(), out.c_str(), out.c_str());
  });
}

}  // namespace avp
