// The report of a run: report.json (statistics grouped by unit, schema in
// docs/reports.md) and a self-contained report.html with charts (utilisation
// bars, latency histograms, counters, and a timeline when tracing was on).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/trace.h"

namespace avp {

// Builds the report document from the manifest and the live statistics;
// `timeline` is the digest of the run's timeline (null: none recorded, or not yet closed).
// The statistics are the manifest's ("statistics"), or the live ones when it has none.
nlohmann::json build_report(const nlohmann::json& manifest, const TimelineDigest* timeline = nullptr);
void write_report_json(const nlohmann::json& report, const std::string& path);
void write_report_html(const nlohmann::json& report, const TimelineDigest* timeline, const std::string& path);
// "Where did the time go": the busiest units, one line each.
std::vector<std::string> busiest_units(const nlohmann::json& report, size_t count);

}  // namespace avp
