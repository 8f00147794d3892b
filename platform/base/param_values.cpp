// Parameter values as text: numbers (with underscores, k/M/G suffixes and hex),
// booleans and times with units, each error naming the parameter.
#include "base/params.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "base/local_time.h"
#include "base/utf8.h"

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
  throw ParamError(what + ": " + quoted(text) + " is not " + expected);
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
  } catch (const std::out_of_range&) {
    bad(what, raw, "a 64-bit value");
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
  if (!std::isfinite(v)) bad(what, raw, "a finite number");
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
  if (t == "0") return sc_core::SC_ZERO_TIME;  // zero needs no unit
  static const std::pair<const char*, double> units[] = {
      {"fs", 1e-15}, {"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}};
  for (const auto& [name, unit] : units) {
    size_t n = std::string(name).size();
    if (t.size() > n && t.compare(t.size() - n, n, name) == 0) {
      std::string num = strip(t.substr(0, t.size() - n));
      if (!num.empty() && (std::isdigit(static_cast<unsigned char>(num.back())) || num.back() == '.')) {
        double v = parse_double(num, what);
        if (v < 0) bad(what, raw, "a non-negative time");
        // Whole ticks of the SystemC time resolution only: "1 fs" would silently become 0.
        const sc_core::sc_time res = sc_core::sc_get_time_resolution();
        const double ticks = v * unit / res.to_seconds();
        if (ticks >= 0x1p63) bad(what, raw, "a time that fits in SystemC's 64-bit time");
        const double whole = std::round(ticks);
        if (std::fabs(ticks - whole) > 1e-6 * std::max(1.0, whole))
          throw ParamError(what + ": " + quoted(raw) + " is not a whole multiple of the time resolution (" + res.to_string() + ")");
        return res * whole;
      }
    }
  }
  bad(what, raw, "a time with a unit (e.g. '10 ns')");
}

std::string format_time(const sc_core::sc_time& t) {
  // Picks the largest unit that keeps an integral value, so round trips are exact.
  const uint64_t ps = to_ps(t);
  if (ps == 0) return "0 ns";
  if (ps % 1000000000000ull == 0) return std::to_string(ps / 1000000000000ull) + " s";
  if (ps % 1000000 == 0) return std::to_string(ps / 1000000) + " us";
  if (ps % 1000 == 0) return std::to_string(ps / 1000) + " ns";
  char buf[64];
  if (ps >= 1000000) std::snprintf(buf, sizeof buf, "%.6f us", ps / 1e6);
  else std::snprintf(buf, sizeof buf, "%.3f ns", ps / 1e3);
  return buf;
}

}  // namespace avp
