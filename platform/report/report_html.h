// The self-contained HTML page of a run report (no network, no libraries).
#pragma once
#include <string>

namespace avp {
// report_json: the report document; timeline_json: [[tid, name, ts_us, dur_us], ...];
// tracks_json: {"tid": "track name"}.
std::string report_html_page(const std::string& report_json, const std::string& timeline_json,
                             const std::string& tracks_json);
}  // namespace avp
