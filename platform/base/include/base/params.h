// Named parameters in the style of Accellera CCI: every number an architect may
// change is a Param with a hierarchical name, a default and a description.
// Values come from presets (configuration file, --set) that are loaded before
// elaboration; a Param takes its preset when it is constructed.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

namespace avp {

struct ParamError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Text-to-value conversions shared by parameters and the CLI. Integers take
// 0x/0b prefixes, '_' separators and K/M/G/KiB/MiB/GiB suffixes; times take
// SystemC units ("10 ns", "1us"). They throw ParamError naming `what`.
uint64_t parse_u64(const std::string& text, const std::string& what);
int64_t parse_i64(const std::string& text, const std::string& what);
double parse_double(const std::string& text, const std::string& what);
bool parse_bool(const std::string& text, const std::string& what);
sc_core::sc_time parse_time(const std::string& text, const std::string& what);
std::string format_time(const sc_core::sc_time& t);

class ParamBase {
 public:
  ParamBase(std::string name, std::string description);
  virtual ~ParamBase();
  ParamBase(const ParamBase&) = delete;
  ParamBase& operator=(const ParamBase&) = delete;

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  virtual const char* type_name() const = 0;
  virtual std::string value_string() const = 0;
  virtual std::string default_string() const = 0;
  virtual nlohmann::json to_json() const = 0;
  // Parses and assigns; throws ParamError naming the parameter and `origin`.
  void set_from_string(const std::string& text, const std::string& origin = "");

 protected:
  virtual void assign(const std::string& text) = 0;
  void take_preset();  // derived constructors call this once the default is set

 private:
  std::string name_;
  std::string description_;
};

template <typename T>
class Param : public ParamBase {
 public:
  Param(const std::string& name, T default_value, const std::string& description)
      : ParamBase(name, description), value_(default_value), default_(default_value) {
    take_preset();
  }
  // Name relative to a SystemC object: "<owner>.<local>".
  Param(const sc_core::sc_object* owner, const std::string& local, T default_value, const std::string& description)
      : Param(std::string(owner->name()) + "." + local, default_value, description) {}

  const T& get() const { return value_; }
  operator const T&() const { return value_; }
  void set(const T& v) { value_ = v; }

  const char* type_name() const override;
  std::string value_string() const override { return to_text(value_); }
  std::string default_string() const override { return to_text(default_); }
  nlohmann::json to_json() const override;

 protected:
  void assign(const std::string& text) override;

 private:
  static std::string to_text(const T& v);
  T value_;
  T default_;
};

// Where a preset came from, for error messages: "configs/x.yaml:12" or "--set".
struct Preset {
  std::string text;
  std::string origin;
  bool used = false;
};

class ParamRegistry {
 public:
  static ParamRegistry& instance();

  void add_preset(const std::string& name, const std::string& text, const std::string& origin);
  // Loads a YAML file of nested maps; keys join with '.' into parameter names.
  void load_yaml_file(const std::string& path);
  void load_yaml_text(const std::string& text, const std::string& origin);
  // From now until check_unused_presets(), bad preset values and YAML problems
  // are collected instead of thrown, so one run reports every error of a file.
  void collect_errors() { collecting_ = true; }
  // Throws ParamError listing every collected error and every preset that named
  // no parameter (with the nearest parameter name as a suggestion); ends collecting.
  void check_unused_presets();
  void clear_presets();
  // The collected errors, handed over (collecting goes on).
  std::vector<std::string> take_errors() { return std::move(errors_); }
  // Throws `error`, or keeps it for check_unused_presets() while collecting.
  void report(const std::string& error);
  // The nearest parameter name to a misspelt one ("" when none is close).
  std::string suggest(const std::string& name) const;
  // `error` of a derived value, followed by the user's presets it involves and where they were set.
  std::string explain(const std::string& error) const;
  // Every parameter's value as flat YAML (`name: value`) that --config reads back.
  void write_yaml(std::ostream& os) const;

  const ParamBase* find(const std::string& name) const;
  ParamBase* find(const std::string& name);
  std::vector<const ParamBase*> all() const;  // sorted by name
  nlohmann::json to_json() const;             // name -> value

  // Used by ParamBase.
  void attach(ParamBase* p);
  void detach(ParamBase* p);
  Preset* preset_for(const std::string& name);

 private:
  std::map<std::string, ParamBase*> params_;
  std::map<std::string, Preset> presets_;
  std::vector<std::string> errors_;
  bool collecting_ = false;
};

}  // namespace avp
