// The self-contained HTML chart of a sweep's results (no network, no libraries).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace avp {

// `results` is results.json: {"axes": [...], "metrics": [...], "rows": [...]}.
// One SVG chart per metric against the first axis, one line per combination
// of the other axes.
std::string sweep_chart_html(const nlohmann::json& results);

}  // namespace avp
