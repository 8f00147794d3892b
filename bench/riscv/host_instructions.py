#!/usr/bin/env python3
"""Host instructions per guest instruction of the ISS, counted with callgrind.

  host_instructions.py --accel-vp ACCEL_VP --valgrind VALGRIND --case NAME ELF EMPTY_ELF [--case ...]

Wall-clock figures of this kind move by 20 % and more on a shared machine;
the count of host instructions does not (the same binary and program give
the same count), so a change of a few percent shows here when it is lost in
the timings' noise. Each case runs its program and its _empty build (the
same start-up, no work) under callgrind; the difference, divided by the
guest instructions the run retired, is the figure. The run's own profile
says where the instructions went (entering blocks, the translated code, the
load and store helpers, cache misses, the rest); docs/performance.md has
the method and the figures. Writes the figures to AVP_BENCH_RESULTS."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# Self-cost groups of the profile, by function name (the first that matches).
GROUPS = [
    ("entering blocks", ("translated_enter", "enter_translated", "Hart::enter_block", "fetch_timing")),
    ("load/store helpers", ("translated_load", "translated_store", "DataPath::load_slow", "DataPath::store_slow")),
    ("after stores", ("Hart::stored",)),
    ("cache misses", ("bus_traffic", "timing_path", "RangePath", "Memory::time", "settle_to", "dcache_miss",
                      "access_set", "Router::", "RowBuffers", "sc_time")),
]


def callgrind(valgrind, accel_vp, elf, out_dir):
    """Host instructions of one run, its profile file and the guest instructions it retired."""
    profile = os.path.join(out_dir, "callgrind.out")
    cmd = [valgrind, "--tool=callgrind", "--smc-check=all-non-file", "--callgrind-out-file=" + profile,
           accel_vp, "--no-progress", "-o", out_dir, "run", "--elf", elf, "--harts", "1"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        sys.exit("host_instructions: %s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    m = re.search(r"Collected : (\d+)", p.stderr)
    if not m:
        sys.exit("host_instructions: no instruction count from callgrind:\n" + p.stderr[-2000:])
    with open(os.path.join(out_dir, "report.json")) as f:
        guest = json.load(f)["units"]["harts.hart0"]["counters"]["instructions"]["value"]
    return int(m.group(1)), profile, guest


def groups(profile):
    """Self cost per group (translated code: anonymous addresses) from callgrind_annotate."""
    p = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100", profile], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, universal_newlines=True)
    totals = {}
    for line in p.stdout.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*)", line)
        if not m or "PROGRAM TOTALS" in m.group(2):
            continue
        name = m.group(2)
        group = "translated code" if name.startswith("???:0x") else next(
            (g for g, keys in GROUPS if any(k in name for k in keys)), "the rest (start-up included)")
        totals[group] = totals.get(group, 0) + int(m.group(1).replace(",", ""))
    return totals


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--accel-vp", required=True)
    ap.add_argument("--valgrind", required=True)
    ap.add_argument("--case", nargs=3, action="append", metavar=("NAME", "ELF", "EMPTY_ELF"), required=True)
    args = ap.parse_args()
    figures = []
    for name, elf, empty in args.case:
        with tempfile.TemporaryDirectory() as run_dir, tempfile.TemporaryDirectory() as empty_dir:
            total, profile, guest = callgrind(args.valgrind, args.accel_vp, elf, run_dir)
            start_up, _, empty_guest = callgrind(args.valgrind, args.accel_vp, empty, empty_dir)
            per_insn = (total - start_up) / (guest - empty_guest)
            print("host instructions: %-12s %.2f G in all, %.2f G start-up, %.1f M guest instructions: "
                  "%.1f host instructions per guest instruction" % (name, total / 1e9, start_up / 1e9,
                                                                    (guest - empty_guest) / 1e6, per_insn))
            for group, n in sorted(groups(profile).items(), key=lambda g: -g[1]):
                print("host instructions: %-12s   %-30s %5.1f %%" % (name, group, 100.0 * n / total))
            figures.append({"name": "iss.host_instructions_per_insn.%s" % name, "value": round(per_insn, 2),
                            "unit": "host instructions", "higher_is_better": False})
    out = os.environ.get("AVP_BENCH_RESULTS")
    if out:
        with open(out, "w") as f:
            json.dump({"figures": figures}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
