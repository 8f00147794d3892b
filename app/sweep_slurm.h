// Running a sweep's points as a Slurm job array.
#pragma once
#include <string>
#include <vector>

#include "sweep_table.h"

namespace avp {

// What the job script asks of Slurm beyond one CPU per task, and whether to submit it.
struct SlurmOptions {
  bool script_only = false;  // write sweep.sbatch, do not call sbatch
  std::string partition, time, mem;  // #SBATCH --partition, --time, --mem (empty: the cluster's default)
};

// Writes <out>/sweep.sbatch, one array task per point of `todo` (each runs
// `exe` with the point's arguments), and submits it with sbatch when sbatch is
// on PATH (and not script_only). Returns the exit code for the command: 0 when
// written (and submitted), 1 when writing or sbatch failed (with what to do).
int submit_slurm_array(const std::vector<const SweepPoint*>& todo, const std::string& exe, const std::string& out,
                       const SlurmOptions& options);

}  // namespace avp
