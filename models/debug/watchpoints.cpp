#include "debug/watchpoints.h"

#include <algorithm>
#include <cstdio>

namespace avp {

using rv::Triggers;

namespace {
uint64_t trigger_kinds(Watchpoints::Kind k) {
  switch (k) {
    case Watchpoints::Break: return Triggers::kExecute;
    case Watchpoints::Write: return Triggers::kStore;
    case Watchpoints::Read: return Triggers::kLoad;
    default: return Triggers::kLoad | Triggers::kStore;
  }
}
}  // namespace

bool Watchpoints::insert(Kind kind, uint64_t addr, uint64_t len) {
  Point p{kind, addr, std::max<uint64_t>(len, 1), {}};
  for (rv::Triggers* u : units_) {
    const int index = u->debugger_insert(trigger_kinds(kind), addr, kind == Break ? 1 : p.len);
    if (index < 0) {
      for (size_t i = 0; i < p.triggers.size(); ++i) units_[i]->debugger_remove(p.triggers[i]);
      return false;
    }
    p.triggers.push_back(index);
  }
  list_.push_back(std::move(p));
  return true;
}

bool Watchpoints::remove(Kind kind, uint64_t addr, uint64_t len) {
  const uint64_t n = std::max<uint64_t>(len, 1);
  for (auto it = list_.begin(); it != list_.end(); ++it) {
    if (it->kind == kind && it->addr == addr && it->len == n) {
      for (size_t i = 0; i < it->triggers.size(); ++i) units_[i]->debugger_remove(it->triggers[i]);
      list_.erase(it);
      return true;
    }
  }
  return false;
}

void Watchpoints::clear() {
  while (!list_.empty()) remove(list_.back().kind, list_.back().addr, list_.back().len);
}

bool Watchpoints::hit(unsigned unit, const rv::Insn& insn, uint64_t pc, const rv::HartState& s, bool execute,
                      std::string& field) {
  field.clear();
  if (list_.empty() || unit >= units_.size()) return false;
  const auto t = units_[unit]->match(insn, pc, s, true, execute);
  if (!t) return false;
  for (const Point& p : list_) {
    if (p.triggers[unit] != static_cast<int>(t->index)) continue;
    if (p.kind == Break) return true;
    char text[48];
    std::snprintf(text, sizeof text, "%s:%llx;", p.kind == Write ? "watch" : p.kind == Read ? "rwatch" : "awatch",
                  static_cast<unsigned long long>(std::max(t->access.addr, p.addr)));
    field = text;
    return true;
  }
  return false;
}

}  // namespace avp
