// Reads a VCD file into the value changes of each named signal (scope-less
// names: the last $var of a name wins), so tests can check what a waveform
// shows rather than that a name appears in it.
#pragma once
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace avp::test {

struct VcdChange {
  uint64_t time;
  uint64_t value;  // x/z bits read as 0
};

inline std::map<std::string, std::vector<VcdChange>> read_vcd(const std::string& path) {
  std::ifstream f(path);
  std::map<std::string, std::string> name_of;  // id code -> name
  std::map<std::string, std::vector<VcdChange>> changes;
  std::string tok;
  uint64_t now = 0;
  auto bits = [](const std::string& s) {
    uint64_t v = 0;
    for (char c : s) v = v << 1 | (c == '1');
    return v;
  };
  while (f >> tok) {
    if (tok == "$var") {
      std::string type, width, id, name;
      f >> type >> width >> id >> name;
      name_of[id] = name;
      while (f >> tok && tok != "$end") {
      }
    } else if (tok[0] == '#') {
      now = std::stoull(tok.substr(1));
    } else if (tok[0] == 'b') {
      std::string id;
      f >> id;
      if (name_of.count(id)) changes[name_of[id]].push_back({now, bits(tok.substr(1))});
    } else if ((tok[0] == '0' || tok[0] == '1' || tok[0] == 'x' || tok[0] == 'z') && tok.size() > 1) {
      const std::string id = tok.substr(1);
      if (name_of.count(id)) changes[name_of[id]].push_back({now, tok[0] == '1' ? 1u : 0u});
    }
  }
  return changes;
}

// The values a signal took, in order, without repeats.
inline std::vector<uint64_t> values_of(const std::vector<VcdChange>& c) {
  std::vector<uint64_t> v;
  for (const auto& e : c)
    if (v.empty() || v.back() != e.value) v.push_back(e.value);
  return v;
}

}  // namespace avp::test
