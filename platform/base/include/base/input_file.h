// Input files (configurations, ELF programs, command buffers, data) must be
// readable regular files: a directory, FIFO or device would block, loop or
// read garbage. The check shared by every loader.
#pragma once
#include <string>

namespace avp {

// The problem with `path` as an input file, as text for an error message
// ("" when it is a readable regular file).
std::string input_file_problem(const std::string& path);

}  // namespace avp
