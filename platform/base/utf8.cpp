#include "base/utf8.h"

namespace avp {

size_t invalid_utf8_offset(const std::string& text) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = byte(i);
    if (c < 0x80) {
      ++i;
      continue;
    }
    // Sequence length and the range of its second byte (RFC 3629, table 3-7 of Unicode).
    size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c == 0xE0) n = 3, lo = 0xA0;
    else if (c == 0xED) n = 3, hi = 0x9F;
    else if (c >= 0xE1 && c <= 0xEF) n = 3;
    else if (c == 0xF0) n = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) n = 4;
    else if (c == 0xF4) n = 4, hi = 0x8F;
    else return i;
    if (i + n > text.size() || byte(i + 1) < lo || byte(i + 1) > hi) return i;
    for (size_t k = 2; k < n; ++k)
      if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return i;
    i += n;
  }
  return std::string::npos;
}

std::string quoted(const std::string& text) {
  constexpr size_t kWhole = 80, kCut = 64;
  if (text.size() <= kWhole) return "'" + text + "'";
  size_t cut = kCut;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return "'" + text.substr(0, cut) + "...' (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace avp
