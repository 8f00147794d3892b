#include "harts/timing_mode.h"

#include "base/params.h"

namespace avp {

TimingMode parse_timing_mode(const std::string& text, const std::string& what) {
  if (text == "timed") return TimingMode::Timed;
  if (text == "functional") return TimingMode::Functional;
  throw ParamError(what + ": '" + text + "' is not a timing mode (timed or functional)");
}

TimedFrom parse_timed_from(const std::string& text, const std::string& what) {
  const std::string forms = " (stats-reset, insns:N with N > 0, or time:T with a unit, such as time:20us)";
  TimedFrom t;
  if (text.empty()) return t;
  if (text == "stats-reset") {
    t.kind = TimedFrom::StatsReset;
    return t;
  }
  const auto colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const std::string value = colon == std::string::npos ? std::string() : text.substr(colon + 1);
  if (kind == "insns" && !value.empty()) {
    t.kind = TimedFrom::Instructions;
    t.instructions = parse_u64(value, what);
    if (t.instructions == 0) throw ParamError(what + ": insns:0 is before the first instruction" + forms);
    return t;
  }
  if (kind == "time" && !value.empty()) {
    t.kind = TimedFrom::Time;
    t.ps = parse_time(value, what).value();
    if (t.ps == 0) throw ParamError(what + ": time:0 is the start of the run" + forms);
    return t;
  }
  throw ParamError(what + ": '" + text + "' is not a switch point" + forms);
}

}  // namespace avp
