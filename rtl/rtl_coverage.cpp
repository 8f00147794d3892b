#include "rtl_coverage.h"

#include <spawn.h>
#include <cerrno>
#include <sys/wait.h>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace avp {
namespace {

// One point of a .dat line: C '<\1key\2value...>' count.
struct Point {
  std::map<std::string, std::string> fields;
  unsigned long long count = 0;
};

bool parse_point(const std::string& line, Point& p) {
  if (line.rfind("C '", 0) != 0) return false;
  const size_t end = line.rfind('\'');
  if (end == std::string::npos || end < 3) return false;
  const std::string body = line.substr(3, end - 3);
  size_t i = 0;
  while ((i = body.find('\1', i)) != std::string::npos) {
    const size_t sep = body.find('\2', i);
    if (sep == std::string::npos) return false;
    const size_t next = body.find('\1', sep);
    p.fields[body.substr(i + 1, sep - i - 1)] = body.substr(sep + 1, next == std::string::npos ? std::string::npos : next - sep - 1);
    i = sep;
  }
  try {
    p.count = std::stoull(line.substr(end + 1));
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

std::string join(const std::vector<std::string>& v) {
  if (v.empty()) return "none";
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

}  // namespace

RtlCoverage read_rtl_coverage(const std::string& dat) {
  std::ifstream in(dat);
  if (!in) throw std::runtime_error(dat + ": cannot read the RTL coverage file");
  RtlCoverage c;
  std::string line;
  while (std::getline(in, line)) {
    Point p;
    if (!parse_point(line, p)) continue;
    const std::string page = p.fields["page"], name = p.fields["o"];
    const bool hit = p.count > 0;
    if (page.rfind("v_line", 0) == 0 || page.rfind("v_branch", 0) == 0) {
      ++c.lines;
      c.lines_hit += hit;
    } else if (page.rfind("v_toggle", 0) == 0) {
      ++c.toggles;
      c.toggles_hit += hit;
    } else if (page.rfind("v_user", 0) == 0) {
      if (name.rfind("cov_op_", 0) == 0) (hit ? c.opcodes_decoded : c.opcodes_never).push_back(name.substr(7));
      else if (name.rfind("cov_err_", 0) == 0) (hit ? c.errors_taken : c.errors_never).push_back(name.substr(8));
    }
  }
  if (c.opcodes_decoded.empty() && c.opcodes_never.empty())
    throw std::runtime_error(dat + ": not a coverage file of the RTL command decoder (no cov_op_* points)");
  return c;
}

std::string rtl_coverage_report(const std::string& dat, const RtlCoverage& c) {
  std::ostringstream os;
  os << "RTL command decoder coverage: " << dat << " (verilator_coverage reads it)\n"
     << "  line points hit          " << c.lines_hit << "/" << c.lines << "\n"
     << "  toggle points hit        " << c.toggles_hit << "/" << c.toggles << "\n"
     << "  opcodes decoded          " << join(c.opcodes_decoded) << "\n"
     << "  opcodes never decoded    " << join(c.opcodes_never) << "\n"
     << "  error paths taken        " << join(c.errors_taken) << "\n"
     << "  error paths never taken  " << join(c.errors_never) << "\n";
  return os.str();
}

std::string rtl_coverage_report_path(const std::string& dat) { return dat + ".txt"; }

RtlCoverage write_rtl_coverage_report(const std::string& dat) {
  const RtlCoverage c = read_rtl_coverage(dat);
  const std::string path = rtl_coverage_report_path(dat);
  std::ofstream out(path);
  out << rtl_coverage_report(dat, c);
  if (!out.flush()) throw std::runtime_error(path + ": cannot write the RTL coverage report");
  return c;
}

void merge_rtl_coverage(const std::vector<std::string>& inputs, const std::string& out) {
  std::vector<std::string> args = {"verilator_coverage", "--write", out};
  args.insert(args.end(), inputs.begin(), inputs.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0)
    throw std::runtime_error("verilator_coverage: cannot run it (is Verilator installed?) to merge into " + out);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("verilator_coverage --write " + out + " failed (status " + std::to_string(status) + ")");
}

}  // namespace avp
