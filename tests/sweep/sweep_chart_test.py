#!/usr/bin/env python3
"""The sweep chart renders in a browser: runs a 2 x 2 sweep with two metrics,
loads sweep.html in headless Chromium (no network: --dump-dom of a file) and
checks the drawn SVG: one line per series and one marker per point of each
metric's chart, the axis labels with round ticks and the unit, a link from
every point and table row to that point's report, the table of results, and the layout at
1280 px (tests/report/html_layout.py: nothing past the page, no clipped
label). Exit code 77 (skipped) without Chromium."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report"))
from html_layout import layout_problems  # noqa: E402

browser = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
if not browser:
    print("skipped: no headless Chromium")
    sys.exit(77)
accel_vp = os.path.abspath(sys.argv[1])
with tempfile.TemporaryDirectory(prefix="avp-chart-") as d:
    out = d + "/sweep"
    r = subprocess.run([accel_vp, "--no-progress", "-o", out, "sweep", "--workload", "memcheck", "--param",
                        "dram.read_latency=10ns,40ns,100ns", "--param", "platform.seed=1,2", "--metrics",
                        "simulated_time_ns,dram.reads.value,dma.bytes.value"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("sweep failed:\n" + r.stdout + r.stderr)
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + d + "/profile",
                          "--dump-dom", "file://" + out + "/sweep.html"], capture_output=True, text=True, timeout=60).stdout
    checks = {
        "charts": (dom.count("<svg"), 3),
        "series lines (3 metrics x 2 seeds)": (len(re.findall(r'<path[^>]*class="series"', dom)), 6),
        "point markers (3 metrics x 6 points)": (dom.count("<circle"), 18),
        "x labels of the first axis": (dom.count(">100ns</text>"), 3),
        "legend entries": (dom.count(">platform.seed=2</text>"), 3),
        "table rows (header + 6 points)": (dom.count("<tr>"), 7),
        "report links (6 points x 3 charts + 6 table rows)": (len(re.findall(r'<a href="point_[^"]*/report.html"', dom)), 24),
        "unit of the time axis": (dom.count(">ns</text>"), 1),
        "unit of the byte axis (the statistic's)": (dom.count(">bytes</text>"), 1),
        "round y ticks of the time chart": (dom.count(">200,000</text>"), 1),
        "a metric at 0 everywhere said so": (dom.count("dma.bytes.value is 0 at every point"), 1),
        "its axis 0..1, not 0,0,0,0": (dom.count(">0.2</text>"), 1),
    }
    missing = [h for h in set(re.findall(r'<a href="(point_[^"]*)"', dom)) if not os.path.exists(os.path.join(out, h))]
    if missing:
        print("links to missing reports:", missing)
        checks["linked reports exist"] = (0, 1)
    bad = {k: v for k, v in checks.items() if v[0] != v[1]}
    summary, problems = layout_problems(browser, out + "/sweep.html")
    print(summary)
    for p in problems:
        print("layout:", p)
    if problems:
        bad["layout"] = problems
    for k, (got, want) in checks.items():
        print(f"{k}: {got} (expected {want})")
    if "simulated_time_ns (ns) against dram.read_latency" not in dom:
        bad["title"] = "missing"
    sys.exit(1 if bad else 0)
