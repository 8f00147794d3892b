#include "platform/workload.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

namespace avp {
namespace {
std::map<std::string, std::unique_ptr<Workload>>& registry() {
  static std::map<std::string, std::unique_ptr<Workload>> r;
  return r;
}
}  // namespace

void register_workload(Workload w) {
  std::string name = w.name;
  registry()[name] = std::make_unique<Workload>(std::move(w));
}

const Workload* find_workload(const std::string& name) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : it->second.get();
}

WorkloadArg WorkloadArg::number(std::string name, uint64_t min, uint64_t max, uint64_t dflt, std::string description,
                                uint64_t multiple_of) {
  WorkloadArg a;
  a.name = std::move(name);
  a.description = std::move(description);
  a.min = min, a.max = max, a.multiple_of = multiple_of;
  a.default_value = std::to_string(dflt);
  return a;
}

WorkloadArg WorkloadArg::path(std::string name, std::string dflt, std::string description) {
  WorkloadArg a;
  a.name = std::move(name);
  a.description = std::move(description);
  a.file = true;
  a.default_value = std::move(dflt);
  return a;
}

std::string check_workload_args(const Workload& w, const std::vector<std::string>& given) {
  const std::string who = "run " + w.name + ": ";
  if (given.size() > w.args.size()) {
    if (w.args.empty()) return who + "takes no arguments, got " + std::to_string(given.size());
    std::string names;
    for (const auto& a : w.args) names += (names.empty() ? "" : " ") + ("[" + a.name + "]");
    return who + "expected at most " + std::to_string(w.args.size()) + " argument(s) " + names + ", got " +
           std::to_string(given.size());
  }
  for (size_t i = 0; i < given.size(); ++i) {
    const WorkloadArg& a = w.args[i];
    const std::string& v = given[i];
    if (a.file) {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(v, ec)) return who + a.name + " '" + v + "': no such file";
      continue;
    }
    const std::string range = std::to_string(a.min) + ".." + std::to_string(a.max);
    errno = 0;
    char* end = nullptr;
    const unsigned long long n = v.empty() || v.find_first_not_of("0123456789") != std::string::npos
                                     ? 0 : std::strtoull(v.c_str(), &end, 10);
    if (v.empty() || !end || *end || errno == ERANGE)
      return who + a.name + " '" + v + "' is not a number (expected " + range + ")";
    if (n < a.min || n > a.max) return who + a.name + " " + v + " is out of range " + range;
    if (n % a.multiple_of) return who + a.name + " " + v + " is not a multiple of " + std::to_string(a.multiple_of);
  }
  return "";
}

std::vector<std::string> describe_workload_args(const Workload& w) {
  std::vector<std::string> lines;
  for (const auto& a : w.args) {
    std::string what = a.file ? "file" : std::to_string(a.min) + ".." + std::to_string(a.max);
    if (a.multiple_of > 1) what += ", multiple of " + std::to_string(a.multiple_of);
    lines.push_back(a.name + " (" + what + ", default " + a.default_value + "): " + a.description);
  }
  return lines;
}

std::vector<const Workload*> all_workloads() {
  std::vector<const Workload*> v;
  for (const auto& kv : registry()) v.push_back(kv.second.get());
  return v;
}

}  // namespace avp
