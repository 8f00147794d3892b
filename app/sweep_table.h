// The grid of a parameter sweep, its points' completion and the table of results.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace avp {

struct SweepPoint {
  std::vector<std::pair<std::string, std::string>> values;  // parameter -> value
  std::string dir;                                          // the point's output directory
  std::vector<std::string> args;                            // its accel-vp arguments (without the program)
};

using SweepAxes = std::vector<std::pair<std::string, std::vector<std::string>>>;

// Every combination of the axes' values, the first axis varying slowest; the
// directory name encodes the values, so a point is found again on resume.
// Throws ParamError for repeated values or values that name the same directory.
std::vector<SweepPoint> sweep_grid(const SweepAxes& axes, const std::string& out);
// True when the point's manifest is complete (a run that finished with exit
// code 0) and was made by the same arguments: such a point is not run again.
bool point_complete(const SweepPoint& point);
// How the point's last run ended, from its manifest ("time_limit",
// "interrupted by SIGINT", ...); empty when it left no manifest.
std::string point_ending(const SweepPoint& point);
// The unit of a metric ("ns", "fraction", a statistic's unit; "" for counts
// without one). Needs the elaborated platform's statistics.
std::string metric_unit(const std::string& metric);
// Whether `metric` names a numeric manifest field ("simulated_time_ns") or a
// field of a statistic of the elaborated platform ("cmp.busy.fraction");
// unit instance numbers may differ ("harts.hart7..." matches "harts.hart0...").
bool known_metric(const std::string& metric);
// The metric names `known_metric` accepts, for error messages.
std::vector<std::string> metric_names();
// Reads each point's manifest and writes results.csv, results.json and a
// self-contained sweep.html charting each metric against the first parameter.
// Values are rounded to 10 significant digits (no float noise such as
// 37516.00000000001). `interrupted_by`: the signal that stopped the sweep
// (partial results), or "". Returns the metrics no point has a value for.
std::vector<std::string> write_sweep_results(const std::vector<SweepPoint>& points, const SweepAxes& axes,
                                             const std::vector<std::string>& metrics,
                                             const std::map<std::string, std::string>& units, const std::string& out,
                                             const std::string& interrupted_by);

}  // namespace avp
