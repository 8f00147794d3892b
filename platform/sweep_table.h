// The grid of a parameter sweep and the table of its results.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace avp {

struct SweepPoint {
  std::vector<std::pair<std::string, std::string>> values;  // parameter -> value
  std::string dir;                                          // the point's output directory
};

using SweepAxes = std::vector<std::pair<std::string, std::vector<std::string>>>;

// Every combination of the axes' values, the first axis varying slowest; the
// directory name encodes the values, so a point is found again on resume.
std::vector<SweepPoint> sweep_grid(const SweepAxes& axes, const std::string& out);
// Reads each point's manifest and writes results.csv, results.json and a
// self-contained sweep.html charting each metric against the first parameter.
void write_sweep_results(const std::vector<SweepPoint>& points, const SweepAxes& axes,
                         const std::vector<std::string>& metrics, const std::string& out);

}  // namespace avp
