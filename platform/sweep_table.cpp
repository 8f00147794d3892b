#include "sweep_table.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/params.h"

namespace avp {

namespace {

std::string safe(const std::string& s) {
  std::string r;
  for (char c : s) r += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
  return r;
}

// A metric is a manifest field ("simulated_time_ns") or "<statistic>.<field>"
// ("cmp.busy.fraction", "dma.bytes.value"). Null when the point has no value.
nlohmann::json metric_value(const nlohmann::json& m, const std::string& metric) {
  if (m.contains(metric) && m[metric].is_number()) return m[metric];
  const size_t dot = metric.rfind('.');
  if (dot == std::string::npos) return nullptr;
  const std::string stat = metric.substr(0, dot), field = metric.substr(dot + 1);
  if (m.contains("statistics") && m["statistics"].contains(stat) && m["statistics"][stat].contains(field))
    return m["statistics"][stat][field];
  return nullptr;
}

const char* kChart = R"HTML(<!DOCTYPE html><html><head><meta charset="utf-8"><title>accel-vp sweep</title>
<style>body{font-family:sans-serif;margin:24px}h2{font-size:15px}</style></head><body><h1>accel-vp sweep</h1><div id="charts"></div>
<script type="application/json" id="data">@DATA@</script>
<script>
const D = JSON.parse(document.getElementById('data').textContent), NS = 'http://www.w3.org/2000/svg';
function el(t, a, x) { const e = document.createElementNS(NS, t); for (const k in a) e.setAttribute(k, a[k]); if (x !== undefined) e.textContent = x; return e; }
const axis = D.axes[0];
for (const metric of D.metrics) {
  const h = document.createElement('h2'); h.textContent = `${metric} against ${axis}`; document.getElementById('charts').appendChild(h);
  const rows = D.rows.filter(r => r[metric] !== null);
  const series = {};
  for (const r of rows) { const key = D.axes.slice(1).map(a => `${a}=${r[a]}`).join(' ') || metric; (series[key] = series[key] || []).push([r[axis], r[metric]]); }
  const xs = [...new Set(rows.map(r => r[axis]))], ymax = Math.max(...rows.map(r => r[metric]), 1e-12);
  const s = el('svg', {width: 640, height: 300});
  s.appendChild(el('line', {x1: 60, y1: 260, x2: 620, y2: 260, stroke: '#000'}));
  s.appendChild(el('line', {x1: 60, y1: 20, x2: 60, y2: 260, stroke: '#000'}));
  s.appendChild(el('text', {x: 2, y: 24, 'font-size': 11}, ymax.toPrecision(4)));
  xs.forEach((x, i) => s.appendChild(el('text', {x: 60 + 560 * (i + 0.5) / xs.length, y: 278, 'font-size': 11}, x)));
  const colors = ['#4a7bd0', '#d07a4a', '#5aa05a', '#a05aa0', '#a0a05a'];
  Object.entries(series).forEach(([key, pts], k) => {
    const path = pts.map(([x, y], i) => `${i ? 'L' : 'M'}${60 + 560 * (xs.indexOf(x) + 0.5) / xs.length},${260 - 240 * y / ymax}`).join(' ');
    s.appendChild(el('path', {d: path, fill: 'none', stroke: colors[k % 5], 'stroke-width': 2, class: 'series'}));
    s.appendChild(el('text', {x: 440, y: 20 + 14 * k, 'font-size': 11, fill: colors[k % 5]}, key));
  });
  document.getElementById('charts').appendChild(s);
}
</script></body></html>
)HTML";

}  // namespace

std::vector<SweepPoint> sweep_grid(const SweepAxes& axes, const std::string& out) {
  std::vector<SweepPoint> points{SweepPoint{}};
  for (const auto& [name, values] : axes) {
    std::vector<SweepPoint> next;
    for (const auto& p : points)
      for (const auto& v : values) {
        SweepPoint q = p;
        q.values.push_back({name, v});
        next.push_back(q);
      }
    points = next;
  }
  for (auto& p : points) {
    std::string dir = out + "/point";
    for (const auto& [name, v] : p.values) dir += "_" + safe(name) + "-" + safe(v);
    p.dir = dir;
  }
  return points;
}

void write_sweep_results(const std::vector<SweepPoint>& points, const SweepAxes& axes,
                         const std::vector<std::string>& metrics, const std::string& out) {
  nlohmann::json rows = nlohmann::json::array();
  std::ofstream csv(out + "/results.csv");
  for (const auto& a : axes) csv << a.first << ",";
  for (size_t i = 0; i < metrics.size(); ++i) csv << metrics[i] << (i + 1 < metrics.size() ? "," : "\n");
  for (const auto& p : points) {
    nlohmann::json row;
    for (const auto& [name, v] : p.values) row[name] = v;
    std::ifstream f(p.dir + "/manifest.json");
    const nlohmann::json m = f ? nlohmann::json::parse(f, nullptr, false) : nlohmann::json();
    for (const auto& metric : metrics) row[metric] = m.is_discarded() || m.is_null() ? nullptr : metric_value(m, metric);
    for (const auto& [name, v] : p.values) csv << v << ",";
    for (size_t i = 0; i < metrics.size(); ++i) csv << (row[metrics[i]].is_null() ? "" : row[metrics[i]].dump()) << (i + 1 < metrics.size() ? "," : "\n");
    rows.push_back(row);
  }
  nlohmann::json names = nlohmann::json::array();
  for (const auto& a : axes) names.push_back(a.first);
  const nlohmann::json doc = {{"axes", names}, {"metrics", metrics}, {"rows", rows}};
  std::ofstream(out + "/results.json") << doc.dump(2) << "\n";
  std::string page = kChart;
  std::string data = doc.dump();
  for (size_t at = data.find("</"); at != std::string::npos; at = data.find("</", at + 2)) data.replace(at, 2, "<\\/");
  page.replace(page.find("@DATA@"), 6, data);
  std::ofstream(out + "/sweep.html") << page;
}

}  // namespace avp
