// The self-contained HTML page of a run report (no network, no libraries).
#pragma once
#include <string>

namespace avp {
// report_json: the report document; timeline_json: TimelineDigest::to_json() or null.
std::string report_html_page(const std::string& report_json, const std::string& timeline_json);
}  // namespace avp
