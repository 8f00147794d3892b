"""Layout check of a generated HTML page in headless Chromium: loads the page
in a 1280-pixel-wide frame of a wrapper page (file access between local
files allowed) and reports every element that reaches past the page's width
and every SVG label drawn outside its SVG (clipped), with the numbers of
charts and labels seen. Used by check_report_html.py (report.html) and
tests/sweep/sweep_chart_test.py (sweep.html)."""
import os
import re
import subprocess
import tempfile

WRAPPER = """<!doctype html><html><body>
<iframe id="f" src="%s" style="width:1280px;height:4000px;border:0"></iframe>
<pre id="result">LAYOUT not measured</pre>
<script>
document.getElementById('f').onload = () => setTimeout(() => {
  const d = document.getElementById('f').contentDocument;
  const W = d.documentElement.clientWidth, out = [];
  for (const e of d.body.querySelectorAll('*')) {
    if (e.closest('svg') && e.tagName.toLowerCase() !== 'svg') continue;
    const r = e.getBoundingClientRect();
    if (r.width && r.right > W + 1)
      out.push(`${e.tagName.toLowerCase()}.${e.getAttribute('class') || e.id || ''} reaches ${Math.round(r.right)} px > ${W}`);
  }
  let labels = 0;
  for (const s of d.querySelectorAll('svg')) {
    const w = s.width.baseVal.value, h = s.height.baseVal.value;
    for (const t of s.querySelectorAll('text')) {
      ++labels;
      const b = t.getBBox();
      if (b.x < -1 || b.x + b.width > w + 1 || b.y < -1 || b.y + b.height > h + 1)
        out.push(`label '${t.textContent.slice(0, 40)}' at (${Math.round(b.x)}, ${Math.round(b.y)}) ` +
                 `${Math.round(b.width)} x ${Math.round(b.height)} outside its ${w} x ${h} svg.${s.getAttribute('class') || ''}`);
    }
  }
  document.getElementById('result').textContent =
      `LAYOUT ${d.querySelectorAll('svg').length} svg ${labels} labels\\n` + out.join('\\n');
}, 500);
</script></body></html>
"""


def layout_problems(browser, page):
    """(summary line, list of problems) for the HTML file `page`."""
    page = os.path.abspath(page)
    with tempfile.TemporaryDirectory(prefix="avp-layout-", dir=os.path.dirname(page)) as d:
        wrapper = os.path.join(d, "layout.html")
        with open(wrapper, "w") as f:
            f.write(WRAPPER % ("file://" + page))
        r = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                            "--virtual-time-budget=5000", "--window-size=1300,4000", "--user-data-dir=" + d + "/profile",
                            "--dump-dom", "file://" + wrapper], capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="result">(.*?)</pre>', r.stdout, re.S)
    if not m or not m.group(1).startswith("LAYOUT ") or "not measured" in m.group(1):
        return "layout not measured", ["the layout script did not run:\n" + r.stdout[-1000:] + r.stderr[-1000:]]
    lines = m.group(1).replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&").split("\n")
    return lines[0], [l for l in lines[1:] if l]
