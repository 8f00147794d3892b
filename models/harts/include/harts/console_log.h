// The console sink: every line the harts print (ECALL prints and the console
// device), in order, with its hart and simulated time. Each line goes to
// stdout ("[hartN] text") and to the trace; the first kKeptLines lines (each
// cut to kKeptChars) are kept for the manifest and the report, so a kernel
// printing in a loop cannot exhaust the host, and the rest are counted.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "base/log.h"

namespace avp {

class ConsoleLog {
 public:
  static constexpr size_t kKeptLines = 10000, kKeptChars = 1024;
  struct Line {
    unsigned hart;
    sc_core::sc_time time;
    std::string text;
  };

  // track(hart): the trace track a hart's lines go to.
  ConsoleLog(const std::string& owner, std::function<std::string(unsigned hart)> track);
  void line(unsigned hart, const sc_core::sc_time& when, const std::string& text);

  const std::vector<std::string>& text() const { return text_; }  // "[hartN] text"
  const std::vector<Line>& lines() const { return lines_; }
  uint64_t dropped() const { return dropped_; }  // lines not kept

 private:
  std::function<std::string(unsigned)> track_;
  std::vector<std::string> text_;
  std::vector<Line> lines_;
  uint64_t dropped_ = 0;
  Logger log_;
};

}  // namespace avp
