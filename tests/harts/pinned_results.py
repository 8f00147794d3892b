#!/usr/bin/env python3
"""Pinned simulated results of bare-metal programs on the ISS.

Runs `accel-vp run --elf` for each case of the pin file and compares what the
run simulated with the pinned figures: the simulated time, every console line
with its simulated time, and every counter and busy time of the hart cluster,
the bus and the memories (cycles, instructions, cache hits/misses, stalls,
accesses, bytes). Speed work on the ISS must leave all of them unchanged; a
change that is meant to alter simulated timing updates the pins (--update) in
a commit of its own that says why.

  pinned_results.py --accel-vp BIN --pins pinned_results.json --elf NAME=PATH ... [--set name=value ...]
                    [--trace CATEGORIES] [--cases NAME,...] [--update]

--set runs every case with extra parameters (the DMI-off variant uses it:
results must not depend on the simulation fast path). --trace CATEGORIES
runs with accel-vp's text trace on (to the null device), which puts the
harts on the observed interpreter loop (each instruction retired at once,
docs/harts.md) instead of the threaded one: the results must be the same.
--cases limits the run to some cases of the pin file. The memories' DMI
grant counts are not compared: they say how the simulation ran."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

UNITS = ("harts", "bus", "dram", "tcim", "tcdm")  # unit name prefixes whose statistics are pinned


def figures(report):
    out = {"simulated_time_ns": report["run"]["simulated_time_ns"]}
    out["console"] = ["%s @ %s ns: %s" % (c.get("hart"), c.get("time_ns"), c.get("text")) for c in report["console"]]
    for unit, stats in sorted(report["units"].items()):
        if unit.split(".")[0] not in UNITS:
            continue
        for name, c in sorted(stats.get("counters", {}).items()):
            if name != "dmi_grants":  # how the simulation ran, not what it simulated
                out["%s.%s" % (unit, name)] = c["value"]
        for name, u in sorted(stats.get("utilisation", {}).items()):
            out["%s.%s.busy_ns" % (unit, name)] = u["busy_ns"]
    return out


def run_case(accel_vp, case, elf, sets, trace):
    with tempfile.TemporaryDirectory(prefix="pinned-") as out:
        cmd = [accel_vp, "--no-progress", "-o", out]
        if trace:
            cmd += ["--trace", trace, "--trace-file", os.devnull]
        for s in case.get("set", []) + sets:
            cmd += ["--set", s]
        cmd += ["run", "--elf", elf, "--harts", str(case["harts"])]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        if p.returncode != 0:
            raise RuntimeError("%s exited with %d:\n%s" % (" ".join(cmd), p.returncode, p.stdout.decode()[-2000:]))
        with open(os.path.join(out, "report.json")) as f:
            return figures(json.load(f))


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
    failures = 0
    chosen = args.cases.split(",") if args.cases else None
    if chosen and (args.update or set(chosen) - {c["name"] for c in pins["cases"]}):
        ap.error("--cases: names of the pin file's cases, and not with --update")
    for case in pins["cases"]:
        if chosen and case["name"] not in chosen:
            continue
        got = run_case(args.accel_vp, case, elfs[case["program"]], args.set, args.trace)
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
