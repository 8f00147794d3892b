#include "base/duration_text.h"

#include <cmath>
#include <cstdio>
#include <iterator>

#include "base/local_time.h"

namespace avp {

std::string format_duration_ns(double ns) {
  static const struct {
    double ns;
    const char* unit;
  } units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}, {1e-3, "ps"}};
  if (ns == 0) return "0 ns";
  const auto* u = &units[0];
  while (u + 1 != std::end(units) && std::abs(ns) < u->ns * 0.9995) ++u;  // 999.9996 ns is 1 us, not 1000.000 ns
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", ns / u->ns);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s + " " + u->unit;
}

std::string format_duration(const sc_core::sc_time& t) { return format_duration_ns(to_ps(t) / 1e3); }

}  // namespace avp
