#!/usr/bin/env python3
"""Pinned simulated results: the one runner for every pin file.

Each case of a pin file is one `accel-vp run`: of a built-in workload
(`"workload": NAME`) or of a bare-metal program on the ISS (`"program": NAME`,
`"harts": N`, its ELF given with --elf NAME=PATH), with the case's own
`"set"` parameters. What the run simulated is compared with the case's
`"figures"`: the simulated time, the exit code, every console line with its
hart and simulated time, the workload's own report lines, and every numeric
field of every statistic (of the units the file's `"units"` prefixes name,
when it names some). The memories' DMI grant counts and the harts' skipped
wait-loop iterations are not compared: they say how the simulation ran, not
what it simulated.

A refactoring or speed work must leave every figure unchanged; a change meant
to alter simulated results rewrites the pins (--update) in a commit of its
own that says why.

  pinned_results.py --accel-vp BIN --pins FILE [--elf NAME=PATH ...] [--set name=value ...]
                    [--trace CATEGORIES] [--cases NAME,...] [--update]

--set runs every case with extra parameters (the DMI-off variants: results
must not depend on the simulation's fast paths). --trace runs with accel-vp's
text trace on (to the null device), which puts the harts on the observed
interpreter loop: the results must be the same. --cases limits the run to some
cases of the file."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from how_it_ran import says_how_it_ran  # noqa: E402

# Numeric fields of a statistic that are simulated results (not the bucket lists).
FIELDS = ("value", "count", "sum", "min", "max", "busy_ns", "mean", "current")


def figures(case, manifest, report, stdout, units):
    out = {"simulated_time_ns": manifest["simulated_time_ns"], "exit_code": manifest["exit_code"]}
    out["console"] = ["%s @ %s ns: %s" % (c.get("hart"), c.get("time_ns"), c.get("text")) for c in report["console"]]
    if "workload" in case:
        lines = []
        for line in stdout.splitlines():
            if line.startswith("== accel-vp summary"):
                break
            if line.startswith(case["workload"] + ":"):
                lines.append(line)
        out["report"] = lines
    for name, stat in sorted(manifest["statistics"].items()):
        if says_how_it_ran(name) or (units and name.split(".")[0] not in units):
            continue
        for field in FIELDS:
            if field in stat:
                out["%s.%s" % (name, field)] = stat[field]
    return out


def run_case(accel_vp, case, elfs, sets, trace, units):
    with tempfile.TemporaryDirectory(prefix="pinned-") as out:
        cmd = [accel_vp, "--no-progress", "-o", out]
        if trace:
            cmd += ["--trace", trace, "--trace-file", os.devnull]
        for s in case.get("set", []) + sets:
            cmd += ["--set", s]
        if "workload" in case:
            cmd += ["run", case["workload"]]
        else:
            cmd += ["run", "--elf", elfs[case["program"]], "--harts", str(case["harts"])]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        try:
            with open(os.path.join(out, "manifest.json")) as f:
                manifest = json.load(f)
            with open(os.path.join(out, "report.json")) as f:
                report = json.load(f)
        except OSError as e:
            raise RuntimeError("%s (exit %d) wrote no results (%s):\n%s" % (" ".join(cmd), p.returncode, e,
                                                                         p.stdout[-2000:]))
        return figures(case, manifest, report, p.stdout, units)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--accel-vp", required=True)
    ap.add_argument("--pins", required=True)
    ap.add_argument("--elf", action="append", default=[], help="NAME=PATH of a program the pin file names")
    ap.add_argument("--set", action="append", default=[], help="extra parameter for every case")
    ap.add_argument("--trace", help="text trace categories to run with (the observed interpreter loop)")
    ap.add_argument("--cases", help="comma-separated case names (default: every case)")
    ap.add_argument("--update", action="store_true", help="rewrite the pins from this run")
    args = ap.parse_args()
    elfs = dict(e.split("=", 1) for e in args.elf)
    with open(args.pins) as f:
        pins = json.load(f)
    units = pins.get("units")
    chosen = args.cases.split(",") if args.cases else None
    if chosen and (args.update or set(chosen) - {c["name"] for c in pins["cases"]}):
        ap.error("--cases: names of the pin file's cases, and not with --update")
    if args.update and (args.set or args.trace):
        ap.error("--update records the cases as the file states them: no --set or --trace")
    failures = 0
    for case in pins["cases"]:
        if chosen and case["name"] not in chosen:
            continue
        got = run_case(args.accel_vp, case, elfs, args.set, args.trace, units)
        if args.update:
            case["figures"] = got
            continue
        want = case["figures"]
        for key in sorted(set(want) | set(got)):
            if want.get(key) != got.get(key):
                failures += 1
                print("%s: %s is %r, pinned %r" % (case["name"], key, got.get(key), want.get(key)))
        print("%s: %d figures compared" % (case["name"], len(want)))
    if args.update:
        with open(args.pins, "w") as f:
            json.dump(pins, f, indent=1, sort_keys=True)
            f.write("\n")
        print("pins rewritten: %s" % args.pins)
        return 0
    if failures:
        print("%d figure(s) differ from the pins" % failures)
        return 1
    print("every figure matches the pins")
    return 0


if __name__ == "__main__":
    sys.exit(main())
