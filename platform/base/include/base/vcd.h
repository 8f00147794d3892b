// Value change dump (IEEE 1364 VCD) of 1-bit signals such as interrupt lines,
// with simulated timestamps in picoseconds. Like the timeline, recording is off
// unless a run enables it; the file is written at the end of the run.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <systemc>

namespace avp {

class Vcd {
 public:
  static Vcd& instance();
  bool enabled() const { return enabled_; }
  void enable(bool on) { enabled_ = on; }
  void clear();

  // Declares a wire (value 0 at time 0) or an event; names are dotted scopes
  // ("pcie.intr.cmdbuf_done"). Declaring twice is harmless.
  void wire(const std::string& name);
  void event(const std::string& name);
  // A wire takes `value` at `at` (recorded only when it changes).
  void change(const std::string& name, bool value, const sc_core::sc_time& at = sc_core::sc_time_stamp());
  // An event fires at `at`.
  void trigger(const std::string& name, const sc_core::sc_time& at = sc_core::sc_time_stamp());

  std::string to_string() const;
  void write(const std::string& path) const;

 private:
  struct Signal {
    std::string name, code;
    bool is_event = false, value = false;
  };
  struct Change {
    uint64_t ps;
    size_t signal;
    bool value;
  };
  size_t declare(const std::string& name, bool is_event);
  bool enabled_ = false;
  std::vector<Signal> signals_;
  std::map<std::string, size_t> by_name_;
  std::vector<Change> changes_;
};

}  // namespace avp
