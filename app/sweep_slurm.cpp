#include "sweep_slurm.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace avp {

namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

int submit_slurm_array(const std::vector<const SweepPoint*>& todo, const std::string& exe, const std::string& out,
                       const SlurmOptions& options) {
  const std::string script = out + "/sweep.sbatch";
  std::ofstream f(script);
  f << "#!/bin/bash\n"
    << "#SBATCH --job-name=accel-vp-sweep\n"
    << "#SBATCH --array=0-" << todo.size() - 1 << "\n"
    << "#SBATCH --cpus-per-task=1\n"
    << "#SBATCH --output=" << out << "/slurm-%A_%a.out\n";
  if (!options.partition.empty()) f << "#SBATCH --partition=" << options.partition << "\n";
  if (!options.time.empty()) f << "#SBATCH --time=" << options.time << "\n";
  if (!options.mem.empty()) f << "#SBATCH --mem=" << options.mem << "\n";
  f
    << "# Each task runs one point into its own directory; `accel-vp sweep` run again tabulates.\n"
    << "set -e\ncase $SLURM_ARRAY_TASK_ID in\n";
  for (size_t i = 0; i < todo.size(); ++i) {
    f << "  " << i << ") mkdir -p " << shell_quote(todo[i]->dir) << " && exec " << shell_quote(exe);
    for (const auto& a : todo[i]->args) f << " " << shell_quote(a);
    f << " > " << shell_quote(todo[i]->dir + "/log.txt") << " 2>&1 ;;\n";
  }
  f << "  *) echo \"no point for array task $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n";
  f.close();
  if (!f) {
    std::fprintf(stderr, "accel-vp sweep: cannot write %s\n", script.c_str());
    return 1;
  }
  std::printf("wrote %s (%zu array tasks)\n", script.c_str(), todo.size());
  std::fflush(stdout);
  if (options.script_only) {
    std::printf("not submitted (--slurm-script-only): run `sbatch %s` on the cluster, then this sweep again (without "
                "--slurm) to tabulate\n", script.c_str());
    return 0;
  }
  if (std::system("command -v sbatch > /dev/null 2>&1") != 0) {
    std::printf("sbatch is not on PATH: submit %s on the cluster, then run this sweep again (without --slurm) to tabulate\n",
                script.c_str());
    return 0;
  }
  const int rc = std::system(("sbatch " + shell_quote(script)).c_str());
  if (rc != 0) {
    std::fprintf(stderr,
                 "accel-vp sweep: sbatch %s failed (its message is above). If it could not reach the Slurm "
                 "controller, check that slurmctld runs and this host is a submit host (`scontrol ping`, `sinfo`), "
                 "or copy the script to a machine that can submit and run `sbatch` there. The script is kept; "
                 "once the job array has run, run this sweep again without --slurm to tabulate.\n",
                 script.c_str());
    return 1;
  }
  std::printf("when the job array has finished, run this sweep again to tabulate (points done are not run again)\n");
  return 0;
}

}  // namespace avp
