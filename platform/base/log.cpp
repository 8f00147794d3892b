#include "base/log.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <systemc>

#include "base/params.h"
#include "base/status_line.h"

namespace avp {
namespace {

struct LogState {
  Level default_level = Level::Warn;
  std::map<std::string, Level> prefixes;
  uint64_t generation = 0;
  uint64_t counts[5] = {};
  std::map<std::string, uint64_t> problems;  // warnings and errors per module
};

// Warnings and errors a module shows in full; past them only every power of
// ten is shown, with the count, so a flood of bad accesses cannot flood the log.
constexpr uint64_t kShownProblems = 100;

bool power_of_ten(uint64_t n) {
  while (n % 10 == 0 && n >= 10) n /= 10;
  return n == 1;
}

LogState& state() {
  static LogState s;
  return s;
}

const char* level_name(Level l) {
  static const char* names[] = {"error", "warn", "info", "debug", "trace"};
  return names[static_cast<int>(l)];
}

void handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY) {
    status_line_end();
    const char* sev = "info";
    switch (rep.get_severity()) {
      case sc_core::SC_WARNING: sev = "warn"; break;
      case sc_core::SC_ERROR: sev = "error"; break;
      case sc_core::SC_FATAL: sev = "fatal"; break;
      default: sev = rep.get_verbosity() >= sc_core::SC_DEBUG ? "trace" : rep.get_verbosity() >= sc_core::SC_HIGH ? "debug" : "info";
    }
    const char* msg = rep.get_msg();
    // Model errors travel as SystemC warnings (never thrown): shown as errors.
    if (rep.get_severity() == sc_core::SC_WARNING && std::strncmp(msg, "error: ", 7) == 0) {
      sev = "error";
      msg += 7;
    }
    std::fprintf(stderr, "[%14s] %-5s %s: %s\n", format_time(sc_core::sc_time_stamp()).c_str(), sev, rep.get_msg_type(), msg);
  }
  // SystemC's own errors keep their default behaviour (throw / abort).
  sc_core::sc_report_handler::default_handler(rep, actions & ~sc_core::SC_DISPLAY);
}

}  // namespace

Level parse_level(const std::string& t) {
  for (int i = 0; i <= 4; ++i)
    if (t == level_name(static_cast<Level>(i))) return static_cast<Level>(i);
  throw ParamError("log level '" + t + "' is not one of error, warn, info, debug, trace");
}

void set_default_log_level(Level l) {
  state().default_level = l;
  ++state().generation;
}

void set_log_level(const std::string& prefix, Level l) {
  state().prefixes[prefix] = l;
  ++state().generation;
}

void reset_log_levels() {
  state().prefixes.clear();
  state().default_level = Level::Warn;
  ++state().generation;
}

void install_log_handler() {
  sc_core::sc_report_handler::set_handler(handler);
  // Filtering is ours (per module); let every info report through SystemC.
  sc_core::sc_report_handler::set_verbosity_level(sc_core::SC_DEBUG);
}

Level log_level(const std::string& module) {
  // The longest matching prefix wins.
  Level l = state().default_level;
  size_t best = 0;
  for (const auto& [prefix, lvl] : state().prefixes) {
    if (module.compare(0, prefix.size(), prefix) == 0 && prefix.size() >= best) {
      best = prefix.size();
      l = lvl;
    }
  }
  return l;
}

void log_emit(const std::string& module, Level l, const std::string& text) {
  ++state().counts[static_cast<int>(l)];
  std::string msg = text;
  if (l <= Level::Warn) {
    const uint64_t n = ++state().problems[module];
    if (n > kShownProblems && !power_of_ten(n)) return;
    if (n == kShownProblems)
      msg += " (" + std::to_string(n) + " warnings from here: further ones are counted and shown at every power of ten)";
    else if (n > kShownProblems)
      msg += " (" + std::to_string(n) + " warnings from here so far)";
  }
  switch (l) {
    case Level::Error:
      // Model errors are reported, never thrown: the device reports them to software.
      sc_core::sc_report_handler::report(sc_core::SC_WARNING, module.c_str(), ("error: " + msg).c_str(), __FILE__, __LINE__);
      break;
    case Level::Warn:
      sc_core::sc_report_handler::report(sc_core::SC_WARNING, module.c_str(), msg.c_str(), __FILE__, __LINE__);
      break;
    case Level::Info:
      sc_core::sc_report_handler::report(sc_core::SC_INFO, module.c_str(), msg.c_str(), sc_core::SC_MEDIUM, __FILE__, __LINE__);
      break;
    case Level::Debug:
      sc_core::sc_report_handler::report(sc_core::SC_INFO, module.c_str(), msg.c_str(), sc_core::SC_HIGH, __FILE__, __LINE__);
      break;
    case Level::Trace:
      sc_core::sc_report_handler::report(sc_core::SC_INFO, module.c_str(), msg.c_str(), sc_core::SC_DEBUG, __FILE__, __LINE__);
      break;
  }
}

uint64_t log_count(Level l) { return state().counts[static_cast<int>(l)]; }

bool Logger::enabled(Level l) const {
  if (generation_ != state().generation) {
    level_ = log_level(module_);
    generation_ = state().generation;
  }
  return l <= level_;
}

}  // namespace avp
