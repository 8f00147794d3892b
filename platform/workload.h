// Named workloads that `accel-vp run <name>` runs. A workload is host software:
// it runs in the simulation's host thread and returns the process exit code.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace avp {

class Platform;

struct WorkloadArgs {
  std::vector<std::string> args;  // what follows `--` on the command line
};

struct Workload {
  std::string name;
  std::string description;
  std::function<int(Platform&, const WorkloadArgs&)> run;
};

void register_workload(Workload w);
const Workload* find_workload(const std::string& name);
std::vector<const Workload*> all_workloads();  // sorted by name
// Registers the workloads of every part of the platform (workload_list.cpp).
void register_all_workloads();

// The workload `make run` runs.
extern const char* const kDefaultWorkload;

}  // namespace avp
