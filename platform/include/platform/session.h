// One run of the platform: presets -> elaboration -> host workload -> manifest.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace avp {

class Platform;

struct SessionOptions {
  std::string config_file;             // empty: configs/default.yaml is not implied; defaults apply
  std::vector<std::string> sets;       // "name=value"
  std::map<std::string, std::string> set_origins;  // a "name=value" of sets -> the shorthand option that set it (--timed-from)
  std::string out_dir = "accel-vp-out";
  std::string command_line;
  bool progress = true;                // progress line on stderr when it is a terminal
  bool quiet = false;                  // no summary on stdout
  std::string timeline_file;           // non-empty: record the timeline and write it there
  std::string trace;                   // text trace categories ("insn,mem"); empty: no text trace
  std::string trace_file;              // empty: <out_dir>/trace.log
  std::string trace_harts;             // "0,3-5"; empty: every hart
  std::string trace_window;            // "10us:25us"; empty: the whole run
  std::string vcd_file;                // non-empty: record the interrupt lines as a VCD and write it there
  bool uart_on_stdio = false;          // the UART uses stdin/stdout: no progress line on that terminal
  std::function<void()> between_chunks;  // called while the run is paused between chunks (a GDB server's attach)
};

// Loads presets from the options (throws ParamError with file:line or --set).
void load_presets(const SessionOptions& opt);

struct RunResult {
  int exit_code = 0;
  bool finished = false;  // the workload returned (false: starved or hit the time limit)
  double sim_seconds = 0, wall_seconds = 0;
  bool paced = false;          // real-time pacing (platform.pace)
  double paced_seconds = 0;    // wall time it slept for
  nlohmann::json manifest;
};

// Runs `body` as the host thread of `platform` until it returns, then writes
// <out_dir>/manifest.json and prints the summary. `name` labels the workload.
RunResult run_session(Platform& platform, const SessionOptions& opt, const std::string& name,
                      const std::function<int(Platform&)>& body);

std::string version_string();
uint64_t fnv1a64(const std::string& s);

}  // namespace avp
