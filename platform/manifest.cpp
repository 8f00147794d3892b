#include "manifest.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <sstream>

#include <systemc>

#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "platform.h"
#include "session.h"

namespace avp {

namespace {

double peak_rss_mib() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

}  // namespace

nlohmann::json build_manifest(const Platform& platform, const SessionOptions& opt, const std::string& workload,
                              const RunResult& res, const RunEnding& ending) {
  const nlohmann::json params = ParamRegistry::instance().to_json();
  std::ostringstream hash;
  hash << std::hex << fnv1a64(params.dump());
  nlohmann::json m;
  m["tool"] = "accel-vp";
  m["version"] = version_string();
  m["systemc"] = sc_core::sc_version();
  m["command_line"] = opt.command_line;
  m["config_file"] = opt.config_file;
  m["sets"] = opt.sets;
  m["workload"] = workload;
  m["seed"] = platform.seed.get();
  m["quantum_ns"] = platform.quantum.get().to_default_time_units();
  m["config_hash"] = hash.str();
  m["parameters"] = params;
  m["exit_code"] = res.exit_code;
  m["finished"] = res.finished;
  m["ending"] = ending.kind;
  m["ending_message"] = ending.message;
  m["simulated_time_ns"] = sc_core::sc_time_stamp().to_default_time_units();
  m["wall_time_s"] = res.wall_seconds;
  m["speed_sim_per_wall"] = res.wall_seconds > 0 ? res.sim_seconds / res.wall_seconds : 0;
  m["peak_memory_mib"] = peak_rss_mib();  // measured now, at the end of the run
  m["warnings"] = log_count(Level::Warn);
  m["errors"] = log_count(Level::Error);
  m["statistics"] = StatRegistry::instance().to_json();
  nlohmann::json console = nlohmann::json::array();
  for (const auto& l : platform.harts.console_lines())
    console.push_back({{"hart", l.hart}, {"time_ns", l.time.to_seconds() * 1e9}, {"text", l.text}});
  m["console"] = console;
  m["console_dropped"] = platform.harts.console_dropped();
  return m;
}

bool write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace avp
