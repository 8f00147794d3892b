// What a run leaves behind: the manifest, report.json/html, the timeline and
// traces, and the summary on stdout. Written at the end of a run, and for the
// statistics alone whenever SIGUSR1 asks during one.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "base/trace.h"
#include "session.h"

namespace avp {

class Platform;

// How a run came to its end, for the manifest and the summary.
struct RunEnd {
  bool finished = false;   // the workload returned
  int signal = 0;          // SIGINT/SIGTERM stopped it (0: not interrupted)
  bool time_limit = false; // platform.time_limit reached
};

// The manifest of the run so far (everything needed to reproduce it).
nlohmann::json build_manifest(Platform& platform, const SessionOptions& opt, const std::string& name,
                              const RunResult& res, const RunEnd& end);
// Writes manifest.json, report.json and report.html into opt.out_dir; returns
// the report document. `timeline`: the closed timeline's digest, if any.
nlohmann::json write_run_files(const nlohmann::json& manifest, const SessionOptions& opt, const TimelineDigest* timeline);
// The summary on stdout.
void print_summary(const nlohmann::json& manifest, const nlohmann::json& report, const SessionOptions& opt,
                   const std::string& name);

}  // namespace avp
