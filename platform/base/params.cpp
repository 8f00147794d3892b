#include "base/params.h"

#include "base/closest_name.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "base/config_text.h"
#include "base/input_file.h"
#include "base/utf8.h"

namespace avp {

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
    try {
      set_from_string(p->text, p->origin);
    } catch (const ParamError& e) {
      ParamRegistry::instance().report(e.what());  // the default stays; the error is reported with the others
    }
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
// Every double parameter is a rate or a ratio (bandwidths): negative values mean nothing.
static double parse_rate(const std::string& text) {
  const double v = parse_double(text, "value");
  if (v < 0) throw ParamError("value: " + quoted(text) + " is negative");
  return v;
}

// The shortest text that reads back to the same double (--dump-config round trips).
static std::string double_text(double v) {
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

AVP_PARAM_TYPE(double, "double", parse_rate(text), double_text(v), v)
AVP_PARAM_TYPE(bool, "bool", parse_bool(text, "value"), std::string(v ? "true" : "false"), v)
AVP_PARAM_TYPE(std::string, "string", text, v, v)
AVP_PARAM_TYPE(sc_core::sc_time, "time", parse_time(text, "value"), format_time(v), format_time(v))
#undef AVP_PARAM_TYPE

template <>
const char* Param<uint32_t>::type_name() const { return "uint32"; }
template <>
void Param<uint32_t>::assign(const std::string& text) {
  uint64_t v = parse_u64(text, "value");
  if (v > UINT32_MAX) throw ParamError("value: " + quoted(text) + " does not fit in 32 bits");
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

void ParamRegistry::report(const std::string& error) {
  if (!collecting_) throw ParamError(error);
  errors_.push_back(error);
}

namespace {

// Nested maps of scalars; keys join with '.'. Every problem is reported (see
// ParamRegistry::report), so one pass shows all the errors of a file.
// YAML aliases let a few hundred bytes name millions of parameters (each
// alias of an alias doubles them) or nest without end (an alias inside its
// own anchor): a file expands to at most this many nodes and levels.
constexpr size_t kMaxConfigNodes = 10000;
constexpr unsigned kMaxConfigDepth = 32;

void flatten(const YAML::Node& node, const std::string& prefix, const std::string& file, ParamRegistry& reg,
             size_t& budget, unsigned depth = 0) {
  const auto line_of = [&](const YAML::Node& n) { return file + ":" + std::to_string(n.Mark().line + 1); };
  if (budget == 0) return;
  if (--budget == 0 || depth > kMaxConfigDepth) {
    reg.report(line_of(node) + ": the configuration expands to more than " +
               (depth > kMaxConfigDepth ? std::to_string(kMaxConfigDepth) + " levels" : std::to_string(kMaxConfigNodes) + " entries") +
               " (YAML aliases?)");
    budget = 0;
    return;
  }
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      std::set<std::string> seen;
      for (const auto& kv : node) {
        if (!kv.first.IsScalar() || kv.first.Scalar().empty()) {
          reg.report(line_of(kv.first) + ": keys are parameter names (plain text), not " +
                     (kv.first.IsScalar() ? "empty" : "a sequence or map"));
          continue;
        }
        const std::string key = kv.first.Scalar();
        const std::string name = prefix.empty() ? key : prefix + "." + key;
        if (!seen.insert(key).second) {
          reg.report(line_of(kv.first) + ": parameter " + name + " is given twice in this map");
          continue;
        }
        flatten(kv.second, name, file, reg, budget, depth + 1);
      }
      break;
    }
    case YAML::NodeType::Scalar:
      if (prefix.empty()) reg.report(line_of(node) + ": expected a map of parameters");
      else reg.add_preset(prefix, node.Scalar(), line_of(node));
      break;
    case YAML::NodeType::Null:
      break;
    default:
      reg.report(line_of(node) + ": parameter " + prefix + " must be a scalar (sequences are not parameters)");
  }
}

}  // namespace

void ParamRegistry::load_yaml_text(const std::string& text, const std::string& origin) {
  const ConfigDocument doc = read_config_text(text, origin);
  if (doc.second_document_line)
    report(origin + ":" + std::to_string(doc.second_document_line) +
           ": a second YAML document ('---'): a configuration file holds one document");
  size_t budget = kMaxConfigNodes;
  if (doc.root) flatten(doc.root, "", origin, *this, budget);
}

void ParamRegistry::load_yaml_file(const std::string& path) {
  const std::string problem = input_file_problem(path);
  if (!problem.empty()) throw ParamError(path + ": configuration file " + problem);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ParamError(path + ": cannot open configuration file");
  std::ostringstream text;
  text << f.rdbuf();
  load_yaml_text(text.str(), path);
}

std::string ParamRegistry::suggest(const std::string& name) const {
  if (name.size() > 256) return "";  // no parameter is near: not worth the edit distances
  std::string best;
  size_t best_d = std::max<size_t>(2, name.size() / 4) + 1;
  const std::string leaf = name.substr(name.rfind('.') + 1);
  for (const auto& [candidate, p] : params_) {
    size_t d = edit_distance(name, candidate);
    // The right leaf under another prefix ("dram.latency" for "dram.read_latency" is not; "dma.channels" for "dma0.channels" is).
    if (d >= best_d && candidate.size() > leaf.size() && candidate.compare(candidate.size() - leaf.size(), leaf.size(), leaf) == 0 &&
        candidate[candidate.size() - leaf.size() - 1] == '.')
      d = best_d - 1;
    if (d < best_d) best_d = d, best = candidate;
  }
  return best;
}

void ParamRegistry::check_unused_presets() {
  std::string msg;
  for (const auto& e : errors_) msg += (msg.empty() ? "" : "\n") + e;
  for (const auto& [name, p] : presets_) {
    if (p.used) continue;
    const std::string near = suggest(name);
    msg += (msg.empty() ? "" : "\n") + p.origin + ": unknown parameter " + quoted(name) +
           (near.empty() ? " (see --list-params)" : " (did you mean '" + near + "'?)");
  }
  errors_.clear();
  collecting_ = false;
  if (!msg.empty()) throw ParamError(msg);
}

std::string ParamRegistry::explain(const std::string& error) const {
  // The presets a derived-value error involves: those named by a dotted word of
  // the message, or lying under one ("harts.icache" covers "harts.icache.ways").
  std::string out = error;
  for (const auto& [name, p] : presets_) {
    if (!p.used) continue;
    for (size_t at = error.find(name); at != std::string::npos; at = error.find(name, at + 1)) {
      const auto word = [&](size_t i) { return i < error.size() && (std::isalnum(static_cast<unsigned char>(error[i])) || error[i] == '_'); };
      if ((at == 0 || !word(at - 1)) && !word(at + name.size()) ) {
        out += "\n  (" + name + " = " + p.text + " was set at " + p.origin + ")";
        break;
      }
    }
  }
  for (const auto& [name, p] : presets_) {
    const size_t dot = name.rfind('.');
    if (!p.used || dot == std::string::npos || out.find("\n  (" + name + " ") != std::string::npos) continue;
    const std::string parent = name.substr(0, dot);
    if (error.compare(0, parent.size() + 1, parent + ":") == 0 || error.compare(0, parent.size() + 1, parent + ".") == 0)
      out += "\n  (" + name + " = " + p.text + " was set at " + p.origin + ")";
  }
  return out;
}

void ParamRegistry::write_yaml(std::ostream& os) const {
  YAML::Emitter out;
  out << YAML::BeginMap;
  for (const auto& [name, p] : params_) out << YAML::Key << name << YAML::Value << p->value_string();
  out << YAML::EndMap;
  os << "# accel-vp resolved configuration: every parameter, read back with --config\n" << out.c_str() << "\n";
}

void ParamRegistry::clear_presets() {
  presets_.clear();
  errors_.clear();
  collecting_ = false;
}

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
