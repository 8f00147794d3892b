#include "sweep_table.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "base/params.h"
#include "base/stats.h"
#include "sweep_chart.h"

namespace avp {

namespace {

// The numeric fields a manifest has besides its statistics.
const std::vector<std::string> kManifestMetrics{"simulated_time_ns", "wall_time_s", "speed_sim_per_wall",
                                                "peak_memory_mib", "exit_code",   "seed",
                                                "quantum_ns",        "warnings",    "errors"};

std::string safe(const std::string& s) {
  std::string r;
  for (char c : s) r += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
  return r;
}

// "harts.hart7.instructions" -> "harts.hart#.instructions": unit instances
// that exist or not depending on the swept shape.
std::string instance_pattern(const std::string& s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(s[i])) && i > 0 && std::isalpha(static_cast<unsigned char>(s[i - 1]))) {
      r += '#';
      while (i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) ++i;
    } else {
      r += s[i];
    }
  }
  return r;
}

nlohmann::json read_manifest(const std::string& dir) {
  std::ifstream f(dir + "/manifest.json");
  return f ? nlohmann::json::parse(f, nullptr, false) : nlohmann::json();
}

// A metric is a manifest field ("simulated_time_ns") or "<statistic>.<field>"
// ("cmp.busy.fraction", "dma.bytes.value"). Null when the point has no value.
nlohmann::json metric_value(const nlohmann::json& m, const std::string& metric) {
  if (!m.is_object()) return nullptr;
  if (m.contains(metric) && m[metric].is_number()) return m[metric];
  const size_t dot = metric.rfind('.');
  if (dot == std::string::npos) return nullptr;
  const std::string stat = metric.substr(0, dot), field = metric.substr(dot + 1);
  if (m.contains("statistics") && m["statistics"].contains(stat) && m["statistics"][stat].contains(field) &&
      m["statistics"][stat][field].is_number())
    return m["statistics"][stat][field];
  return nullptr;
}

// A metric's value as results.csv/json hold it: integers as they are, other
// numbers to 10 significant digits (what a simulated time or a ratio means;
// the float noise of sums goes).
nlohmann::json rounded(const nlohmann::json& v) {
  if (!v.is_number_float()) return v;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v.get<double>());
  const double r = std::strtod(buf, nullptr);
  if (r == std::floor(r) && std::fabs(r) < 9e15) return static_cast<int64_t>(r);
  return r;
}

std::string join_args(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += " " + a;
  return s;
}

}  // namespace

std::vector<SweepPoint> sweep_grid(const SweepAxes& axes, const std::string& out) {
  std::vector<SweepPoint> points{SweepPoint{}};
  for (const auto& [name, values] : axes) {
    std::vector<SweepPoint> next;
    for (const auto& p : points)
      for (const auto& v : values) {
        SweepPoint q = p;
        q.values.push_back({name, v});
        next.push_back(q);
      }
    points = next;
  }
  std::set<std::string> dirs;
  for (auto& p : points) {
    std::string dir = out + "/point";
    for (const auto& [name, v] : p.values) dir += "_" + safe(name) + "-" + safe(v);
    p.dir = dir;
    if (!dirs.insert(dir).second)
      throw ParamError("sweep: two points would share the directory " + dir + " (a value repeated, or values differing only in punctuation)");
  }
  return points;
}

bool point_complete(const SweepPoint& point) {
  const nlohmann::json m = read_manifest(point.dir);
  if (!m.is_object() || m.value("exit_code", -1) != 0 || !m.value("finished", false)) return false;
  // The command line recorded by the run ends with the point's arguments.
  const std::string line = m.value("command_line", ""), tail = join_args(point.args);
  return line.size() >= tail.size() && line.compare(line.size() - tail.size(), tail.size(), tail) == 0;
}

std::string point_ending(const SweepPoint& point) {
  const nlohmann::json m = read_manifest(point.dir);
  if (!m.is_object() || !m.contains("ending")) return {};
  if (m.contains("interrupted_by")) return "interrupted by " + m["interrupted_by"].get<std::string>();
  return m["ending"].get<std::string>();
}

std::string metric_unit(const std::string& metric) {
  static const std::map<std::string, std::string> manifest_units{
      {"simulated_time_ns", "ns"}, {"wall_time_s", "s"}, {"speed_sim_per_wall", "simulated s per wall s"},
      {"peak_memory_mib", "MiB"}, {"quantum_ns", "ns"}};
  if (const auto it = manifest_units.find(metric); it != manifest_units.end()) return it->second;
  const size_t dot = metric.rfind('.');
  if (dot == std::string::npos) return {};
  const std::string stat = instance_pattern(metric.substr(0, dot)), field = metric.substr(dot + 1);
  if (field == "fraction") return "fraction";
  if (field.size() > 3 && field.compare(field.size() - 3, 3, "_ns") == 0) return "ns";
  if (field == "count" || field == "samples") return {};
  for (const StatBase* s : StatRegistry::instance().all())
    if (instance_pattern(s->name()) == stat) return s->unit();
  return {};
}

bool known_metric(const std::string& metric) {
  for (const auto& m : kManifestMetrics)
    if (m == metric) return true;
  const size_t dot = metric.rfind('.');
  if (dot == std::string::npos) return false;
  const std::string stat = instance_pattern(metric.substr(0, dot)), field = metric.substr(dot + 1);
  for (const StatBase* s : StatRegistry::instance().all())
    if (instance_pattern(s->name()) == stat) {
      const nlohmann::json j = s->to_json();
      return j.contains(field) && j[field].is_number();
    }
  return false;
}

std::vector<std::string> metric_names() {
  std::vector<std::string> names = kManifestMetrics;
  for (const StatBase* s : StatRegistry::instance().all()) {
    const nlohmann::json j = s->to_json();
    for (const auto& [field, value] : j.items())
      if (value.is_number()) names.push_back(s->name() + "." + field);
  }
  return names;
}

std::vector<std::string> write_sweep_results(const std::vector<SweepPoint>& points, const SweepAxes& axes,
                                             const std::vector<std::string>& metrics,
                                             const std::map<std::string, std::string>& units, const std::string& out,
                                             const std::string& interrupted_by) {
  nlohmann::json rows = nlohmann::json::array();
  std::ofstream csv(out + "/results.csv");
  for (const auto& a : axes) csv << a.first << ",";
  for (size_t i = 0; i < metrics.size(); ++i) csv << metrics[i] << (i + 1 < metrics.size() ? "," : "\n");
  std::set<std::string> seen;
  for (const auto& p : points) {
    nlohmann::json row;
    for (const auto& [name, v] : p.values) row[name] = v;
    // The point's own report, relative to the sweep directory (sweep.html links it).
    row["report"] = std::filesystem::path(p.dir + "/report.html").lexically_relative(out).generic_string();
    const nlohmann::json m = point_complete(p) ? read_manifest(p.dir) : nlohmann::json();
    for (const auto& metric : metrics) {
      row[metric] = rounded(metric_value(m, metric));
      if (!row[metric].is_null()) seen.insert(metric);
    }
    for (const auto& [name, v] : p.values) csv << v << ",";
    for (size_t i = 0; i < metrics.size(); ++i)
      csv << (row[metrics[i]].is_null() ? "" : row[metrics[i]].dump()) << (i + 1 < metrics.size() ? "," : "\n");
    rows.push_back(row);
  }
  nlohmann::json names = nlohmann::json::array();
  for (const auto& a : axes) names.push_back(a.first);
  nlohmann::json doc = {{"axes", names}, {"metrics", metrics}, {"units", units}, {"rows", rows}};
  if (!interrupted_by.empty()) doc["interrupted_by"] = interrupted_by;
  std::ofstream(out + "/results.json") << doc.dump(2) << "\n";
  std::ofstream(out + "/sweep.html") << sweep_chart_html(doc);
  std::vector<std::string> missing;
  for (const auto& metric : metrics)
    if (!seen.count(metric)) missing.push_back(metric);
  return missing;
}

}  // namespace avp
