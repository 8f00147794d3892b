#!/usr/bin/env python3
"""Pins the simulated results of the documented workloads.

Runs `accel-vp run <workload>` for each workload in pinned_results.json and
compares the simulated end time, exit code, console lines, the workload's own
report lines (result checks, times) and every statistic pinned in the file
(its numeric fields) with the stored values. A refactoring must leave them all
unchanged; a deliberate change updates the file in its own commit that says
why (`--update` rewrites it from the current build).

With `--set name=value` options every workload runs with those parameters
and must still match the pins: the DMI-off variant checks that no simulated
result depends on the DMI fast path (the memories' DMI grant counts, which say
how the simulation ran, are not compared then).

usage: check_pinned_results.py ACCEL_VP EXPECTED_JSON WORKDIR [--update] [--set name=value ...]
"""
import json
import os
import subprocess
import sys

WORKLOADS = ["vecadd", "acceldev", "acceldev-kernel", "aql-vecadd", "aql-chain", "aql-multiqueue", "matmul",
             "stream-dma", "stream-direct", "memcheck"]
# Numeric fields of a statistic that are simulated results (not the bucket lists).
FIELDS = ["value", "count", "sum", "min", "max", "busy_ns", "mean", "current"]


def run(accel_vp, workload, workdir, sets):
    out_dir = os.path.join(workdir, "pin_" + workload + ("_set" if sets else ""))
    cmd = [accel_vp, "--no-progress", "-o", out_dir]
    for s in sets:
        cmd += ["--set", s]
    proc = subprocess.run(cmd + ["run", workload], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=120)
    with open(os.path.join(out_dir, "manifest.json")) as f:
        manifest = json.load(f)
    report = []
    for line in proc.stdout.splitlines():
        if line.startswith("== accel-vp summary"):
            break
        if line.startswith(workload + ":"):
            report.append(line)
    stats = {}
    for name, stat in manifest["statistics"].items():
        stats[name] = {k: stat[k] for k in FIELDS if k in stat}
    return {
        "exit_code": manifest["exit_code"],
        "simulated_time_ns": manifest["simulated_time_ns"],
        "console": manifest["console"],
        "report": report,
        "statistics": stats,
    }


def main():
    accel_vp, expected_path, workdir = sys.argv[1:4]
    sets = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--set"]
    if "--update" in sys.argv:
        json.dump({w: run(accel_vp, w, workdir, sets) for w in WORKLOADS}, open(expected_path, "w"), indent=1,
                  sort_keys=True)
        print("updated", expected_path)
        return 0
    expected = json.load(open(expected_path))
    failures = []
    for workload, want in expected.items():
        got = run(accel_vp, workload, workdir, sets)
        for key in ["exit_code", "simulated_time_ns", "console", "report"]:
            if got[key] != want[key]:
                failures.append("%s: %s is %r, pinned %r" % (workload, key, got[key], want[key]))
        for name, fields in want["statistics"].items():
            if sets and name.endswith(".dmi_grants"):
                continue
            if name not in got["statistics"]:
                failures.append("%s: statistic %s is missing" % (workload, name))
                continue
            for field, value in fields.items():
                now = got["statistics"][name].get(field)
                if now != value:
                    failures.append("%s: %s.%s is %r, pinned %r" % (workload, name, field, now, value))
    for f in failures:
        print(f)
    print("%d workloads compared, %d differences" % (len(expected), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
