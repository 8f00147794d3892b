#!/usr/bin/env python3
"""Real-time pacing (platform.pace, docs/platform.md "Real-time pacing"):
firmware that only waits (a loop reading the time CSR, which the hart
skips: docs/harts.md "Polling loops") runs to a simulated time limit of
300 ms, its UART's input an empty regular file. Paced (realtime) and
unpaced (none), the runs agree on the simulated time and every statistic
but those that say how the simulation ran; the paced one says so in its
manifest and takes at least its simulated time, less the 10 ms a chunk may
run ahead (the defining property, not a speed). An unknown value is a
configuration error naming the choices.

usage: real_time_pace_test.py ACCEL_VP OUT_DIR"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from how_it_ran import statistic_differences  # noqa: E402

vp, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
empty = os.path.join(out, "empty_input")
open(empty, "w").close()
firmware = os.path.join(out, "wait.bin")
with open(firmware, "wb") as f:
    for insn in (0xC01022F3, 0xFFDFF06F):  # 1: csrr t0, time; j 1b
        f.write(insn.to_bytes(4, "little"))
LIMIT_S = 0.3


def run(pace):
    d = os.path.join(out, pace)
    cmd = [vp, "--no-progress", "-o", d, "--set", "platform.time_limit=300ms", "--set", "platform.pace=" + pace,
           "boot", "--firmware", firmware]
    with open(empty) as stdin:
        p = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p, d


problems = []
manifests = {}
for pace in ("none", "realtime"):
    p, d = run(pace)
    try:
        with open(os.path.join(d, "manifest.json")) as f:
            manifests[pace] = json.load(f)
    except (OSError, ValueError):
        sys.exit("real_time_pace: FAILED\n%s: no manifest (exit %d):\n%s" % (pace, p.returncode, p.stdout[-2000:]))
none, paced = manifests["none"], manifests["realtime"]
for name, m in manifests.items():
    if m.get("ending") != "time_limit":
        problems.append("%s: ended %r, not at the time limit" % (name, m.get("ending")))
if none.get("real_time_paced") is not False or "paced_sleep_s" in none:
    problems.append("pace=none: the manifest says %r" % none.get("real_time_paced"))
if paced.get("real_time_paced") is not True or not paced.get("paced_sleep_s", 0) > 0:
    problems.append("pace=realtime: the manifest says %r, slept %r s" % (paced.get("real_time_paced"), paced.get("paced_sleep_s")))
if paced["wall_time_s"] < LIMIT_S - 0.011:
    problems.append("pace=realtime: %.3f s of wall time for %.3f s simulated" % (paced["wall_time_s"], LIMIT_S))
if not none["statistics"].get("harts.wait_loop_skips", {}).get("value"):
    problems.append("the firmware's loop was not skipped: the test would measure compute, not waiting")
for key in ("simulated_time_ns", "uart", "console"):
    if none.get(key) != paced.get(key):
        problems.append("%s differs: %r != %r" % (key, str(none.get(key))[:200], str(paced.get(key))[:200]))
problems += statistic_differences(none["statistics"], paced["statistics"])

p = subprocess.run([vp, "--no-progress", "-o", os.path.join(out, "bad"), "--set", "platform.pace=fast", "boot",
                    "--firmware", firmware], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL)
if p.returncode != 2 or "platform.pace = 'fast': expected auto, realtime or none" not in p.stdout:
    problems.append("pace=fast: exit %d, %r" % (p.returncode, p.stdout[-300:]))

if problems:
    sys.exit("real_time_pace: FAILED\n" + "\n".join(problems))
print("real_time_pace: OK (paced: %.3f s wall for %.3f s simulated, %.3f s asleep; unpaced %.3f s wall)"
      % (paced["wall_time_s"], LIMIT_S, paced["paced_sleep_s"], none["wall_time_s"]))
