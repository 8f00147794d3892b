#include "trace.h"

#include <fstream>

#include "params.h"

namespace avp {
namespace {
double us(const sc_core::sc_time& t) { return t.to_seconds() * 1e6; }
}  // namespace

Trace& Trace::instance() {
  static Trace t;
  return t;
}

void Trace::clear() {
  events_.clear();  // declared tracks stay
}

int Trace::tid_of(const std::string& track) {
  for (size_t i = 0; i < tracks_.size(); ++i)
    if (tracks_[i] == track) return static_cast<int>(i) + 1;
  tracks_.push_back(track);
  return static_cast<int>(tracks_.size());
}

void Trace::slice(const std::string& track, const std::string& name, const sc_core::sc_time& start,
                  const sc_core::sc_time& end, nlohmann::json args) {
  if (!enabled_) return;
  nlohmann::json e = {{"ph", "X"}, {"pid", 1}, {"tid", tid_of(track)}, {"name", name},
                      {"ts", us(start)}, {"dur", us(end) - us(start)}};
  if (!args.is_null()) e["args"] = std::move(args);
  events_.push_back(std::move(e));
}

void Trace::flow_begin(const std::string& track, uint64_t id, const sc_core::sc_time& at, const std::string& name) {
  if (!enabled_) return;
  events_.push_back({{"ph", "s"}, {"pid", 1}, {"tid", tid_of(track)}, {"id", id}, {"name", name}, {"cat", "flow"}, {"ts", us(at)}});
}

void Trace::flow_end(const std::string& track, uint64_t id, const sc_core::sc_time& at, const std::string& name) {
  if (!enabled_) return;
  events_.push_back({{"ph", "f"}, {"bp", "e"}, {"pid", 1}, {"tid", tid_of(track)}, {"id", id}, {"name", name},
                     {"cat", "flow"}, {"ts", us(at)}});
}

void Trace::counter(const std::string& track, const std::string& name, const sc_core::sc_time& at, double value) {
  if (!enabled_) return;
  events_.push_back({{"ph", "C"}, {"pid", 1}, {"tid", tid_of(track)}, {"name", name}, {"ts", us(at)}, {"args", {{name, value}}}});
}

nlohmann::json Trace::to_json() const {
  nlohmann::json ev = nlohmann::json::array();
  ev.push_back({{"ph", "M"}, {"pid", 1}, {"name", "process_name"}, {"args", {{"name", "accel-vp"}}}});
  for (size_t i = 0; i < tracks_.size(); ++i)
    ev.push_back({{"ph", "M"}, {"pid", 1}, {"tid", i + 1}, {"name", "thread_name"}, {"args", {{"name", tracks_[i]}}}});
  for (const auto& e : events_) ev.push_back(e);
  return {{"traceEvents", ev}, {"displayTimeUnit", "ns"}};
}

void Trace::write(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw ParamError(path + ": cannot write trace file");
  f << to_json().dump() << "\n";
}

}  // namespace avp
