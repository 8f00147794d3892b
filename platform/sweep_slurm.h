// Running a sweep's points as a Slurm job array.
#pragma once
#include <string>
#include <vector>

#include "sweep_table.h"

namespace avp {

// Writes <out>/sweep.sbatch, one array task per point of `todo` (each runs
// `exe` with the point's arguments), and submits it with sbatch when sbatch is
// on PATH. Returns the exit code for the command: 0 when written (and
// submitted), 1 when sbatch failed.
int submit_slurm_array(const std::vector<const SweepPoint*>& todo, const std::string& exe, const std::string& out);

}  // namespace avp
