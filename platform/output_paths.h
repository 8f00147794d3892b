// Checks of the output paths a run will write (-o, --timeline, --trace-file,
// --vcd), made before the run starts so a bad path never costs a simulation
// or scatters files in the wrong place.
#pragma once
#include <string>

namespace avp {

struct SessionOptions;

// Creates the output directory and checks that it and the parents of the
// named files are writable directories; throws ParamError naming the option.
void check_output_paths(const SessionOptions& opt);

// The problem with `path` as an output file ("" when none): empty, a
// directory, or in a directory that does not exist or is not writable.
std::string output_file_problem(const std::string& path);

// Writes `text` to `path` through a temporary file in the same directory and
// rename(2); false (and no partial file) when it cannot.
bool write_file_atomically(const std::string& path, const std::string& text);

}  // namespace avp
