// Input files (configurations, ELF programs, command buffers, data) must be
// readable regular files: a directory, FIFO or device would block, loop or
// read garbage. The check shared by every loader.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace avp {

// The problem with `path` as an input file, as text for an error message
// ("" when it is a readable regular file).
std::string input_file_problem(const std::string& path);

// The size of an input file; throws std::runtime_error with the problem.
uint64_t input_file_size(const std::string& path);
// The first `max_bytes` of an input file (all of it when shorter); throws
// std::runtime_error with the problem.
std::vector<uint8_t> read_input_prefix(const std::string& path, uint64_t max_bytes);
// A whole input file of at most `max_bytes` (the memory it goes to), checked
// before it is read: throws std::runtime_error when it is larger, or grows
// past that while it is read.
std::vector<uint8_t> read_input_file(const std::string& path, uint64_t max_bytes);

}  // namespace avp
