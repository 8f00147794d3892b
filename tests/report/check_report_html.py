#!/usr/bin/env python3
"""Renders report.html of a real run in headless Chromium: no console messages
(errors or otherwise), the JavaScript-built charts are in the DOM, and a
screenshot shows them (their bar colours are present), and at 1280 px
nothing reaches past the page and no chart label is clipped
(html_layout.py); the PCIe slices of the timeline are named by TLP type and
size. Exit 77 (skipped) when Chromium is not installed."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from html_layout import layout_problems

# Fill colours of report_html.cpp's charts: utilisation, histogram, timeline, occupancy bars.
CHART_COLOURS = {"utilisation": (0x4A, 0x7B, 0xD0), "histogram": (0x5A, 0xA0, 0x5A),
                 "timeline": (0xD0, 0x7A, 0x4A), "occupancy": (0x8A, 0x6A, 0xD0)}


def chromium_args(binary, profile):
    # Without the background-networking flags a sandboxed machine refuses connections.
    return [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--hide-scrollbars", "--user-data-dir=" + profile]


def run_chromium(binary, extra, url, workdir, name):
    profile = tempfile.mkdtemp(prefix="chromium-" + name + "-", dir=workdir)
    r = subprocess.run(chromium_args(binary, profile) + extra + [url], capture_output=True, text=True, timeout=120)
    shutil.rmtree(profile, ignore_errors=True)
    if r.returncode != 0:
        sys.exit(f"chromium ({name}) exited with {r.returncode}:\n{r.stderr[-3000:]}")
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("accel_vp")
    ap.add_argument("workdir")
    a = ap.parse_args()
    binary = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
    if not binary:
        print("chromium is not installed (scripts/install-deps.sh installs it): skipped")
        return 77
    try:
        from PIL import Image
    except ImportError:
        sys.exit(f"{sys.executable}: python3-pil is missing (scripts/install-deps.sh installs it)")

    out = os.path.abspath(os.path.join(a.workdir, "rep_chromium"))
    shutil.rmtree(out, ignore_errors=True)
    run = subprocess.run([a.accel_vp, "--no-progress", "-o", out, "--timeline", os.path.join(out, "trace.json"),
                          "run", "vecadd"], capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        sys.exit(f"accel-vp run vecadd failed ({run.returncode}):\n{run.stderr[-3000:]}")
    url = "file://" + os.path.join(out, "report.html")
    # PCIe traffic in the timeline is named by TLP type and payload size.
    with open(os.path.join(out, "trace.json")) as f:
        names = set(re.findall(r'"name":\s*"((?:MWr|MRd|CplD)[^"]*)"', f.read()))
    bad = [n for n in names if not re.fullmatch(r"(MWr|CplD) \d+ B|MRd", n)]
    if not {"MRd", "CplD 4 B"} <= names or not any(n.startswith("MWr ") for n in names) or bad:
        sys.exit(f"PCIe slices not named by TLP type and size: {sorted(names)[:10]}")
    print("PCIe slices:", ", ".join(sorted(names)))

    r = run_chromium(binary, ["--enable-logging=stderr", "--v=0", "--dump-dom"], url, out, "dom")
    console = [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
    if console:
        sys.exit("console messages while rendering report.html:\n" + "\n".join(console))
    dom = r.stdout
    for chart in ("utilisation", "occupancy", "stalls", "timeline", "histogram"):
        n = len(re.findall(r'<svg[^>]*class="chart ' + chart + '"', dom))
        if n == 0:
            sys.exit(f"no rendered '{chart}' chart in the DOM")
        print(f"{chart}: {n} chart(s)")
    bars = len(re.findall(r'class="bar"', dom))
    slices = len(re.findall(r'class="slice"', dom))
    print(f"{bars} bars, {slices} timeline slices")
    if bars < 10 or slices < 100:
        sys.exit("too few bars or timeline slices rendered")
    if "<table>" not in dom and "<tbody>" not in dom:
        sys.exit("the counter and hart tables are missing")
    # vecadd leaves units idle and counters at 0: they are named, not drawn.
    if len(re.findall(r'class="muted folded"', dom)) < 2:
        sys.exit("the all-zero rows are neither drawn nor named under their section")

    summary, problems = layout_problems(binary, os.path.join(out, "report.html"))
    print(summary)
    if problems:
        sys.exit("report.html layout at 1280 px:\n" + "\n".join(problems))

    shot = os.path.join(out, "report.png")
    run_chromium(binary, ["--window-size=1280,4000", "--screenshot=" + shot], url, out, "screenshot")
    img = Image.open(shot).convert("RGB")
    colours = img.getcolors(maxcolors=1 << 20) or []
    present = {rgb for _, rgb in colours}
    print(f"screenshot {img.size[0]}x{img.size[1]}, {len(colours)} colours")
    if len(colours) < 16:
        sys.exit("the screenshot is (almost) blank")
    missing = [name for name, rgb in CHART_COLOURS.items() if rgb not in present]
    if missing:
        sys.exit("chart colours missing from the screenshot: " + ", ".join(missing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
