#include "base/text_trace.h"

#include <cinttypes>

#include "base/params.h"

namespace avp {
namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t p = s.find(sep, start);
    out.push_back(trim(s.substr(start, p == std::string::npos ? std::string::npos : p - start)));
    if (p == std::string::npos) return out;
    start = p + 1;
  }
}

unsigned parse_hart_number(const std::string& t, const std::string& list) {
  if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 6)
    throw ParamError("--trace-harts " + list + ": '" + t + "' is not a hart number");
  return static_cast<unsigned>(std::stoul(t));
}

}  // namespace

unsigned parse_trace_categories(const std::string& list) {
  static const std::pair<const char*, unsigned> names[] = {{"insn", kTraceInsn}, {"mem", kTraceMem}, {"cmp", kTraceCmp},
                                                           {"dma", kTraceDma},   {"pcie", kTracePcie}, {"aql", kTraceAql}};
  unsigned bits = 0;
  for (const std::string& item : split(list, ',')) {
    unsigned b = 0;
    if (item == "all") b = kTraceInsn | kTraceMem | kTraceCmp | kTraceDma | kTracePcie | kTraceAql;
    for (const auto& [name, bit] : names)
      if (item == name) b = bit;
    if (!b)
      throw ParamError("--trace " + list + ": unknown category '" + item + "' (expected insn, mem, cmp, dma, pcie, aql or all)");
    bits |= b;
  }
  return bits;
}

std::vector<bool> parse_trace_harts(const std::string& list) {
  std::vector<bool> sel;
  for (const std::string& item : split(list, ',')) {
    const size_t dash = item.find('-');
    const unsigned lo = parse_hart_number(item.substr(0, dash), list);
    const unsigned hi = dash == std::string::npos ? lo : parse_hart_number(item.substr(dash + 1), list);
    if (hi < lo) throw ParamError("--trace-harts " + list + ": range '" + item + "' is empty");
    if (sel.size() <= hi) sel.resize(hi + 1, false);
    for (unsigned h = lo; h <= hi; ++h) sel[h] = true;
  }
  return sel;
}

void parse_trace_window(const std::string& window, TextTraceOptions& opt) {
  const size_t colon = window.find(':');
  if (colon == std::string::npos || window.find(':', colon + 1) != std::string::npos)
    throw ParamError("--trace-window " + window + ": expected FROM:TO with units (e.g. 10us:25us; either side may be empty)");
  const std::string from = trim(window.substr(0, colon)), to = trim(window.substr(colon + 1));
  opt.from_ps = from.empty() ? 0 : to_ps(parse_time(from, "--trace-window start"));
  opt.to_ps = to.empty() ? ~0ull : to_ps(parse_time(to, "--trace-window end"));
  if (opt.to_ps <= opt.from_ps) throw ParamError("--trace-window " + window + ": the end is not after the start");
}

TextTrace& TextTrace::instance() {
  static TextTrace t;
  return t;
}

void TextTrace::open(const std::string& path, const TextTraceOptions& opt) {
  close();
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw ParamError(path + ": cannot write the trace file");
  opt_ = opt;
  lines_ = 0;
}

void TextTrace::close() {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  opt_ = TextTraceOptions{};
}

void TextTrace::line(uint64_t ps, const std::string& unit, const std::string& text) {
  if (!file_ || !in_window(ps)) return;
  std::fprintf(file_, "%12" PRIu64 ".%03u ns  %-10s %s\n", ps / 1000, static_cast<unsigned>(ps % 1000), unit.c_str(),
               text.c_str());
  ++lines_;
}

}  // namespace avp
