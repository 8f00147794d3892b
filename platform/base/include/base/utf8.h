// UTF-8 text read from files and command lines: its validity (YAML must be
// UTF-8; yaml-cpp accepts other bytes silently and writes them back
// differently) and how it is quoted in messages.
#pragma once
#include <cstddef>
#include <string>

namespace avp {

// The offset of the first byte that is not part of well-formed UTF-8
// (overlong forms, surrogates and code points above U+10FFFF included), or
// std::string::npos when all of `text` is UTF-8.
size_t invalid_utf8_offset(const std::string& text);

// A user's text in single quotes for an error message; text over 80 bytes is
// cut to its first 64 (not inside a character) with its length, so a huge bad
// value is not echoed whole.
std::string quoted(const std::string& text);

}  // namespace avp
