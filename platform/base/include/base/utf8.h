// UTF-8 validity of text read from files (YAML must be UTF-8; yaml-cpp
// accepts other bytes silently and writes them back differently).
#pragma once
#include <cstddef>
#include <string>

namespace avp {

// The offset of the first byte that is not part of well-formed UTF-8
// (overlong forms, surrogates and code points above U+10FFFF included), or
// std::string::npos when all of `text` is UTF-8.
size_t invalid_utf8_offset(const std::string& text);

}  // namespace avp
