// stats.txt: the statistics as plain text in gem5's style, one line per
// value ("name  value  # description (unit)"), one section per
// region-of-interest dump and a last one for the end of the run.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace avp {

// One section. statistics: name -> stat (StatRegistry::to_json); title says
// what the section covers; times in ns.
std::string stats_text_section(const std::string& title, double time_ns, double since_ns, const nlohmann::json& statistics);
// Every dump of StatRegistry, then `final_stats` at `end_ns`, into `path`.
void write_stats_text(const std::string& path, const nlohmann::json& final_stats, double end_ns);

}  // namespace avp
