#include "run_report.h"

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
}  // namespace

nlohmann::json build_report(const nlohmann::json& manifest) {
  nlohmann::json r;
  r["schema"] = "accel-vp-report/1";
  for (const char* k : {"version", "workload", "seed", "config_hash", "quantum_ns", "simulated_time_ns", "wall_time_s",
                        "speed_sim_per_wall", "peak_memory_mib", "exit_code", "finished"})
    if (manifest.contains(k)) r["run"][k] = manifest[k];
  nlohmann::json units = nlohmann::json::object();
  for (const StatBase* s : StatRegistry::instance().all()) {
    const std::string unit = unit_of_stat(s->name());
    const std::string stat = s->name().substr(unit.size() + (unit.size() < s->name().size() ? 1 : 0));
    nlohmann::json j = s->to_json();
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
  r["units"] = units;
  if (manifest.contains("console")) r["console"] = manifest["console"];
  const Trace& t = Trace::instance();
  r["trace"] = {{"enabled", t.enabled()}, {"events", t.event_count()}};
  return r;
}

void write_report_json(const nlohmann::json& report, const std::string& path) {
  std::ofstream f(path);
  if (!f) throw ParamError(path + ": cannot write the report");
  f << report.dump(2) << "\n";
}

void write_report_html(const nlohmann::json& report, const std::string& path) {
  std::ofstream f(path);
  if (!f) throw ParamError(path + ": cannot write the report");
  nlohmann::json timeline = nlohmann::json::array();
  nlohmann::json tracks = nlohmann::json::object();
  const Trace& t = Trace::instance();
  if (t.enabled()) {
    const nlohmann::json trace = t.to_json();
    // The timeline shows at most this many slices, the earliest first.
    constexpr size_t kMaxSlices = 20000;
    for (const auto& e : trace["traceEvents"]) {
      if (e["ph"] == "M" && e["name"] == "thread_name") tracks[std::to_string(e["tid"].get<int>())] = e["args"]["name"];
      if (timeline.size() >= kMaxSlices) continue;
      if (e["ph"] == "X") timeline.push_back({e["tid"], e["name"], e["ts"], e["dur"]});
    }
  }
  f << report_html_page(report.dump(), timeline.dump(), tracks.dump());
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
