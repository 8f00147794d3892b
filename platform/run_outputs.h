// What a run leaves behind: the manifest, report.json/html, the timeline and
// traces, and the summary on stdout. Written at the end of a run, and for the
// statistics alone whenever SIGUSR1 asks during one.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "base/trace.h"
#include "platform/session.h"

namespace avp {

class Platform;

// How a run came to its end, for the manifest and the summary.
struct RunEnd {
  bool finished = false;   // the workload returned
  int signal = 0;          // SIGINT/SIGTERM stopped it (0: not interrupted)
  bool time_limit = false; // platform.time_limit reached
  bool killed = false;     // the debugger's kill stopped the simulation
  std::string error;       // an exception ended the run: its message
  std::string message;     // one line for people ("" for a normal end)
  // "finished", "interrupted", "time_limit", "killed", "error" or "starved".
  std::string kind() const;
};

// The manifest of the run so far (everything needed to reproduce it).
nlohmann::json build_manifest(Platform& platform, const SessionOptions& opt, const std::string& name,
                              const RunResult& res, const RunEnd& end);
// Writes manifest.json (atomically: temporary file, then rename), report.json and report.html into opt.out_dir; returns
// the report document. `timeline`: the closed timeline's digest, if any.
// Writes manifest.json alone (atomically), for runs ended by an exception.
void write_manifest_file(const nlohmann::json& manifest, const SessionOptions& opt);
nlohmann::json write_run_files(const nlohmann::json& manifest, const SessionOptions& opt, const TimelineDigest* timeline);
// The summary on stdout.
void print_summary(const nlohmann::json& manifest, const nlohmann::json& report, const SessionOptions& opt,
                   const std::string& name);

}  // namespace avp
