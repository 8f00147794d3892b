#include "params.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include <yaml-cpp/yaml.h>

namespace avp {
namespace {

std::string strip(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

[[noreturn]] void bad(const std::string& what, const std::string& text, const char* expected) {
  throw ParamError(what + ": '" + text + "' is not " + expected);
}

}  // namespace

uint64_t parse_u64(const std::string& raw, const std::string& what) {
  std::string t;
  for (char c : strip(raw))
    if (c != '_') t += c;
  if (t.empty()) bad(what, raw, "an unsigned integer");
  uint64_t mult = 1;
  std::string l = lower(t);
  static const std::pair<const char*, uint64_t> suffixes[] = {
      {"kib", 1ull << 10}, {"mib", 1ull << 20}, {"gib", 1ull << 30}, {"k", 1ull << 10}, {"m", 1ull << 20}, {"g", 1ull << 30}};
  if (l.rfind("0x", 0) != 0) {
    for (const auto& [sfx, m] : suffixes) {
      size_t n = std::string(sfx).size();
      if (l.size() > n && l.compare(l.size() - n, n, sfx) == 0) {
        mult = m;
        t = strip(t.substr(0, t.size() - n));
        break;
      }
    }
  }
  int base = 10;
  std::string digits = t;
  if (lower(t).rfind("0x", 0) == 0) base = 16, digits = t.substr(2);
  else if (lower(t).rfind("0b", 0) == 0) base = 2, digits = t.substr(2);
  if (digits.empty() || digits[0] == '-' || digits[0] == '+') bad(what, raw, "an unsigned integer");
  size_t pos = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(digits, &pos, base);
  } catch (const std::exception&) {
    bad(what, raw, "an unsigned integer");
  }
  if (pos != digits.size()) bad(what, raw, "an unsigned integer");
  if (mult != 1 && v > UINT64_MAX / mult) bad(what, raw, "a 64-bit value");
  return v * mult;
}

int64_t parse_i64(const std::string& raw, const std::string& what) {
  std::string t = strip(raw);
  bool neg = !t.empty() && t[0] == '-';
  uint64_t mag = parse_u64(neg ? t.substr(1) : t, what);
  if (mag > (neg ? (1ull << 63) : (1ull << 63) - 1)) bad(what, raw, "a 64-bit signed integer");
  return neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
}

double parse_double(const std::string& raw, const std::string& what) {
  std::string t = strip(raw);
  size_t pos = 0;
  double v = 0;
  try {
    v = std::stod(t, &pos);
  } catch (const std::exception&) {
    bad(what, raw, "a number");
  }
  if (pos != t.size()) bad(what, raw, "a number");
  return v;
}

bool parse_bool(const std::string& raw, const std::string& what) {
  std::string t = lower(strip(raw));
  if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
  if (t == "false" || t == "0" || t == "no" || t == "off") return false;
  bad(what, raw, "a boolean (true/false)");
}

sc_core::sc_time parse_time(const std::string& raw, const std::string& what) {
  std::string t = lower(strip(raw));
  if (t == "0") return sc_core::SC_ZERO_TIME;  // zero needs no unit ("0 = no limit" parameters)
  static const std::pair<const char*, sc_core::sc_time_unit> units[] = {
      {"fs", sc_core::SC_FS}, {"ps", sc_core::SC_PS}, {"ns", sc_core::SC_NS},
      {"us", sc_core::SC_US}, {"ms", sc_core::SC_MS}, {"s", sc_core::SC_SEC}};
  for (const auto& [name, unit] : units) {
    size_t n = std::string(name).size();
    if (t.size() > n && t.compare(t.size() - n, n, name) == 0) {
      std::string num = strip(t.substr(0, t.size() - n));
      if (!num.empty() && (std::isdigit(static_cast<unsigned char>(num.back())) || num.back() == '.')) {
        double v = parse_double(num, what);
        if (v < 0) bad(what, raw, "a non-negative time");
        return sc_core::sc_time(v, unit);
      }
    }
  }
  bad(what, raw, "a time with a unit (e.g. '10 ns')");
}

std::string format_time(const sc_core::sc_time& t) {
  // Picks the largest unit that keeps an integral value, so round trips are exact.
  uint64_t ps = static_cast<uint64_t>(t.to_seconds() * 1e12 + 0.5);
  if (ps == 0) return "0 ns";
  if (ps % 1000000000000ull == 0) return std::to_string(ps / 1000000000000ull) + " s";
  if (ps % 1000000 == 0) return std::to_string(ps / 1000000) + " us";
  if (ps % 1000 == 0) return std::to_string(ps / 1000) + " ns";
  char buf[64];
  if (ps >= 1000000) std::snprintf(buf, sizeof buf, "%.6f us", ps / 1e6);
  else std::snprintf(buf, sizeof buf, "%.3f ns", ps / 1e3);
  return buf;
}

ParamBase::ParamBase(std::string name, std::string description)
    : name_(std::move(name)), description_(std::move(description)) {
  ParamRegistry::instance().attach(this);
}

ParamBase::~ParamBase() { ParamRegistry::instance().detach(this); }

void ParamBase::set_from_string(const std::string& text, const std::string& origin) {
  try {
    assign(text);
  } catch (const ParamError& e) {
    throw ParamError((origin.empty() ? "" : origin + ": ") + "parameter " + name_ + " (" + type_name() + "): " + e.what());
  }
}

void ParamBase::take_preset() {
  if (Preset* p = ParamRegistry::instance().preset_for(name_)) {
    p->used = true;
    set_from_string(p->text, p->origin);
  }
}

#define AVP_PARAM_TYPE(T, tname, parse_expr, text_expr, json_expr)                   \
  template <>                                                                         \
  const char* Param<T>::type_name() const { return tname; }                           \
  template <>                                                                         \
  void Param<T>::assign(const std::string& text) { value_ = parse_expr; }            \
  template <>                                                                         \
  std::string Param<T>::to_text(const T& v) { return text_expr; }                     \
  template <>                                                                         \
  nlohmann::json Param<T>::to_json() const { const T& v = value_; return json_expr; } \
  template class Param<T>;

static std::string hex_or_dec(uint64_t v) {
  if (v >= 0x10000 && (v & 0xFFF) == 0) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
  }
  return std::to_string(v);
}

AVP_PARAM_TYPE(uint64_t, "uint64", parse_u64(text, "value"), hex_or_dec(v), v)
AVP_PARAM_TYPE(int64_t, "int64", parse_i64(text, "value"), std::to_string(v), v)
AVP_PARAM_TYPE(double, "double", parse_double(text, "value"), ([&] { std::ostringstream os; os << v; return os.str(); })(), v)
AVP_PARAM_TYPE(bool, "bool", parse_bool(text, "value"), std::string(v ? "true" : "false"), v)
AVP_PARAM_TYPE(std::string, "string", text, v, v)
AVP_PARAM_TYPE(sc_core::sc_time, "time", parse_time(text, "value"), format_time(v), format_time(v))
#undef AVP_PARAM_TYPE

template <>
const char* Param<uint32_t>::type_name() const { return "uint32"; }
template <>
void Param<uint32_t>::assign(const std::string& text) {
  uint64_t v = parse_u64(text, "value");
  if (v > UINT32_MAX) throw ParamError("value: '" + text + "' does not fit in 32 bits");
  value_ = static_cast<uint32_t>(v);
}
template <>
std::string Param<uint32_t>::to_text(const uint32_t& v) { return hex_or_dec(v); }
template <>
nlohmann::json Param<uint32_t>::to_json() const { return value_; }
template class Param<uint32_t>;

ParamRegistry& ParamRegistry::instance() {
  static ParamRegistry r;
  return r;
}

void ParamRegistry::attach(ParamBase* p) {
  auto [it, inserted] = params_.emplace(p->name(), p);
  if (!inserted) throw ParamError("parameter " + p->name() + " is declared twice");
}

void ParamRegistry::detach(ParamBase* p) {
  auto it = params_.find(p->name());
  if (it != params_.end() && it->second == p) params_.erase(it);
}

Preset* ParamRegistry::preset_for(const std::string& name) {
  auto it = presets_.find(name);
  return it == presets_.end() ? nullptr : &it->second;
}

void ParamRegistry::add_preset(const std::string& name, const std::string& text, const std::string& origin) {
  presets_[name] = Preset{text, origin, false};
  // A parameter that already exists takes the new value at once.
  if (ParamBase* p = find(name)) {
    presets_[name].used = true;
    p->set_from_string(text, origin);
  }
}

static void flatten(const YAML::Node& node, const std::string& prefix, const std::string& file, ParamRegistry& reg) {
  std::string where = file + ":" + std::to_string(node.Mark().line + 1);
  switch (node.Type()) {
    case YAML::NodeType::Map:
      for (const auto& kv : node) {
        std::string key = kv.first.as<std::string>();
        flatten(kv.second, prefix.empty() ? key : prefix + "." + key, file, reg);
      }
      break;
    case YAML::NodeType::Scalar:
      if (prefix.empty()) throw ParamError(where + ": expected a map of parameters");
      reg.add_preset(prefix, node.Scalar(), file + ":" + std::to_string(node.Mark().line + 1));
      break;
    case YAML::NodeType::Null:
      break;
    default:
      throw ParamError(where + ": parameter " + prefix + " must be a scalar (sequences are not parameters)");
  }
}

void ParamRegistry::load_yaml_text(const std::string& text, const std::string& origin) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ParamError(origin + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  flatten(root, "", origin, *this);
}

void ParamRegistry::load_yaml_file(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw ParamError(path + ": cannot open configuration file");
  } catch (const YAML::Exception& e) {
    throw ParamError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  flatten(root, "", path, *this);
}

void ParamRegistry::check_unused_presets() const {
  std::string msg;
  for (const auto& [name, p] : presets_)
    if (!p.used) msg += (msg.empty() ? "" : "\n") + p.origin + ": unknown parameter '" + name + "' (see --list-params)";
  if (!msg.empty()) throw ParamError(msg);
}

void ParamRegistry::clear_presets() { presets_.clear(); }

const ParamBase* ParamRegistry::find(const std::string& name) const {
  auto it = params_.find(name);
  return it == params_.end() ? nullptr : it->second;
}

ParamBase* ParamRegistry::find(const std::string& name) {
  auto it = params_.find(name);
  return it == params_.end() ? nullptr : it->second;
}

std::vector<const ParamBase*> ParamRegistry::all() const {
  std::vector<const ParamBase*> v;
  for (const auto& kv : params_) v.push_back(kv.second);
  return v;
}

nlohmann::json ParamRegistry::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, p] : params_) j[name] = p->to_json();
  return j;
}

}  // namespace avp
