// <out>/manifest.json: everything needed to reproduce a run (version, command
// line, parameters, seed, config hash), its results and how it ended. Written
// atomically (temporary file, then rename) so a reader never sees half of one.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace avp {

class Platform;
struct SessionOptions;
struct RunResult;

// How a run ended: kind is "finished", "time_limit", "starved", "error" or
// "interrupted"; message is one line for people ("" for a normal end).
struct RunEnding {
  std::string kind = "finished";
  std::string message;
};

nlohmann::json build_manifest(const Platform& platform, const SessionOptions& opt, const std::string& workload,
                              const RunResult& res, const RunEnding& ending);

// Writes `text` to `path` through a temporary file in the same directory and
// rename(2); false (and no partial file) when it cannot.
bool write_file_atomically(const std::string& path, const std::string& text);

}  // namespace avp
