#include "report/run_report.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "base/params.h"
#include "base/stats.h"
#include "base/trace.h"
#include "report_html.h"

namespace avp {

namespace {
// "dma.ch0.busy" belongs to unit "dma.ch0"; "cmp.command_latency" to "cmp".
std::string unit_of_stat(const std::string& name) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

// Statistics (name -> stat, as StatRegistry::to_json) grouped by unit, with
// the derived per-hart figures.
nlohmann::json group_by_unit(const nlohmann::json& statistics) {
  nlohmann::json units = nlohmann::json::object();
  for (const auto& [name, j] : statistics.items()) {
    const std::string unit = unit_of_stat(name);
    const std::string stat = name.substr(unit.size() + (unit.size() < name.size() ? 1 : 0));
    const std::string type = j["type"];
    const char* group = type == "histogram"     ? "histograms"
                        : type == "utilisation" ? "utilisation"
                        : type == "occupancy"   ? "occupancy"
                                                : "counters";
    units[unit][group][stat] = j;
  }
  // Derived per-hart figures: IPC, cache hit rates, stall time by cause.
  for (auto& [unit, g] : units.items()) {
    if (!g.contains("counters")) continue;
    const auto& c = g["counters"];
    auto value = [&](const std::string& k) { return c.contains(k) ? c[k]["value"].get<double>() : 0.0; };
    if (c.contains("instructions") && value("active_cycles") > 0) g["derived"]["ipc"] = value("instructions") / value("active_cycles");
    if (c.contains("instructions") && value("cycles") > 0) g["derived"]["issue_ipc"] = value("instructions") / value("cycles");
    for (const std::string cache : {"icache", "dcache"}) {
      const double hits = value(cache + "_hits"), misses = value(cache + "_misses");
      if (hits + misses > 0) g["derived"][cache + "_hit_rate"] = hits / (hits + misses);
    }
    const double busy_ps = g.contains("utilisation") && g["utilisation"].contains("busy")
                               ? g["utilisation"]["busy"]["busy_ns"].get<double>() * 1e3
                               : 0;
    for (const auto& [name, counter] : c.items()) {
      if (name.rfind("stall_", 0) != 0) continue;
      g["derived"]["stall_ns"][name.substr(6)] = counter["value"].get<double>() / 1e3;
      if (busy_ps > 0) g["derived"]["stall_fraction"][name.substr(6)] = counter["value"].get<double>() / busy_ps;
    }
  }
  return units;
}
}  // namespace

nlohmann::json build_report(const nlohmann::json& manifest, const TimelineDigest* timeline) {
  nlohmann::json r;
  r["schema"] = "accel-vp-report/1";
  for (const char* k : {"version", "workload", "seed", "config_hash", "quantum_ns", "simulated_time_ns", "wall_time_s",
                        "speed_sim_per_wall", "real_time_paced", "paced_sleep_s", "instructions", "mips", "peak_memory_mib", "exit_code", "finished",
                        "interrupted_by", "snapshot"})
    if (manifest.contains(k)) r["run"][k] = manifest[k];
  for (const char* k : {"command_line", "config_file", "sets", "non_default_parameters"})
    if (manifest.contains(k)) r["configuration"][k] = manifest[k];
  if (manifest.contains("outputs")) r["outputs"] = manifest["outputs"];
  const nlohmann::json units = group_by_unit(manifest.contains("statistics") ? manifest["statistics"]
                                                                            : StatRegistry::instance().to_json());
  // Region-of-interest dumps, each a section like "units"; "units" itself covers the end of the run (since the last reset).
  const StatRegistry& reg = StatRegistry::instance();
  r["statistics_since_ns"] = reg.since().to_seconds() * 1e9;
  r["dumps"] = nlohmann::json::array();
  for (const auto& d : reg.dumps())
    r["dumps"].push_back({{"index", d["index"]}, {"label", d["label"]}, {"time_ns", d["time_ns"]}, {"since_ns", d["since_ns"]},
                          {"units", group_by_unit(d["statistics"])}});
  if (reg.dumps_dropped()) r["dumps_dropped"] = reg.dumps_dropped();
  r["units"] = units;
  if (manifest.contains("console")) r["console"] = manifest["console"];
  r["trace"] = {{"enabled", timeline != nullptr}};
  if (timeline) {
    r["trace"]["events"] = Trace::instance().event_count();
    r["trace"]["slices"] = timeline->total_slices;
    r["trace"]["cut_at_end_of_run"] = timeline->clipped;
    r["trace"]["dropped_past_end_of_run"] = timeline->dropped;
  }
  return r;
}

void write_report_json(const nlohmann::json& report, const std::string& path) {
  std::ofstream f(path);
  if (!f) throw ParamError(path + ": cannot write the report");
  f << report.dump(2) << "\n";
}

void write_report_html(const nlohmann::json& report, const TimelineDigest* timeline, const std::string& path) {
  std::ofstream f(path);
  if (!f) throw ParamError(path + ": cannot write the report");
  f << report_html_page(report.dump(), timeline ? timeline->to_json().dump() : "null");
}

std::vector<std::string> busiest_units(const nlohmann::json& report, size_t count) {
  std::vector<std::pair<double, std::string>> busy;
  for (const auto& [unit, groups] : report["units"].items()) {
    if (!groups.contains("utilisation")) continue;
    for (const auto& [stat, u] : groups["utilisation"].items())
      busy.push_back({u["fraction"].get<double>(), unit + "." + stat});
  }
  std::sort(busy.begin(), busy.end(), [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
  std::vector<std::string> lines;
  for (size_t i = 0; i < busy.size() && i < count && busy[i].first > 0; ++i) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%-28s %5.1f %% busy", busy[i].second.c_str(), 100 * busy[i].first);
    lines.push_back(buf);
  }
  return lines;
}

}  // namespace avp
