// Named workloads that `accel-vp run <name>` runs. A workload is host software:
// it runs in the simulation's host thread and returns the process exit code.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace avp {

class Platform;

struct WorkloadArgs {
  std::vector<std::string> args;  // `run WORKLOAD --args ...`, checked against Workload::args
};

// One positional argument of a workload: a number in [min, max] (a multiple
// of `multiple_of`), or the path of an existing file.
struct WorkloadArg {
  std::string name, description;
  uint64_t min = 0, max = 0, multiple_of = 1;
  bool file = false;
  std::string default_value;
  static WorkloadArg number(std::string name, uint64_t min, uint64_t max, uint64_t dflt, std::string description,
                            uint64_t multiple_of = 1);
  static WorkloadArg path(std::string name, std::string dflt, std::string description);
};

struct Workload {
  std::string name;
  std::string description;
  std::function<int(Platform&, const WorkloadArgs&)> run;
  std::vector<WorkloadArg> args;  // the arguments it takes, in order, all optional
};

// Empty when `given` suits the workload's arguments; else a one-line error.
std::string check_workload_args(const Workload& w, const std::vector<std::string>& given);
// "n (1..1048576, default 1024): elements per vector", one line per argument.
std::vector<std::string> describe_workload_args(const Workload& w);

void register_workload(Workload w);
const Workload* find_workload(const std::string& name);
std::vector<const Workload*> all_workloads();  // sorted by name

}  // namespace avp
