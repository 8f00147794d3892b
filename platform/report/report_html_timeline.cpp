#include "report_html_timeline.h"

namespace avp {

const char* const kReportTimelineScript = R"JS(
(function () {
  const box = document.getElementById('timeline');
  if (!TL) {
    box.innerHTML = '<span class="muted">run with --timeline FILE to record a timeline</span>';
    return;
  }
  const W = 1000, LEFT = 170, PW = W - LEFT - 10, ROW = 20;
  const end = TL.end_us > 0 ? TL.end_us : 1;
  const tracks = TL.tracks.map((name, i) => ({name, tid: i + 1, busy: TL.busy[i]}));
  const note = document.createElement('div');
  note.className = 'muted';
  const shown = TL.slices.length, total = TL.total_slices;
  note.textContent = (shown < total ? `Detail shows the first ${shown} of ${total} slices recorded (sampled); ` :
                                      `Detail shows all ${total} slices; `) +
      `the overview covers every slice of the whole run (0 .. ${fmtTime(end * 1000)}).` +
      (TL.clipped ? ` ${TL.clipped} slice(s) cut at the end of the run.` : '') + ' Wheel or buttons: zoom; drag: pan; click the overview: centre.';
  box.appendChild(note);
  // Overview: busy share per bin, darker is busier.
  const bins = tracks.length ? tracks[0].busy.length : 0;
  const ov = svg(W, ROW * tracks.length + 34);
  ov.setAttribute('class', 'chart timeline-overview');
  tracks.forEach((t, i) => {
    ov.appendChild(el('text', {x: 0, y: ROW * i + 14, 'font-size': 11}, t.name));
    t.busy.forEach((f, b) => {
      if (f <= 0) return;
      ov.appendChild(el('rect', {x: LEFT + PW * b / bins, y: ROW * i + 3, width: Math.max(PW / bins, 0.5), height: 14,
                                 fill: '#d07a4a', 'fill-opacity': 0.15 + 0.85 * f}));
    });
  });
  timeAxis(ov, LEFT, PW, ROW * tracks.length + 4, 0, end * 1000);
  const win = el('rect', {x: LEFT, y: 0, width: PW, height: ROW * tracks.length, fill: 'none', stroke: '#222', 'stroke-width': 1.5, class: 'window'});
  ov.appendChild(win);
  box.appendChild(ov);
  // Detail.
  const ctl = document.createElement('div');
  ctl.innerHTML = '<button id="tl-in">zoom in</button> <button id="tl-out">zoom out</button> <button id="tl-all">whole run</button> <span class="muted" id="tl-range"></span>';
  box.appendChild(ctl);
  const det = svg(W, ROW * tracks.length + 34);
  det.setAttribute('class', 'chart timeline');
  box.appendChild(det);
  const byTid = {};
  for (const s of TL.slices) (byTid[s[0]] = byTid[s[0]] || []).push(s);
  let v0 = 0, v1 = end;
  function draw() {
    while (det.firstChild) det.removeChild(det.firstChild);
    const span = v1 - v0;
    tracks.forEach((t, i) => {
      det.appendChild(el('text', {x: 0, y: ROW * i + 14, 'font-size': 11}, t.name));
      let lastPx = -1;
      for (const [, n, s, d] of byTid[t.tid] || []) {
        if (s + d < v0 || s > v1) continue;
        const x = LEFT + PW * (Math.max(s, v0) - v0) / span, w = PW * (Math.min(s + d, v1) - Math.max(s, v0)) / span;
        if (w < 1 && Math.floor(x) === lastPx) continue;  // one mark per pixel column is enough
        lastPx = Math.floor(x);
        const r = el('rect', {x, y: ROW * i + 3, width: Math.max(0.5, w), height: 14, fill: '#d07a4a', class: 'slice'});
        r.appendChild(el('title', {}, `${n}: at ${fmtTime(s * 1000)}, ${fmtTime(d * 1000)}`));
        det.appendChild(r);
      }
    });
    timeAxis(det, LEFT, PW, ROW * tracks.length + 4, v0 * 1000, v1 * 1000);
    win.setAttribute('x', LEFT + PW * v0 / end);
    win.setAttribute('width', Math.max(1, PW * span / end));
    document.getElementById('tl-range').textContent = `showing ${fmtTime(v0 * 1000)} .. ${fmtTime(v1 * 1000)}`;
  }
  function zoom(f, centre) {
    const c = centre === undefined ? (v0 + v1) / 2 : centre;
    const span = Math.min(end, Math.max(end * 1e-6, (v1 - v0) * f));
    v0 = Math.max(0, Math.min(end - span, c - (c - v0) * span / (v1 - v0)));
    v1 = v0 + span;
    draw();
  }
  document.getElementById('tl-in').onclick = () => zoom(0.5);
  document.getElementById('tl-out').onclick = () => zoom(2);
  document.getElementById('tl-all').onclick = () => { v0 = 0; v1 = end; draw(); };
  const at = (svgEl, ev, lo, hi) => {
    const r = svgEl.getBoundingClientRect();
    return lo + (hi - lo) * (ev.clientX - r.left - LEFT * r.width / W) / (PW * r.width / W);
  };
  det.addEventListener('wheel', ev => { ev.preventDefault(); zoom(ev.deltaY < 0 ? 0.8 : 1.25, at(det, ev, v0, v1)); });
  let drag = null;
  det.addEventListener('mousedown', ev => { drag = {x: ev.clientX, v0, v1}; });
  window.addEventListener('mouseup', () => { drag = null; });
  window.addEventListener('mousemove', ev => {
    if (!drag) return;
    const r = det.getBoundingClientRect(), span = drag.v1 - drag.v0;
    const dv = -(ev.clientX - drag.x) * span / (PW * r.width / W);
    v0 = Math.max(0, Math.min(end - span, drag.v0 + dv));
    v1 = v0 + span;
    draw();
  });
  ov.addEventListener('click', ev => { const c = at(ov, ev, 0, end), span = v1 - v0; v0 = Math.max(0, Math.min(end - span, c - span / 2)); v1 = v0 + span; draw(); });
  draw();
})();
)JS";

}  // namespace avp
