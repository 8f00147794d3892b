#include "report/stats_text.h"

#include <cstdio>
#include <fstream>

#include "base/params.h"
#include "base/stats.h"

namespace avp {
namespace {

void line(std::string& out, const std::string& name, const std::string& value, const std::string& what) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-52s %20s   # %s\n", name.c_str(), value.c_str(), what.c_str());
  out += buf;
}

std::string number(double v) {
  char buf[64];
  if (v == static_cast<double>(static_cast<long long>(v)) && v < 1e18 && v > -1e18)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

}  // namespace

std::string stats_text_section(const std::string& title, double time_ns, double since_ns, const nlohmann::json& statistics) {
  std::string out = "\n---------- Begin Simulation Statistics ----------\n";
  out += "# " + title + "\n";
  line(out, "sim_time_ns", number(time_ns), "simulated time of this section's end (ns)");
  line(out, "since_ns", number(since_ns), "statistics counted since (last reset, ns)");
  for (const auto& [name, s] : statistics.items()) {
    const std::string type = s["type"];
    const std::string desc = s.value("description", "");
    const std::string unit = s.value("unit", "");
    const std::string what = desc + (unit.empty() ? "" : " (" + unit + ")");
    if (type == "counter") {
      line(out, name, number(s["value"].get<double>()), what);
    } else if (type == "histogram") {
      line(out, name + "::samples", number(s["count"].get<double>()), desc + " (samples)");
      for (const char* k : {"mean", "min", "max", "p50", "p95", "p99"}) line(out, name + "::" + k, number(s[k].get<double>()), what);
      line(out, name + "::total", number(s["sum"].get<double>()), what);
    } else if (type == "utilisation") {
      line(out, name, number(s["fraction"].get<double>()), desc + " (busy fraction)");
      line(out, name + "::busy_ns", number(s["busy_ns"].get<double>()), desc + " (busy time, ns)");
    } else if (type == "occupancy") {
      line(out, name + "::mean", number(s["mean"].get<double>()), what + ", time-weighted mean");
      line(out, name + "::max", number(s["max"].get<double>()), what + ", maximum");
    }
  }
  out += "---------- End Simulation Statistics   ----------\n";
  return out;
}

void write_stats_text(const std::string& path, const nlohmann::json& final_stats, double end_ns) {
  std::ofstream f(path);
  if (!f) throw ParamError(path + ": cannot write the statistics");
  const StatRegistry& reg = StatRegistry::instance();
  for (const auto& d : reg.dumps())
    f << stats_text_section("dump " + std::to_string(d["index"].get<int>()) + " by " + d["label"].get<std::string>(),
                            d["time_ns"].get<double>(), d["since_ns"].get<double>(), d["statistics"]);
  if (reg.dumps_dropped()) f << "\n# " << reg.dumps_dropped() << " later dump(s) not kept (at most " << StatRegistry::kMaxDumps << ")\n";
  f << stats_text_section("end of the run", end_ns, reg.since().to_seconds() * 1e9, final_stats);
}

}  // namespace avp
