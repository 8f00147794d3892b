#include "base/vcd.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "base/params.h"

namespace avp {

namespace {
// VCD identifier codes: printable ASCII 33..126, shortest first.
std::string code_of(size_t i) {
  std::string c;
  do {
    c += static_cast<char>(33 + i % 94);
    i /= 94;
  } while (i);
  return c;
}

std::vector<std::string> split(const std::string& name) {
  std::vector<std::string> parts;
  std::stringstream s(name);
  for (std::string p; std::getline(s, p, '.');) parts.push_back(p);
  return parts;
}
}  // namespace

Vcd& Vcd::instance() {
  static Vcd v;
  return v;
}

void Vcd::clear() {
  signals_.clear();
  by_name_.clear();
  changes_.clear();
}

size_t Vcd::declare(const std::string& name, bool is_event) {
  auto it = by_name_.find(name);
  if (it != by_name_.end()) return it->second;
  signals_.push_back({name, code_of(signals_.size()), is_event, false});
  by_name_[name] = signals_.size() - 1;
  return signals_.size() - 1;
}

void Vcd::wire(const std::string& name) {
  if (enabled_) declare(name, false);
}

void Vcd::event(const std::string& name) {
  if (enabled_) declare(name, true);
}

void Vcd::change(const std::string& name, bool value, const sc_core::sc_time& at) {
  if (!enabled_) return;
  const size_t i = declare(name, false);
  if (signals_[i].value == value) return;
  signals_[i].value = value;
  changes_.push_back({static_cast<uint64_t>(at.value() / sc_core::sc_time(1, sc_core::SC_PS).value()), i, value});
}

void Vcd::trigger(const std::string& name, const sc_core::sc_time& at) {
  if (!enabled_) return;
  changes_.push_back({static_cast<uint64_t>(at.value() / sc_core::sc_time(1, sc_core::SC_PS).value()), declare(name, true), true});
}

std::string Vcd::to_string() const {
  std::ostringstream o;
  o << "$version accel-vp $end\n$timescale 1ps $end\n";
  // Signals sorted by name, so each scope is opened once.
  std::vector<size_t> order(signals_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return signals_[a].name < signals_[b].name; });
  std::vector<std::string> open;
  for (size_t i : order) {
    std::vector<std::string> path = split(signals_[i].name);
    const std::string leaf = path.back();
    path.pop_back();
    size_t common = 0;
    while (common < open.size() && common < path.size() && open[common] == path[common]) ++common;
    for (size_t k = open.size(); k > common; --k) o << "$upscope $end\n";
    open.resize(common);
    for (size_t k = common; k < path.size(); ++k) {
      o << "$scope module " << path[k] << " $end\n";
      open.push_back(path[k]);
    }
    o << "$var " << (signals_[i].is_event ? "event" : "wire") << " 1 " << signals_[i].code << " " << leaf << " $end\n";
  }
  for (size_t k = 0; k < open.size(); ++k) o << "$upscope $end\n";
  o << "$enddefinitions $end\n#0\n$dumpvars\n";
  for (const Signal& s : signals_)
    if (!s.is_event) o << "0" << s.code << "\n";
  o << "$end\n";
  // Changes in time order; at equal times in recording order.
  std::vector<size_t> idx(changes_.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return changes_[a].ps < changes_[b].ps; });
  uint64_t now = 0;
  for (size_t i : idx) {
    const Change& c = changes_[i];
    if (c.ps != now) o << "#" << (now = c.ps) << "\n";
    o << (c.value ? "1" : "0") << signals_[c.signal].code << "\n";
  }
  return o.str();
}

void Vcd::write(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw ParamError(path + ": cannot write the VCD file");
  f << to_string();
}

}  // namespace avp
