#include "report_html.h"

#include "report_html_timeline.h"

namespace avp {

namespace {
// JSON embedded in a <script> must not close the element.
std::string embed(std::string s) {
  for (size_t at = s.find("</"); at != std::string::npos; at = s.find("</", at + 2)) s.replace(at, 2, "<\\/");
  return s;
}

const char* kPage = R"HTML(<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>accel-vp run report</title>
<style>
body{font-family:sans-serif;margin:24px;color:#222}h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}.hist{display:inline-block;margin:6px 12px 6px 0}
.muted{color:#777;font-size:12px}
table.config td,table.files td,table.non-default td{text-align:left;word-break:break-all;max-width:900px}
</style></head><body>
<h1>accel-vp run report</h1><div id="run"></div>
<h2>Configuration</h2><div id="config"></div>
<h2>Files</h2><div id="files"></div>
<h2>Utilisation</h2><div id="util"></div>
<h2>Queue occupancy</h2><div id="occupancy"></div>
<h2>Harts</h2><div id="harts"></div>
<h2>Timeline</h2><div id="timeline"></div>
<h2>Latency histograms</h2><div id="hist"></div>
<h2>Counters</h2><div id="counters"></div>
<script type="application/json" id="report">@REPORT@</script>
<script type="application/json" id="timeline-data">@TIMELINE@</script>
<script>
const R = JSON.parse(document.getElementById('report').textContent);
const TL = JSON.parse(document.getElementById('timeline-data').textContent);
const NS = 'http://www.w3.org/2000/svg';
function el(tag, attrs, text) { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; return e; }
function svg(w, h) { return el('svg', {width: w, height: h, viewBox: `0 0 ${w} ${h}`}); }
// Round tick values: 1, 2 or 5 times a power of ten, about n of them over [lo, hi].
function niceTicks(lo, hi, n) {
  const raw = (hi - lo) / Math.max(1, n), p = Math.pow(10, Math.floor(Math.log10(raw || 1)));
  const step = [1, 2, 5, 10].map(m => m * p).find(s => s >= raw) || 10 * p;
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return {ticks, step};
}
// A time in ns with the unit that suits it.
function fmtTime(ns, step) {
  const units = [[1e9, 's'], [1e6, 'ms'], [1e3, 'us'], [1, 'ns']];
  const [div, u] = units.find(([d]) => Math.abs(step || ns) >= d) || units[3];
  const digits = step ? Math.max(0, Math.ceil(-Math.log10(step / div) - 1e-9)) : 3;
  return (ns / div).toFixed(Math.min(digits, 6)) + ' ' + u;
}
// A time axis along y from x0 over width w for [lo, hi] ns.
function timeAxis(s, x0, w, y, lo, hi) {
  s.appendChild(el('line', {x1: x0, y1: y, x2: x0 + w, y2: y, stroke: '#888', class: 'axis'}));
  const {ticks, step} = niceTicks(lo, hi, 8);
  for (const v of ticks) {
    const x = x0 + w * (v - lo) / ((hi - lo) || 1);
    s.appendChild(el('line', {x1: x, y1: y, x2: x, y2: y + 4, stroke: '#888'}));
    // A label that would stick out past an end of the axis is aligned to that end.
    const label = fmtTime(v, step), half = label.length * 3;
    const anchor = x + half > x0 + w ? 'end' : x - half < x0 ? 'start' : 'middle';
    s.appendChild(el('text', {x, y: y + 16, 'font-size': 10, 'text-anchor': anchor, class: 'tick'}, label));
  }
}
// A 0-100 % axis along y under bars that start at x0 and are w wide at 100 %.
function pctAxis(s, x0, w, y) {
  s.appendChild(el('line', {x1: x0, y1: y, x2: x0 + w, y2: y, stroke: '#888', class: 'axis'}));
  for (let p = 0; p <= 100; p += 25) {
    const x = x0 + w * p / 100;
    s.appendChild(el('line', {x1: x, y1: y, x2: x, y2: y + 4, stroke: '#888'}));
    s.appendChild(el('text', {x, y: y + 15, 'font-size': 10, 'text-anchor': 'middle', class: 'tick'}, p + ' %'));
  }
}
// Names of rows left out of a chart because they are all zero, said under it.
function folded(parent, names, what) {
  if (!names.length) return;
  const d = document.createElement('div'); d.className = 'muted folded';
  d.textContent = `${names.length} ${what} (not drawn): ${names.join(', ')}`;
  parent.appendChild(d);
}
const run = R.run || {};
document.getElementById('run').textContent = `workload ${run.workload}, simulated ${fmtTime(run.simulated_time_ns)}, wall ${fmtTime(run.wall_time_s * 1e9)}, seed ${run.seed}, config ${run.config_hash}, version ${run.version}`;
// Configuration: how the run was asked for, and every parameter that is not at its default.
function cell(tr, tag, text) { const c = document.createElement(tag); c.textContent = text; tr.appendChild(c); }
{
  const cfg = R.configuration || {}, box = document.getElementById('config');
  const lines = [['command line', cfg.command_line || ''], ['config file', cfg.config_file || '(none)'],
                 ['--set', (cfg.sets || []).join(' ') || '(none)']];
  const nd = Object.entries(cfg.non_default_parameters || {});
  const t = document.createElement('table'); t.className = 'config';
  for (const [k, v] of lines) { const tr = document.createElement('tr'); cell(tr, 'td', k); cell(tr, 'td', v); t.appendChild(tr); }
  box.appendChild(t);
  const p = document.createElement('table'); p.className = 'non-default';
  const head = document.createElement('tr'); for (const h of ['parameter not at its default', 'value', 'default']) cell(head, 'th', h);
  p.appendChild(head);
  for (const [n, v] of nd) { const tr = document.createElement('tr'); cell(tr, 'td', n); cell(tr, 'td', v.value); cell(tr, 'td', v.default); p.appendChild(tr); }
  if (nd.length) box.appendChild(p);
  else { const d = document.createElement('div'); d.className = 'muted'; d.textContent = 'every parameter at its default'; box.appendChild(d); }
  const ft = document.createElement('table'); ft.className = 'files';
  for (const [k, v] of Object.entries(R.outputs || {})) { const tr = document.createElement('tr'); cell(tr, 'td', k); cell(tr, 'td', v); ft.appendChild(tr); }
  document.getElementById('files').appendChild(ft);
}
// Utilisation bars.
const util = [];
for (const [u, g] of Object.entries(R.units)) for (const [s, v] of Object.entries(g.utilisation || {})) util.push([u + '.' + s, v.fraction]);
util.sort((a, b) => b[1] - a[1]);
const busyUnits = util.filter(([, f]) => f > 0);
const us = svg(760, 20 * busyUnits.length + 30);
us.setAttribute('class', 'chart utilisation');
busyUnits.forEach(([n, f], i) => {
  us.appendChild(el('text', {x: 0, y: 20 * i + 14, 'font-size': 12}, n));
  us.appendChild(el('rect', {x: 260, y: 20 * i + 3, width: Math.max(1, 400 * f), height: 14, fill: '#4a7bd0', class: 'bar'}));
  us.appendChild(el('text', {x: 670, y: 20 * i + 14, 'font-size': 12}, (100 * f).toFixed(1) + ' %'));
});
pctAxis(us, 260, 400, 20 * busyUnits.length + 4);
const utilBox = document.getElementById('util');
utilBox.appendChild(busyUnits.length ? us : document.createTextNode(util.length ? 'no unit was busy' : 'no utilisation statistics'));
folded(utilBox, util.filter(([, f]) => !(f > 0)).map(([n]) => n), 'units idle the whole run (0.0 %)');
// Queue occupancy: time-weighted mean (bar) and maximum (tick).
const occ = [];
const occAll = [];
for (const [u, g] of Object.entries(R.units)) for (const [s, o] of Object.entries(g.occupancy || {})) occAll.push([u + '.' + s, o]);
for (const q of occAll) if (q[1].max > 0) occ.push(q);
if (occ.length) {
  const top = Math.max(1, ...occ.map(([, o]) => o.max));
  const os = svg(900, 20 * occ.length + 10);
  os.setAttribute('class', 'chart occupancy');
  occ.forEach(([n, o], i) => {
    os.appendChild(el('text', {x: 0, y: 20 * i + 14, 'font-size': 12}, n));
    os.appendChild(el('rect', {x: 260, y: 20 * i + 3, width: Math.max(1, 400 * o.mean / top), height: 14, fill: '#8a6ad0', class: 'bar'}));
    os.appendChild(el('rect', {x: 260 + 400 * o.max / top, y: 20 * i + 1, width: 2, height: 18, fill: '#222'}));
    os.appendChild(el('text', {x: 670, y: 20 * i + 14, 'font-size': 12}, `mean ${o.mean.toFixed(3)} max ${o.max} ${o.unit}`));
  });
  document.getElementById('occupancy').appendChild(os);
} else if (!occAll.length) {
  document.getElementById('occupancy').textContent = 'no queue statistics';
}
folded(document.getElementById('occupancy'), occAll.filter(([, o]) => !(o.max > 0)).map(([n]) => n), 'queues empty the whole run');
// Harts: instructions, IPC, cache hit rates and stall time by cause (stacked bar of the busy time).
const harts = Object.entries(R.units).filter(([, g]) => g.derived && g.counters && g.counters.instructions);
if (harts.length) {
  const causes = [...new Set(harts.flatMap(([, g]) => Object.keys(g.derived.stall_ns || {})))].sort();
  const colours = ['#d04a4a', '#4a7bd0', '#d0a84a', '#5aa05a', '#8a6ad0', '#4ab8d0'];
  const pct = v => v === undefined ? '-' : (100 * v).toFixed(1) + ' %';
  const ht = document.createElement('table');
  ht.innerHTML = '<tr><th>hart</th><th>instructions</th><th>IPC</th><th>issue IPC</th><th>I-cache hits</th><th>D-cache hits</th><th>busy us</th>' +
                 causes.map(c => `<th>stall ${c} us</th>`).join('') + '</tr>';
  for (const [u, g] of harts) {
    const d = g.derived, busy = g.utilisation && g.utilisation.busy ? g.utilisation.busy.busy_ns : 0;
    const tr = document.createElement('tr');
    tr.innerHTML = `<td>${u}</td><td>${g.counters.instructions.value}</td><td>${d.ipc === undefined ? '-' : d.ipc.toFixed(3)}</td>` +
                   `<td>${d.issue_ipc === undefined ? '-' : d.issue_ipc.toFixed(3)}</td><td>${pct(d.icache_hit_rate)}</td><td>${pct(d.dcache_hit_rate)}</td>` +
                   `<td>${(busy / 1000).toFixed(3)}</td>` + causes.map(c => `<td>${((d.stall_ns || {})[c] / 1000 || 0).toFixed(3)}</td>`).join('');
    ht.appendChild(tr);
  }
  document.getElementById('harts').appendChild(ht);
  const ss = svg(760, 20 * harts.length + 50);
  ss.setAttribute('class', 'chart stalls');
  harts.forEach(([u, g], i) => {
    ss.appendChild(el('text', {x: 0, y: 20 * i + 14, 'font-size': 12}, u));
    let x = 160;
    for (const [k, c] of causes.entries()) {
      const w = 500 * ((g.derived.stall_fraction || {})[c] || 0);
      ss.appendChild(el('rect', {x, y: 20 * i + 3, width: w, height: 14, fill: colours[k % colours.length], class: 'bar'}));
      x += w;
    }
  });
  pctAxis(ss, 160, 500, 20 * harts.length + 4);
  causes.forEach((c, k) => {
    ss.appendChild(el('rect', {x: 160 + 90 * k, y: 20 * harts.length + 30, width: 10, height: 10, fill: colours[k % colours.length]}));
    ss.appendChild(el('text', {x: 174 + 90 * k, y: 20 * harts.length + 39, 'font-size': 11}, c));
  });
  const cap = document.createElement('div'); cap.className = 'muted'; cap.textContent = 'stall time as a share of each hart\'s busy time';
  document.getElementById('harts').appendChild(ss); document.getElementById('harts').appendChild(cap);
} else {
  document.getElementById('harts').textContent = 'no hart ran';
}
@TIMELINE_SCRIPT@
// Histograms.
for (const [u, g] of Object.entries(R.units)) for (const [s, h] of Object.entries(g.histograms || {})) {
  if (!h.count) continue;
  const div = document.createElement('div'); div.className = 'hist';
  div.appendChild(document.createTextNode(`${u}.${s} (${h.unit}): n=${h.count} p50=${h.p50.toFixed(1)} p95=${h.p95.toFixed(1)} p99=${h.p99.toFixed(1)}`));
  const b = h.buckets, max = Math.max(...b.map(x => x[1]));
  // Bars from x = 40 (left of it the count axis), values along x.
  const hs = svg(340, 94);
  hs.setAttribute('class', 'chart histogram');
  hs.appendChild(el('line', {x1: 38, y1: 2, x2: 38, y2: 78, stroke: '#888', class: 'axis'}));
  hs.appendChild(el('text', {x: 35, y: 10, 'font-size': 10, 'text-anchor': 'end', class: 'tick'}, `${max}`));
  hs.appendChild(el('text', {x: 35, y: 78, 'font-size': 10, 'text-anchor': 'end', class: 'tick'}, '0'));
  hs.appendChild(el('text', {x: 35, y: 44, 'font-size': 9, 'text-anchor': 'end'}, 'count'));
  b.forEach(([v, n], i) => {
    const r = el('rect', {x: 40 + 300 * i / b.length, y: 78 - 76 * n / max, width: Math.max(1, 300 / b.length - 1), height: 76 * n / max, fill: '#5aa05a', class: 'bar'});
    r.appendChild(el('title', {}, `${v.toPrecision(4)} ${h.unit}: ${n}`));
    hs.appendChild(r);
  });
  hs.appendChild(el('text', {x: 40, y: 92, 'font-size': 10}, `${h.min.toPrecision(4)}`));
  hs.appendChild(el('text', {x: 340, y: 92, 'font-size': 10, 'text-anchor': 'end'}, `${h.max.toPrecision(4)} ${h.unit} (buckets in value order)`));
  div.appendChild(document.createElement('br')); div.appendChild(hs);
  document.getElementById('hist').appendChild(div);
}
// Counters (statistics of the other groups are in the sections above).
const table = document.createElement('table');
table.innerHTML = '<tr><th>counter</th><th>value</th><th>unit</th></tr>';
const zeroCounters = [];
for (const [u, g] of Object.entries(R.units)) for (const [s, c] of Object.entries(g.counters || {})) {
  if (!c.value) {
    zeroCounters.push(`${u}.${s}`);
    continue;
  }
  const tr = document.createElement('tr');
  tr.innerHTML = `<td>${u}.${s}</td><td>${c.value}</td><td>${c.unit}</td>`;
  table.appendChild(tr);
}
document.getElementById('counters').appendChild(table);
folded(document.getElementById('counters'), zeroCounters, 'counters that stayed 0');
</script></body></html>
)HTML";
}  // namespace

std::string report_html_page(const std::string& report_json, const std::string& timeline_json) {
  std::string page = kPage;
  auto put = [&](const std::string& key, const std::string& value) {
    const size_t at = page.find(key);
    page.replace(at, key.size(), embed(value));
  };
  // Last placeholder first, so no inserted text is taken for a later one.
  page.replace(page.find("@TIMELINE_SCRIPT@"), 17, kReportTimelineScript);
  put("@TIMELINE@", timeline_json);
  put("@REPORT@", report_json);
  return page;
}

}  // namespace avp
