#include "sweep_chart.h"

namespace avp {

namespace {

const char* kChart = R"HTML(<!DOCTYPE html><html><head><meta charset="utf-8"><title>accel-vp sweep</title>
<style>body{font-family:sans-serif;margin:24px}h2{font-size:15px}text{font-size:11px}td,th{padding:2px 8px;text-align:right}</style></head><body><h1>accel-vp sweep</h1><div id="charts"></div><h2>Results</h2><div id="table"></div>
<script type="application/json" id="data">@DATA@</script>
<script>
const D = JSON.parse(document.getElementById('data').textContent), NS = 'http://www.w3.org/2000/svg';
function el(t, a, x) { const e = document.createElementNS(NS, t); for (const k in a) e.setAttribute(k, a[k]); if (x !== undefined) e.textContent = x; return e; }
const axis = D.axes[0], colors = ['#4a7bd0', '#d07a4a', '#5aa05a', '#a05aa0', '#a0a05a', '#5aa0a0'];
const W = 560, H = 240, X0 = 80, Y0 = 270;
// Tick labels: 4 significant digits, small values in exponent form (never rounded to 0).
const fmt = v => v === 0 ? '0' : Math.abs(v) < 1e-3 ? v.toExponential(2) : Number(v.toPrecision(4)).toLocaleString('en', {maximumFractionDigits: 6});
// A metric's unit: the one the sweep recorded, else the one its name carries (simulated_time_ns, ...).
const unitOf = m => (D.units || {})[m] || (m.match(/_(ns|us|ms|s|bytes|ps)$/) || [, ''])[1] || (m.endsWith('.fraction') ? 'fraction' : '');
// Round ticks from 0: 1, 2 or 5 times a power of ten, about 5 of them up to at least ymax.
function ticks(ymax) {
  const raw = ymax / 5, p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map(m => m * p).find(v => v >= raw);
  const t = [];
  for (let v = 0; v < ymax + step - step * 1e-9; v += step) t.push(+v.toPrecision(12));
  return t;
}
for (const metric of D.metrics) {
  const h = document.createElement('h2'); h.textContent = `${metric}${unitOf(metric) ? ' (' + unitOf(metric) + ')' : ''} against ${axis}`; document.getElementById('charts').appendChild(h);
  const rows = D.rows.filter(r => r[metric] !== null), series = {};
  for (const r of rows) { const key = D.axes.slice(1).map(a => `${a}=${r[a]}`).join(' ') || metric; (series[key] = series[key] || []).push([r[axis], r[metric], r.report]); }
  // A metric at 0 at every point still gets a 0..1 axis (and says so), not ticks that all read 0.
  const top = Math.max(...rows.map(r => r[metric]), 0), allZero = rows.length > 0 && top === 0;
  const xs = [...new Set(D.rows.map(r => r[axis]))], yt = ticks(top > 0 ? top : 1);
  const ymax = yt[yt.length - 1], unit = unitOf(metric);
  if (allZero) { const n = document.createElement('div'); n.className = 'constant'; n.textContent = `${metric} is 0 at every point`; document.getElementById('charts').appendChild(n); }
  const px = x => X0 + W * (xs.indexOf(x) + 0.5) / xs.length, py = y => Y0 - H * y / ymax;
  const keys = Object.keys(series), legendW = Math.max(120, 7 * Math.max(...keys.map(k => k.length)));
  const s = el('svg', {width: X0 + W + 20 + legendW, height: Math.max(Y0 + 40, Y0 - H + 14 * keys.length + 10)});
  s.appendChild(el('line', {x1: X0, y1: Y0, x2: X0 + W, y2: Y0, stroke: '#000'}));
  s.appendChild(el('line', {x1: X0, y1: Y0 - H, x2: X0, y2: Y0, stroke: '#000'}));
  for (const v of yt) {
    s.appendChild(el('line', {x1: X0 - 4, y1: py(v), x2: X0 + W, y2: py(v), stroke: v ? '#ddd' : '#000'}));
    s.appendChild(el('text', {x: X0 - 6, y: py(v) + 4, 'text-anchor': 'end', class: 'tick'}, fmt(v)));
  }
  if (unit) s.appendChild(el('text', {x: X0 - 6, y: Y0 - H - 12, 'text-anchor': 'end'}, unit));
  xs.forEach(x => s.appendChild(el('text', {x: px(x), y: Y0 + 16, 'text-anchor': 'middle'}, x)));
  s.appendChild(el('text', {x: X0 + W / 2, y: Y0 + 34, 'text-anchor': 'middle'}, axis));
  Object.entries(series).forEach(([key, pts], k) => {
    const c = colors[k % colors.length];
    s.appendChild(el('path', {d: pts.map(([x, y], i) => `${i ? 'L' : 'M'}${px(x)},${py(y)}`).join(' '), fill: 'none', stroke: c, 'stroke-width': 2, class: 'series'}));
    for (const [x, y, report] of pts) {
      // Each point links to its own run's report (when the page has them).
      const d = el('circle', {cx: px(x), cy: py(y), r: 3, fill: c});
      d.appendChild(el('title', {}, `${key} ${axis}=${x}: ${y}` + (report ? ' (click: its report)' : '')));
      if (report) {
        const a = el('a', {href: report});
        a.appendChild(d);
        s.appendChild(a);
      } else {
        s.appendChild(d);
      }
    }
    s.appendChild(el('text', {x: X0 + W + 10, y: Y0 - H + 14 * k, fill: c}, key));
  });
  document.getElementById('charts').appendChild(s);
}
const t = document.createElement('table'), cols = D.axes.concat(D.metrics);
const head = t.insertRow(); for (const c of cols.concat(['report'])) head.appendChild(document.createElement('th')).textContent = c;
for (const r of D.rows) {
  const tr = t.insertRow();
  for (const c of cols) tr.insertCell().textContent = r[c] === null ? '' : typeof r[c] === 'number' ? +r[c].toPrecision(12) : r[c];
  const cell = tr.insertCell();
  if (r.report) { const a = document.createElement('a'); a.href = r.report; a.textContent = 'report'; cell.appendChild(a); }
}
document.getElementById('table').appendChild(t);
</script></body></html>
)HTML";

}  // namespace

std::string sweep_chart_html(const nlohmann::json& results) {
  std::string page = kChart, data = results.dump();
  // The data sits inside a <script> element: "</" must not end it.
  for (size_t at = data.find("</"); at != std::string::npos; at = data.find("</", at + 2)) data.replace(at, 2, "<\\/");
  page.replace(page.find("@DATA@"), 6, data);
  return page;
}

}  // namespace avp
