// Figures of a benchmark program for <build>/bench/results.json. Each figure
// has a name, a value and a unit, and where one exists the reference measured
// in the same run (the ratio figure / reference is what bench/baseline.json
// records, so figures compare across machines and loads). The driver
// (bench/bench.py) sets AVP_BENCH_RESULTS to the file the program writes on
// exit; run by hand, the program only prints its own lines.
#pragma once
#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace avp {

class BenchResults {
 public:
  // higher_is_better: false for times (ns per access), true for rates.
  void add(const std::string& name, double value, const std::string& unit, bool higher_is_better = true) {
    figures_.push_back({{"name", name}, {"value", value}, {"unit", unit}, {"higher_is_better", higher_is_better}});
  }
  void add(const std::string& name, double value, const std::string& unit, const std::string& reference,
           double reference_value, bool higher_is_better = true) {
    add(name, value, unit, higher_is_better);
    figures_.back()["reference"] = {{"name", reference}, {"value", reference_value}, {"unit", unit}};
  }
  ~BenchResults() {
    const char* path = std::getenv("AVP_BENCH_RESULTS");
    if (path && *path) std::ofstream(path) << nlohmann::json{{"figures", figures_}}.dump(2) << "\n";
  }

 private:
  nlohmann::json figures_ = nlohmann::json::array();
};

}  // namespace avp
