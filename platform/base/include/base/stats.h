// Statistics every model declares next to its state: counters, histograms with
// percentiles, busy/idle utilisation and time-weighted queue occupancy. All register in StatRegistry under
// "<module>.<name>" and are written to report.json and the run summary.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

namespace avp {

class StatBase {
 public:
  StatBase(std::string name, std::string description, std::string unit);
  StatBase(const sc_core::sc_object* owner, const std::string& local, std::string description, std::string unit);
  virtual ~StatBase();
  StatBase(const StatBase&) = delete;
  StatBase& operator=(const StatBase&) = delete;

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  const std::string& unit() const { return unit_; }
  virtual nlohmann::json to_json() const = 0;
  // Starts counting afresh at simulated time `at` (a region of interest begins).
  virtual void reset(const sc_core::sc_time& at) = 0;

 private:
  std::string name_, description_, unit_;
};

class Counter : public StatBase {
 public:
  using StatBase::StatBase;
  void inc(uint64_t n = 1) { value_ += n; }
  uint64_t value() const { return value_; }
  nlohmann::json to_json() const override;
  void reset(const sc_core::sc_time&) override { value_ = 0; }

 private:
  uint64_t value_ = 0;
};

// A fixed array of counters indexed 0..n-1 (per opcode, per stall cause, per
// event kind): element i is a Counter registered as "<module>.<prefix><label>"
// with its own description; its unit is the array's unless the element names one.
class CounterArray {
 public:
  struct Element {
    std::string label, description, unit;
  };
  CounterArray(const sc_core::sc_object* owner, const std::string& prefix, const std::vector<Element>& elements,
               const std::string& unit);
  Counter& operator[](size_t i) { return *counters_[i]; }
  const Counter& operator[](size_t i) const { return *counters_[i]; }
  size_t size() const { return counters_.size(); }
  uint64_t total() const;

 private:
  std::vector<std::unique_ptr<Counter>> counters_;
};

// Log-linear buckets (64 per power of two): percentiles within 1.6 %, exact
// count, sum, min and max, constant memory whatever the number of samples.
class Histogram : public StatBase {
 public:
  using StatBase::StatBase;
  // A value one of the last two new samples had (a port's queueing delay of
  // 0 and of a transfer behind a write-back, alternating; a fixed latency)
  // only counts: its bucket is known, min and max hold it already.
  void sample(double v) {
    for (const Seen& s : seen_)
      if (v == s.value && s.count) {
        ++count_;
        sum_ += v;
        ++*s.count;
        return;
      }
    sample_new(v);
  }
  uint64_t count() const { return count_; }
  double sum() const { return sum_; }
  double min() const { return count_ ? min_ : 0; }
  double max() const { return count_ ? max_ : 0; }
  double mean() const { return count_ ? sum_ / count_ : 0; }
  double percentile(double p) const;  // p in [0, 100]
  nlohmann::json to_json() const override;
  void reset(const sc_core::sc_time& at) override;

 private:
  static constexpr int kSub = 64;
  void sample_new(double v);
  static int bucket_of(double v);
  static double bucket_mid(int b);
  std::map<int, uint64_t> buckets_;
  // The counts of buckets sampled lately, by bucket number modulo kRecent:
  // most samples fall into one of a few buckets again (a port's queueing
  // delays take a few values), and a map lookup per sample was most of
  // sample()'s time. std::map keeps the counts where they are.
  static constexpr unsigned kRecent = 64;
  struct Recent {
    int bucket = 0;
    uint64_t* count = nullptr;  // nullptr: none yet
  };
  std::array<Recent, kRecent> recent_{};
  struct Seen {
    double value = 0;
    uint64_t* count = nullptr;  // its bucket's count (nullptr: none since the last reset)
  };
  std::array<Seen, 2> seen_{};  // the last two new samples' values
  unsigned next_seen_ = 0;      // the older of the two, replaced next
  uint64_t count_ = 0;
  double sum_ = 0, min_ = 0, max_ = 0;
};

// Busy time of a unit. Intervals are added in non-decreasing start order per
// unit; overlap with time already counted is not counted twice.
class Utilisation : public StatBase {
 public:
  Utilisation(const sc_core::sc_object* owner, const std::string& local, std::string description)
      : StatBase(owner, local, std::move(description), "fraction") {}
  Utilisation(std::string name, std::string description) : StatBase(std::move(name), std::move(description), "fraction") {}
  void add_busy(const sc_core::sc_time& start, const sc_core::sc_time& end);
  // Busy time known not to overlap any counted before (a port's reserved slots, whatever their order).
  void add_disjoint_ps(uint64_t ps) { busy_ps_ += ps; }  // ps: sc_time's value
  sc_core::sc_time busy() const { return sc_core::sc_time::from_value(busy_ps_); }
  // Busy fraction of [since, until] (since: 0 or the last reset); until defaults to the current simulated time.
  double fraction(const sc_core::sc_time& until = sc_core::sc_time_stamp()) const;
  nlohmann::json to_json() const override;
  void reset(const sc_core::sc_time& at) override { busy_ps_ = 0, last_end_ = since_ = at; }

 private:
  uint64_t busy_ps_ = 0;  // sc_time's value: harts' ports add to it per cache miss
  sc_core::sc_time last_end_, since_;
};

// Level of a queue over simulated time: time-weighted mean and maximum, and
// the time spent at each level. Changes come in non-decreasing time order (an
// earlier time is taken as the last change's).
class Occupancy : public StatBase {
 public:
  Occupancy(const sc_core::sc_object* owner, const std::string& local, std::string description, std::string unit)
      : StatBase(owner, local, std::move(description), std::move(unit)) {}
  Occupancy(std::string name, std::string description, std::string unit)
      : StatBase(std::move(name), std::move(description), std::move(unit)) {}
  void set(uint64_t level, const sc_core::sc_time& at = sc_core::sc_time_stamp());
  uint64_t level() const { return level_; }
  uint64_t max() const { return max_; }
  // Time-weighted mean level over [since, until] (since: 0 or the last reset); until defaults to the current simulated time.
  double mean(const sc_core::sc_time& until = sc_core::sc_time_stamp()) const;
  // Time at each level over [since, until].
  std::map<uint64_t, sc_core::sc_time> time_at_level(const sc_core::sc_time& until = sc_core::sc_time_stamp()) const;
  nlohmann::json to_json() const override;
  // The queue keeps its current level; the time and maximum restart from it.
  void reset(const sc_core::sc_time& at) override;

 private:
  uint64_t level_ = 0, max_ = 0;
  sc_core::sc_time last_, since_;
  std::map<uint64_t, sc_core::sc_time> at_level_;  // closed intervals before last_
};

class StatRegistry {
 public:
  static StatRegistry& instance();
  void attach(StatBase* s);
  void detach(StatBase* s);
  const StatBase* find(const std::string& name) const;
  std::vector<const StatBase*> all() const;  // sorted by name
  nlohmann::json to_json() const;            // name -> stat object
  // Region-of-interest statistics (like gem5's m5 ops): reset_all starts every
  // statistic afresh at `at`; dump keeps a copy of them all as a section of
  // the report (label says who asked). At most kMaxDumps are kept, later ones
  // are counted in dumps_dropped().
  void reset_all(const sc_core::sc_time& at = sc_core::sc_time_stamp());
  void dump(const std::string& label, const sc_core::sc_time& at);
  const nlohmann::json& dumps() const { return dumps_; }
  uint64_t dumps_dropped() const { return dumps_dropped_; }
  sc_core::sc_time since() const { return since_; }  // the last reset (0: none)
  static constexpr size_t kMaxDumps = 1000;

 private:
  std::map<std::string, StatBase*> stats_;
  nlohmann::json dumps_ = nlohmann::json::array();
  uint64_t dumps_dropped_ = 0;
  sc_core::sc_time since_;
};

}  // namespace avp
