// Timeline trace in Chrome trace-event JSON (opens in Perfetto / chrome://tracing).
// One track per unit; slices for commands, transfers, kernel instances and
// dispatches; flow arrows link a doorbell to its completion. Recording is off
// unless a run opens a file, so calls are cheap when disabled. Events go to
// disk as they are recorded (one per line, memory stays bounded); close()
// rewrites them into the final file, cut at the end of the run, and digests
// them for the HTML report.
#pragma once
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

namespace avp {

// Flow ids of each kind of doorbell-to-completion arrow (kind | sequence
// number), below 2^53 so JavaScript viewers read them exactly.
constexpr uint64_t kFlowCmp = 1ull << 44, kFlowAql = 2ull << 44;

// What the HTML report shows of a timeline: every track's busy share in
// equal time bins over the whole run, and the earliest slices in detail.
struct TimelineDigest {
  static constexpr size_t kBins = 500, kMaxSlices = 20000;
  double end_us = 0;
  std::vector<std::string> tracks;                 // track i has tid i + 1
  std::vector<std::vector<double>> busy;           // [track][bin] busy fraction of the bin
  nlohmann::json slices = nlohmann::json::array(); // [tid, name, ts_us, dur_us], earliest first
  uint64_t total_slices = 0, clipped = 0, dropped = 0;
  nlohmann::json to_json() const;
};

class Trace {
 public:
  static Trace& instance();
  bool enabled() const { return enabled_; }
  // Starts recording into `path` (throws ParamError when it cannot be written).
  void open(const std::string& path);
  // Ends recording: writes the final file with no event past `end` (slices
  // running over it are cut there), and returns the digest of the timeline.
  TimelineDigest close(const sc_core::sc_time& end);

  // Lists a unit's track even when it records no slice (an idle unit).
  void declare(const std::string& track) { tid_of(track); }
  // A complete slice on `track` (e.g. "cmp", "dma.ch0", "hart3", "pcie.down").
  void slice(const std::string& track, const std::string& name, const sc_core::sc_time& start,
             const sc_core::sc_time& end, nlohmann::json args = nullptr);
  // Flow arrows: begin on one track, end on another, matched by id.
  void flow_begin(const std::string& track, uint64_t id, const sc_core::sc_time& at, const std::string& name);
  void flow_end(const std::string& track, uint64_t id, const sc_core::sc_time& at, const std::string& name);
  void counter(const std::string& track, const std::string& name, const sc_core::sc_time& at, double value);

  uint64_t event_count() const { return events_; }

 private:
  int tid_of(const std::string& track);
  void emit(const nlohmann::json& e);
  bool enabled_ = false;
  std::vector<std::string> tracks_;
  size_t tracks_written_ = 0;
  std::string path_;
  std::ofstream part_;
  uint64_t events_ = 0;
};

}  // namespace avp
