// Logging through SystemC's report handler with per-module verbosity.
// Modules are SystemC names ("harts.core0.hart1"); `--log prefix=level` sets
// the level of every module whose name starts with the prefix.
#pragma once
#include <cstdint>
#include <sstream>
#include <string>

namespace avp {

enum class Level { Error = 0, Warn = 1, Info = 2, Debug = 3, Trace = 4 };

Level parse_level(const std::string& text);  // throws ParamError
void set_default_log_level(Level l);
void set_log_level(const std::string& module_prefix, Level l);
void reset_log_levels();
// Installs the report handler (time-stamped lines on stderr). Idempotent.
void install_log_handler();
Level log_level(const std::string& module);
void log_emit(const std::string& module, Level l, const std::string& msg);
// Number of messages at Warn or Error since start (for the run summary and tests).
uint64_t log_count(Level l);

// Caches a module's level; refreshes when levels change.
class Logger {
 public:
  explicit Logger(std::string module) : module_(std::move(module)) {}
  bool enabled(Level l) const;
  const std::string& module() const { return module_; }
  void emit(Level l, const std::string& msg) const { log_emit(module_, l, msg); }

 private:
  std::string module_;
  mutable uint64_t generation_ = ~0ull;
  mutable Level level_ = Level::Warn;
};

}  // namespace avp

#define AVP_LOG(logger, lvl, expr)                              \
  do {                                                          \
    if ((logger).enabled(::avp::Level::lvl)) {                  \
      std::ostringstream avp_os_;                               \
      avp_os_ << expr;                                          \
      (logger).emit(::avp::Level::lvl, avp_os_.str());          \
    }                                                           \
  } while (0)
