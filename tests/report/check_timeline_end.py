#!/usr/bin/env python3
"""Runs a workload with --timeline (once to its end, once cut by
platform.time_limit) and checks that no timeline event lies past the end of
the run the manifest reports, and that the timeline is well formed."""
import json
import os
import subprocess
import sys


def check(accel_vp, workdir, workload, extra):
    out = os.path.join(workdir, "timeline_end_" + workload + ("_cut" if extra else ""))
    os.makedirs(out, exist_ok=True)
    tl = os.path.join(out, "timeline.json")
    subprocess.run([accel_vp, "--no-progress", "-o", out, "--timeline", tl, *extra, "run", workload],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    with open(tl) as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("ph") != "M"]
    end_us = manifest["simulated_time_ns"] / 1e3
    late = [e for e in events if e["ts"] + e.get("dur", 0) > end_us + 1e-6]
    negative = [e for e in events if e["ts"] < 0 or e.get("dur", 0) < 0]
    print(f"{workload} {' '.join(extra)}: ending {manifest['ending']}, end {end_us} us, {len(events)} events, "
          f"{len(late)} past the end, {len(negative)} negative")
    return bool(events) and not late and not negative


def main():
    accel_vp, workdir = sys.argv[1], sys.argv[2]
    ok = True
    for workload in ["vecadd", "stream-dma", "acceldev-kernel", "aql-chain"]:
        ok &= check(accel_vp, workdir, workload, [])
        ok &= check(accel_vp, workdir, workload, ["--set", "platform.time_limit=12us"])
    print("timeline end: OK" if ok else "timeline end: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
