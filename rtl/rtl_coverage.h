// The RTL decoder's coverage file (--rtl-coverage): Verilator's coverage .dat
// of the coverage build (line, toggle and user points), its merge across
// runs through verilator_coverage, and the short report of what a run never
// exercised: the opcodes never decoded (cov_op_* points) and the decoder's
// error paths never taken (cov_err_* points).
#pragma once
#include <string>
#include <vector>

namespace avp {

struct RtlCoverage {
  unsigned lines_hit = 0, lines = 0;      // line and branch points
  unsigned toggles_hit = 0, toggles = 0;  // toggle points (one per signal bit)
  std::vector<std::string> opcodes_decoded, opcodes_never;  // cmp_packets.h names without AVP_CMP_
  std::vector<std::string> errors_taken, errors_never;      // error paths, names without AVP_CMP_ERR_
};

// Reads a .dat written by the coverage build (or merged by verilator_coverage);
// throws std::runtime_error naming the file when it cannot be read or has no
// decoder points.
RtlCoverage read_rtl_coverage(const std::string& dat);

// The report as text (several lines, each ending in a newline).
std::string rtl_coverage_report(const std::string& dat, const RtlCoverage& c);

// Where the report of `dat` is written: beside it, dat + ".txt".
std::string rtl_coverage_report_path(const std::string& dat);

// Reads `dat`, writes its report beside it and returns the coverage.
RtlCoverage write_rtl_coverage_report(const std::string& dat);

// `verilator_coverage --write out inputs...`: the points' counts summed.
// Throws std::runtime_error when verilator_coverage fails or is missing.
void merge_rtl_coverage(const std::vector<std::string>& inputs, const std::string& out);

}  // namespace avp
