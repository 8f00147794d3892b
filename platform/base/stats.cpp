#include "base/stats.h"

#include <cmath>
#include <cstring>

#include "base/params.h"

namespace avp {

StatBase::StatBase(std::string name, std::string description, std::string unit)
    : name_(std::move(name)), description_(std::move(description)), unit_(std::move(unit)) {
  StatRegistry::instance().attach(this);
}

StatBase::StatBase(const sc_core::sc_object* owner, const std::string& local, std::string description, std::string unit)
    : StatBase(std::string(owner->name()) + "." + local, std::move(description), std::move(unit)) {}

StatBase::~StatBase() { StatRegistry::instance().detach(this); }

nlohmann::json Counter::to_json() const {
  return {{"type", "counter"}, {"value", value_}, {"unit", unit()}, {"description", description()}};
}

CounterArray::CounterArray(const sc_core::sc_object* owner, const std::string& prefix,
                           const std::vector<Element>& elements, const std::string& unit) {
  for (const Element& e : elements)
    counters_.push_back(std::make_unique<Counter>(owner, prefix + e.label, e.description, e.unit.empty() ? unit : e.unit));
}

uint64_t CounterArray::total() const {
  uint64_t n = 0;
  for (const auto& c : counters_) n += c->value();
  return n;
}

int Histogram::bucket_of(double v) {
  if (v <= 0) return INT32_MIN;
  // v = frac * 2^exp with frac in [0.5, 1), and sub the first 6 bits of frac
  // beyond its leading one: read from a normal double's bits (as frexp gives
  // them, without its call), else from frexp.
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  const int biased = static_cast<int>(bits >> 52 & 0x7ff);
  if (biased != 0 && biased != 0x7ff) return (biased - 1022) * kSub + static_cast<int>(bits >> (52 - 6) & (kSub - 1));
  int exp = 0;
  double frac = std::frexp(v, &exp);  // v = frac * 2^exp, frac in [0.5, 1)
  int sub = static_cast<int>((frac - 0.5) * 2 * kSub);
  if (sub >= kSub) sub = kSub - 1;
  return exp * kSub + sub;
}

double Histogram::bucket_mid(int b) {
  if (b == INT32_MIN) return 0;
  int exp = b >= 0 ? b / kSub : -((-b + kSub - 1) / kSub);
  int sub = b - exp * kSub;
  double lo = std::ldexp(0.5 + sub / (2.0 * kSub), exp);
  double hi = std::ldexp(0.5 + (sub + 1) / (2.0 * kSub), exp);
  return (lo + hi) / 2;
}

void Histogram::sample_new(double v) {
  if (count_ == 0 || v < min_) min_ = v;
  if (count_ == 0 || v > max_) max_ = v;
  ++count_;
  sum_ += v;
  const int b = bucket_of(v);
  Recent& r = recent_[static_cast<unsigned>(b) % kRecent];
  if (!r.count || r.bucket != b) r = {b, &buckets_[b]};
  ++*r.count;
  seen_[next_seen_] = {v, r.count};
  next_seen_ ^= 1;
}

double Histogram::percentile(double p) const {
  if (count_ == 0) return 0;
  if (p <= 0) return min_;
  if (p >= 100) return max_;
  uint64_t rank = static_cast<uint64_t>(std::ceil(p / 100.0 * count_));
  if (rank == 0) rank = 1;
  uint64_t seen = 0;
  for (const auto& [b, n] : buckets_) {
    seen += n;
    if (seen >= rank) return std::min(max_, std::max(min_, bucket_mid(b)));
  }
  return max_;
}

nlohmann::json Histogram::to_json() const {
  nlohmann::json buckets = nlohmann::json::array();
  for (const auto& [b, n] : buckets_) buckets.push_back({bucket_mid(b), n});
  return {{"type", "histogram"}, {"unit", unit()}, {"description", description()},
          {"count", count_}, {"sum", sum_}, {"min", min()}, {"max", max()}, {"mean", mean()},
          {"p50", percentile(50)}, {"p95", percentile(95)}, {"p99", percentile(99)}, {"buckets", buckets}};
}

void Histogram::reset(const sc_core::sc_time&) {
  buckets_.clear();
  recent_.fill(Recent{});
  seen_.fill(Seen{});
  count_ = 0;
  sum_ = min_ = max_ = 0;
}

void Utilisation::add_busy(const sc_core::sc_time& start, const sc_core::sc_time& end) {
  sc_core::sc_time from = start > last_end_ ? start : last_end_;
  if (end > from) busy_ps_ += (end - from).value();
  if (end > last_end_) last_end_ = end;
}

double Utilisation::fraction(const sc_core::sc_time& until) const {
  if (until <= since_) return 0;
  double f = busy().to_seconds() / (until - since_).to_seconds();
  return f > 1 ? 1 : f;
}

nlohmann::json Utilisation::to_json() const {
  return {{"type", "utilisation"}, {"description", description()}, {"busy_ns", busy().to_seconds() * 1e9},
          {"fraction", fraction()}};
}

void Occupancy::set(uint64_t level, const sc_core::sc_time& at) {
  if (at > last_) {
    at_level_[level_] += at - last_;
    last_ = at;
  }
  level_ = level;
  if (level > max_) max_ = level;
}

std::map<uint64_t, sc_core::sc_time> Occupancy::time_at_level(const sc_core::sc_time& until) const {
  std::map<uint64_t, sc_core::sc_time> m = at_level_;
  if (until > last_) m[level_] += until - last_;
  return m;
}

double Occupancy::mean(const sc_core::sc_time& until) const {
  if (until <= since_) return 0;
  double weighted = 0;
  for (const auto& [level, t] : time_at_level(until)) weighted += static_cast<double>(level) * t.to_seconds();
  return weighted / (until - since_).to_seconds();
}

nlohmann::json Occupancy::to_json() const {
  nlohmann::json levels = nlohmann::json::array();
  for (const auto& [level, t] : time_at_level()) levels.push_back({level, t.to_seconds() * 1e9});
  return {{"type", "occupancy"}, {"unit", unit()}, {"description", description()}, {"mean", mean()},
          {"max", max_}, {"current", level_}, {"time_at_level_ns", levels}};
}

void Occupancy::reset(const sc_core::sc_time& at) {
  max_ = level_;
  last_ = since_ = at;
  at_level_.clear();
}

StatRegistry& StatRegistry::instance() {
  static StatRegistry r;
  return r;
}

void StatRegistry::attach(StatBase* s) {
  auto [it, inserted] = stats_.emplace(s->name(), s);
  if (!inserted) throw ParamError("statistic " + s->name() + " is declared twice");
}

void StatRegistry::detach(StatBase* s) {
  auto it = stats_.find(s->name());
  if (it != stats_.end() && it->second == s) stats_.erase(it);
}

const StatBase* StatRegistry::find(const std::string& name) const {
  auto it = stats_.find(name);
  return it == stats_.end() ? nullptr : it->second;
}

std::vector<const StatBase*> StatRegistry::all() const {
  std::vector<const StatBase*> v;
  for (const auto& kv : stats_) v.push_back(kv.second);
  return v;
}

nlohmann::json StatRegistry::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, s] : stats_) j[name] = s->to_json();
  return j;
}

void StatRegistry::reset_all(const sc_core::sc_time& at) {
  for (auto& kv : stats_) kv.second->reset(at);
  since_ = at;
}

void StatRegistry::dump(const std::string& label, const sc_core::sc_time& at) {
  if (dumps_.size() >= kMaxDumps) {
    ++dumps_dropped_;
    return;
  }
  dumps_.push_back({{"index", dumps_.size()}, {"label", label}, {"time_ns", at.to_seconds() * 1e9},
                    {"since_ns", since_.to_seconds() * 1e9}, {"statistics", to_json()}});
}

}  // namespace avp
