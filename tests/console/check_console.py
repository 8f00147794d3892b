#!/usr/bin/env python3
"""Runs console_harts on 4 harts and checks that every console line is whole,
prefixed with its hart, in each hart's program order, and kept with hart and
simulated time in report.json and manifest.json."""
import json
import re
import subprocess
import sys

accel_vp, elf, out_dir = sys.argv[1:4]
harts = 4
r = subprocess.run([accel_vp, "--no-progress", "-o", out_dir, "run", "--elf", elf, "--harts", str(harts)],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
print(r.stdout)
if r.returncode != 0:
    sys.exit(f"FAIL: accel-vp exit {r.returncode}")
expected = lambda h: [f"console line from hart {h}", "flushed without newline", "abc",
                      f"printf through the console: hart {h}, status 0x80000003"]
lines = [l for l in r.stdout.splitlines() if l.startswith("[hart")]
for h in range(harts):
    mine = [l[len(f"[hart{h}] "):] for l in lines if l.startswith(f"[hart{h}] ")]
    if mine != expected(h):
        sys.exit(f"FAIL: hart {h} printed {mine}, expected {expected(h)}")
if len(lines) != 4 * harts:
    sys.exit(f"FAIL: {len(lines)} console lines, expected {4 * harts}")
for name in ("report.json", "manifest.json"):
    console = json.load(open(f"{out_dir}/{name}"))["console"]
    got = [f"[hart{c['hart']}] {c['text']}" for c in console]
    if got != lines:
        sys.exit(f"FAIL: {name} console {got} differs from stdout {lines}")
    for h in range(harts):
        times = [c["time_ns"] for c in console if c["hart"] == h]
        if times != sorted(times) or times[0] <= 0:
            sys.exit(f"FAIL: {name}: hart {h} line times {times} are not increasing from > 0")
print("PASS")
