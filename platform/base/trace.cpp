#include "base/trace.h"

#include <algorithm>
#include <cstdio>

#include "base/params.h"

namespace avp {
namespace {
double us(const sc_core::sc_time& t) { return t.to_seconds() * 1e6; }

// Adds the slice [ts, ts + dur) to the busy bins of its track.
void add_busy(std::vector<double>& bins, double bin_us, double ts, double dur) {
  if (dur <= 0 || bin_us <= 0) return;
  const size_t n = bins.size();
  for (size_t b = std::min(n - 1, static_cast<size_t>(ts / bin_us)); b < n; ++b) {
    const double lo = b * bin_us, hi = lo + bin_us;
    if (lo >= ts + dur) break;
    bins[b] = std::min(1.0, bins[b] + (std::min(hi, ts + dur) - std::max(lo, ts)) / bin_us);
  }
}
}  // namespace

nlohmann::json TimelineDigest::to_json() const {
  return {{"end_us", end_us}, {"tracks", tracks}, {"busy", busy}, {"slices", slices}, {"total_slices", total_slices},
          {"clipped", clipped}, {"dropped", dropped}};
}

Trace& Trace::instance() {
  static Trace t;
  return t;
}

void Trace::open(const std::string& path) {
  path_ = path;
  part_.open(path + ".part", std::ios::trunc);
  if (!part_ || !std::ofstream(path)) throw ParamError(path + ": cannot write the timeline file");
  enabled_ = true;
  events_ = 0;
  emit({{"ph", "M"}, {"pid", 1}, {"name", "process_name"}, {"args", {{"name", "accel-vp"}}}});
  tracks_written_ = 0;
  for (size_t i = 0; i < tracks_.size(); ++i) tid_of(tracks_[i]);
}

void Trace::emit(const nlohmann::json& e) {
  part_ << e.dump() << '\n';
  ++events_;
}

int Trace::tid_of(const std::string& track) {
  size_t i = 0;
  while (i < tracks_.size() && tracks_[i] != track) ++i;
  if (i == tracks_.size()) tracks_.push_back(track);
  // A track's name goes to the file before its first event.
  while (enabled_ && tracks_written_ < tracks_.size()) {
    const size_t t = tracks_written_++;
    emit({{"ph", "M"}, {"pid", 1}, {"tid", t + 1}, {"name", "thread_name"}, {"args", {{"name", tracks_[t]}}}});
  }
  return static_cast<int>(i) + 1;
}

void Trace::slice(const std::string& track, const std::string& name, const sc_core::sc_time& start,
                  const sc_core::sc_time& end, nlohmann::json args) {
  if (!enabled_) return;
  nlohmann::json e = {{"ph", "X"}, {"pid", 1}, {"tid", tid_of(track)}, {"name", name},
                      {"ts", us(start)}, {"dur", us(end) - us(start)}};
  if (!args.is_null()) e["args"] = std::move(args);
  emit(e);
}

void Trace::flow_begin(const std::string& track, uint64_t id, const sc_core::sc_time& at, const std::string& name) {
  if (!enabled_) return;
  emit({{"ph", "s"}, {"pid", 1}, {"tid", tid_of(track)}, {"id", id}, {"name", name}, {"cat", "flow"}, {"ts", us(at)}});
}

void Trace::flow_end(const std::string& track, uint64_t id, const sc_core::sc_time& at, const std::string& name) {
  if (!enabled_) return;
  emit({{"ph", "f"}, {"bp", "e"}, {"pid", 1}, {"tid", tid_of(track)}, {"id", id}, {"name", name},
        {"cat", "flow"}, {"ts", us(at)}});
}

void Trace::counter(const std::string& track, const std::string& name, const sc_core::sc_time& at, double value) {
  if (!enabled_) return;
  emit({{"ph", "C"}, {"pid", 1}, {"tid", tid_of(track)}, {"name", name}, {"ts", us(at)}, {"args", {{name, value}}}});
}

TimelineDigest Trace::close(const sc_core::sc_time& end) {
  TimelineDigest d;
  if (!enabled_) return d;
  enabled_ = false;
  part_.close();
  d.end_us = us(end);
  d.tracks = tracks_;
  d.busy.assign(tracks_.size(), std::vector<double>(TimelineDigest::kBins, 0.0));
  const double bin_us = d.end_us / TimelineDigest::kBins;
  const double eps = 1e-9;
  std::ifstream in(path_ + ".part");
  std::ofstream out(path_, std::ios::trunc);
  if (!out) throw ParamError(path_ + ": cannot write the timeline file");
  out << "{\"traceEvents\":[\n";
  bool first = true;
  for (std::string line; std::getline(in, line);) {
    nlohmann::json e = nlohmann::json::parse(line);
    if (e["ph"] != "M") {
      const double ts = e["ts"].get<double>();
      if (ts > d.end_us + eps) {  // recorded ahead of time the run did not reach
        ++d.dropped;
        continue;
      }
      if (e["ph"] == "X") {
        double dur = e["dur"].get<double>();
        if (ts + dur > d.end_us + eps) {
          dur = d.end_us - ts;
          e["dur"] = dur;
          e["args"]["cut_at_end_of_run"] = true;
          ++d.clipped;
        }
        const int tid = e["tid"].get<int>();
        add_busy(d.busy[tid - 1], bin_us, ts, dur);
        if (d.slices.size() < TimelineDigest::kMaxSlices) d.slices.push_back({tid, e["name"], ts, dur});
        ++d.total_slices;
      }
    }
    out << (first ? "" : ",\n") << e.dump();
    first = false;
  }
  out << "\n],\"displayTimeUnit\":\"ns\"}\n";
  in.close();
  std::remove((path_ + ".part").c_str());
  return d;
}

}  // namespace avp
