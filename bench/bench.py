#!/usr/bin/env python3
"""Runs the benchmark programs, collects their figures and compares them with
the recorded baseline.

  bench.py run      --list benches.json --out results.json [--repeat N]
  bench.py check    --list benches.json --out results.json --baseline baseline.json [--repeat N]
  bench.py baseline --list benches.json --out results.json --baseline baseline.json [--repeat N]

Every benchmark program writes its figures (name, value, unit, and the
reference measured in the same run) to the file named by AVP_BENCH_RESULTS.
Each program runs --repeat times; per figure the best run is kept (highest
ratio to its reference, or best value without one) and the spread between
runs is recorded. `check` fails when a ratio falls below the baseline by more
than the baseline's tolerance; the figures of a program that reports itself
skipped (`"skipped": {"prefix": ..., "why": ...}` in its file: what it needs
is not installed or built) are reported as skipped. `baseline` writes a new baseline: the best
ratios, the commit and date, and a tolerance from the measured spread."""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

MIN_TOLERANCE = 0.15  # a ratio may fall by this fraction at least before check fails
SKIPPED = {}  # figure-name prefix -> why: benchmarks that could not run here (reported, not failed)


def ratio(f):
    ref = f.get("reference")
    if not ref or not ref.get("value"):
        return None
    return f["value"] / ref["value"]


def score(f):
    r = ratio(f)
    v = r if r is not None else f["value"]
    return v if f.get("higher_is_better", True) else -v


def run_once(bench):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        path = tmp.name
    env = dict(os.environ, AVP_BENCH_RESULTS=path)
    try:
        p = subprocess.run(bench["command"], env=env, cwd=bench.get("cwd") or None)
        if p.returncode != 0:
            raise RuntimeError("%s exited with %d" % (bench["name"], p.returncode))
        if os.path.getsize(path) == 0:
            return []  # a program with simulated figures only: its lines are printed, nothing is recorded
        with open(path) as f:
            out = json.load(f)
        if "skipped" in out:  # {"prefix": the figures' names start with it, "why": ...}
            SKIPPED[out["skipped"]["prefix"]] = out["skipped"]["why"]
        return out["figures"]
    except (OSError, ValueError, KeyError) as e:
        raise RuntimeError("%s wrote no figures (%s)" % (bench["name"], e))
    finally:
        os.unlink(path)


def collect(benches, repeat):
    """Best figure of `repeat` runs per name, with the relative spread of the score."""
    runs = {}
    for b in benches:
        for i in range(repeat):
            print("== %s (run %d of %d)" % (b["name"], i + 1, repeat), flush=True)
            for f in run_once(b):
                f["bench"] = b["name"]
                runs.setdefault(f["name"], []).append(f)
    figures = []
    for name, fs in runs.items():
        best = max(fs, key=score)
        scores = [abs(score(f)) for f in fs]
        best["runs"] = len(fs)
        best["spread"] = (max(scores) - min(scores)) / max(scores) if max(scores) > 0 else 0.0
        if ratio(best) is not None:
            best["ratio"] = ratio(best)
        figures.append(best)
    return figures


def print_table(figures, baseline=None):
    base = {b["name"]: b for b in (baseline or {}).get("figures", [])}
    print("%-34s %14s %-10s %-30s %9s %8s" % ("figure", "value", "unit", "reference (same run)", "ratio", "spread"))
    for f in figures:
        ref = f.get("reference")
        refs = "%s %.4g" % (ref["name"], ref["value"]) if ref else "-"
        r = "%.4f" % f["ratio"] if "ratio" in f else "-"
        line = "%-34s %14.4g %-10s %-30s %9s %7.1f%%" % (f["name"], f["value"], f["unit"], refs[:30], r, 100 * f["spread"])
        if f["name"] in base:
            line += "  baseline %.4f" % base[f["name"]]["ratio"]
        print(line)


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE, text=True,
                              cwd=os.path.dirname(os.path.abspath(__file__)), check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def check(figures, baseline):
    by_name = {f["name"]: f for f in figures}
    failed = []
    for b in baseline["figures"]:
        f = by_name.get(b["name"])
        skipped = [why for prefix, why in SKIPPED.items() if b["name"].startswith(prefix)]
        if f is None and skipped:
            print("%-34s skipped: %s" % (b["name"], skipped[0]))
            continue
        if f is None or "ratio" not in f:
            failed.append("%s: not measured" % b["name"])
            continue
        tol = b.get("tolerance", baseline.get("tolerance", MIN_TOLERANCE))
        floor = b["ratio"] * (1 - tol)
        ok = f["ratio"] >= floor if f.get("higher_is_better", True) else f["ratio"] <= b["ratio"] * (1 + tol)
        print("%-34s ratio %.4f, baseline %.4f, tolerance %.0f%%: %s" % (b["name"], f["ratio"], b["ratio"], 100 * tol,
                                                                         "ok" if ok else "REGRESSED"))
        if not ok:
            failed.append(b["name"])
    return failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["run", "check", "baseline"])
    ap.add_argument("--list", required=True, help="benches.json written by CMake")
    ap.add_argument("--out", required=True, help="results.json to write")
    ap.add_argument("--baseline", help="bench/baseline.json")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each benchmark (the best is kept)")
    ap.add_argument("--only", help="comma-separated benchmark names")
    args = ap.parse_args()
    with open(args.list) as f:
        benches = json.load(f)["benches"]
    if args.only:
        benches = [b for b in benches if b["name"] in args.only.split(",")]
    baseline = None
    if args.mode != "run":
        if not args.baseline:
            ap.error("--baseline is required for %s" % args.mode)
        if args.mode == "check":
            if not os.path.exists(args.baseline):
                print("bench-check: no baseline at %s (measure one with the bench-baseline target)" % args.baseline,
                      file=sys.stderr)
                return 1
            with open(args.baseline) as f:
                baseline = json.load(f)
    try:
        figures = collect(benches, args.repeat)
    except (RuntimeError, subprocess.SubprocessError) as e:
        print("bench: %s" % e, file=sys.stderr)
        return 1
    results = {"commit": git_commit(), "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
               "repeat": args.repeat, "figures": figures}
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    print()
    print_table(figures, baseline)
    print("figures written to %s" % args.out)
    if args.mode == "baseline":
        rows = []
        for f in figures:
            if "ratio" not in f:
                continue
            # Tolerance: twice the spread measured between the runs, at least MIN_TOLERANCE.
            tol = round(max(MIN_TOLERANCE, 2 * f["spread"]), 2)
            rows.append({"name": f["name"], "ratio": round(f["ratio"], 4), "reference": f["reference"]["name"],
                         "higher_is_better": f.get("higher_is_better", True), "tolerance": tol,
                         "spread": round(f["spread"], 3)})
        out = {"commit": results["commit"], "date": results["date"], "repeat": args.repeat,
               "method": "best of `repeat` runs of each benchmark; tolerance = max(%.2f, 2 x spread between runs)"
                         % MIN_TOLERANCE, "figures": rows}
        with open(args.baseline, "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
        print("baseline written to %s" % args.baseline)
    if args.mode == "check":
        failed = check(figures, baseline)
        if failed:
            print("bench-check: %d figure(s) regressed: %s" % (len(failed), ", ".join(failed)))
            return 1
        print("bench-check: every ratio within its tolerance of the baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
