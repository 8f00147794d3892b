#include "base/symbols.h"

#include <cstdio>

namespace avp {

SymbolTable& SymbolTable::instance() {
  static SymbolTable t;
  return t;
}

void SymbolTable::add_image(uint64_t lo, uint64_t hi, const std::vector<Symbol>& symbols) {
  by_addr_.erase(by_addr_.lower_bound(lo), by_addr_.lower_bound(hi));
  for (const Symbol& s : symbols) {
    if (s.addr < lo || s.addr >= hi) continue;  // absolute or linker-defined symbols outside the image
    by_addr_.emplace(s.addr, Entry{s, hi});
  }
}

void SymbolTable::clear() { by_addr_.clear(); }

const Symbol* SymbolTable::find(uint64_t addr) const {
  auto it = by_addr_.upper_bound(addr);
  if (it == by_addr_.begin()) return nullptr;
  --it;
  // Several symbols may share an address: prefer a sized one (a function or object over a label).
  const uint64_t at = it->first;
  const Entry* best = &it->second;
  for (auto j = by_addr_.equal_range(at).first; j != by_addr_.end() && j->first == at; ++j)
    if (j->second.sym.size > best->sym.size) best = &j->second;
  if (best->sym.size) return addr - at < best->sym.size ? &best->sym : nullptr;
  return addr < best->image_hi ? &best->sym : nullptr;
}

std::string SymbolTable::describe(uint64_t addr) const {
  const Symbol* s = find(addr);
  if (!s) return {};
  if (addr == s->addr) return "<" + s->name + ">";
  char off[24];
  std::snprintf(off, sizeof off, "+0x%llx>", static_cast<unsigned long long>(addr - s->addr));
  return "<" + s->name + off;
}

}  // namespace avp
