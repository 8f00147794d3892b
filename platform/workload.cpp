#include "workload.h"

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

std::vector<const Workload*> all_workloads() {
  std::vector<const Workload*> v;
  for (const auto& kv : registry()) v.push_back(kv.second.get());
  return v;
}

}  // namespace avp
