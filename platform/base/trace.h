// Timeline trace in Chrome trace-event JSON (opens in Perfetto / chrome://tracing).
// One track per unit; slices for commands, transfers, kernel instances and
// dispatches; flow arrows link a doorbell to its completion. Recording is off
// unless a run enables it, so calls are cheap when disabled.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

namespace avp {

// Flow ids of each kind of doorbell-to-completion arrow (kind | sequence
// number), below 2^53 so JavaScript viewers read them exactly.
constexpr uint64_t kFlowCmp = 1ull << 44, kFlowAql = 2ull << 44;

class Trace {
 public:
  static Trace& instance();
  bool enabled() const { return enabled_; }
  void enable(bool on) { enabled_ = on; }
  void clear();

  // Lists a unit's track even when it records no slice (an idle unit).
  void declare(const std::string& track) { tid_of(track); }
  // A complete slice on `track` (e.g. "cmp", "dma.ch0", "hart3", "pcie.down").
  void slice(const std::string& track, const std::string& name, const sc_core::sc_time& start,
             const sc_core::sc_time& end, nlohmann::json args = nullptr);
  // Flow arrows: begin on one track, end on another, matched by id.
  void flow_begin(const std::string& track, uint64_t id, const sc_core::sc_time& at, const std::string& name);
  void flow_end(const std::string& track, uint64_t id, const sc_core::sc_time& at, const std::string& name);
  void counter(const std::string& track, const std::string& name, const sc_core::sc_time& at, double value);

  size_t event_count() const { return events_.size(); }
  nlohmann::json to_json() const;
  void write(const std::string& path) const;

 private:
  int tid_of(const std::string& track);
  bool enabled_ = false;
  std::vector<std::string> tracks_;
  std::vector<nlohmann::json> events_;
};

}  // namespace avp
