// For fuzz targets of loaders that read a file: one temporary regular file
// per process, rewritten with each input and removed at exit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace avp::fuzz {
// The path of the temporary file, now holding exactly data[0..size).
const std::string& input_as_file(const uint8_t* data, size_t size);
}  // namespace avp::fuzz
