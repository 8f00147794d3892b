// The text trace (`--trace insn,mem,cmp,dma,pcie,aql`): one line per event,
// "<simulated time> <unit> <event>", written to a file. Categories, a hart
// filter (insn and mem events) and a simulated-time window select what is
// written. Models test `on(category)` (one load and branch) before building a
// line, so a disabled trace costs next to nothing.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <systemc>

#include "base/local_time.h"  // to_ps: trace lines are stamped in picoseconds

namespace avp {

enum TraceCategory : unsigned {
  kTraceInsn = 1, kTraceMem = 2, kTraceCmp = 4, kTraceDma = 8, kTracePcie = 16, kTraceAql = 32,
};

struct TextTraceOptions {
  unsigned categories = 0;        // TraceCategory bits
  std::vector<bool> harts;        // empty: every hart; else harts[i] selects hart i
  uint64_t from_ps = 0, to_ps = ~0ull;  // events in [from, to) are written
};

// Parsers for the command line; each throws ParamError with a precise message.
unsigned parse_trace_categories(const std::string& list);  // "insn,mem" or "all"
std::vector<bool> parse_trace_harts(const std::string& list);  // "0,3-5"
void parse_trace_window(const std::string& window, TextTraceOptions& opt);  // "10us:25us", "10us:", ":1ms"

class TextTrace {
 public:
  static TextTrace& instance();

  // Starts writing to `path` (throws ParamError when it cannot be created).
  void open(const std::string& path, const TextTraceOptions& opt);
  void close();

  bool on(TraceCategory c) const { return opt_.categories & c; }
  bool hart_selected(unsigned hart) const { return opt_.harts.empty() || (hart < opt_.harts.size() && opt_.harts[hart]); }
  bool in_window(uint64_t ps) const { return ps >= opt_.from_ps && ps < opt_.to_ps; }
  uint64_t window_end_ps() const { return opt_.to_ps; }

  // Writes "<time> <unit> <text>" when `ps` lies in the window.
  void line(uint64_t ps, const std::string& unit, const std::string& text);
  uint64_t lines() const { return lines_; }

 private:
  TextTraceOptions opt_;
  FILE* file_ = nullptr;
  uint64_t lines_ = 0;
};

}  // namespace avp
