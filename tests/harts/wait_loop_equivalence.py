#!/usr/bin/env python3
"""Skipping the iterations of loops that wait for the time CSR or on a device
register (harts.skip_wait_loops, docs/harts.md "Polling loops") leaves every
simulated result as running them does: a program of such loops (wait_loops.c,
device_polls.c), run with
skipping on (the default) and off, prints the same console lines (each with the
cycle and instret counters after a wait) at the same simulated times, and
agrees on the simulated time and on every statistic but the two that count
the skips. The run with skipping on must have skipped.

With --against name=value the second run sets that instead of turning
skipping off (platform.run_ahead=false: run-ahead past quantum ends leaves
every result as waiting at each of them does; the default run must have
passed quantum ends within skips, and on several harts in the serial schedule
run on beside harts spinning in wait loops); --harts N (default 2).

  wait_loop_equivalence.py ACCEL_VP WORKDIR ELF [--harts N] [--against name=value] [--set name=value ...]"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from how_it_ran import statistic_differences  # noqa: E402


def run(accel_vp, workdir, elf, name, sets, harts):
    out = os.path.join(workdir, "wait_loop_equivalence_%s_%s" % (os.path.basename(elf), name))
    cmd = [accel_vp, "--no-progress", "-o", out]
    for s in sets:
        cmd += ["--set", s]
    cmd += ["run", "--elf", elf, "--harts", str(harts)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit("%s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stdout[-2000:]))
    with open(os.path.join(out, "manifest.json")) as f:
        m = json.load(f)
    with open(os.path.join(out, "report.json")) as f:
        r = json.load(f)
    console = ["%s @ %s: %s" % (c.get("hart"), c.get("time_ns"), c.get("text")) for c in r["console"]]
    return m, console


def main():
    accel_vp, workdir, elf = sys.argv[1:4]
    args = sys.argv[4:]
    harts, against, sets = 2, "harts.skip_wait_loops=false", []
    while args:
        flag, value = args[0], args[1]
        if flag == "--harts":
            harts = int(value)
        elif flag == "--against":
            against = value
        else:
            sets.append(value)
        args = args[2:]
    name = "_".join([s.split("=")[1] for s in sets] + [str(harts), against.split("=")[0]])
    on, on_console = run(accel_vp, workdir, elf, name + "_on", sets, harts)
    off, off_console = run(accel_vp, workdir, elf, name + "_off", sets + [against], harts)
    problems = []
    if on["simulated_time_ns"] != off["simulated_time_ns"]:
        problems.append("simulated_time_ns %s != %s" % (on["simulated_time_ns"], off["simulated_time_ns"]))
    if on_console != off_console:
        problems += ["console: %s != %s" % (a, b) for a, b in zip(on_console, off_console) if a != b][:10]
        if len(on_console) != len(off_console):
            problems.append("console: %d lines != %d" % (len(on_console), len(off_console)))
    a, b = on["statistics"], off["statistics"]
    problems += statistic_differences(a, b)
    skips = a.get("harts.wait_loop_skips", {}).get("value", 0)
    if skips == 0:
        problems.append("the default run skipped no iteration")
    if against == "harts.skip_wait_loops=false" and b.get("harts.wait_loop_skips", {}).get("value", 0) != 0:
        problems.append("harts.skip_wait_loops=false still skipped")
    beside = a.get("harts.runs_on_beside_spinning", {}).get("value", 0)
    parallel = any(s.startswith("harts.host_threads=") or s == "harts.parallel_quantum=true" for s in sets)
    if against == "platform.run_ahead=false" and harts > 1 and not parallel and beside == 0:
        problems.append("the default run never ran on beside spinning harts")
    if against == "platform.run_ahead=false" and b.get("harts.runs_on_beside_spinning", {}).get("value", 0) != 0:
        problems.append("platform.run_ahead=false still ran on beside spinning harts")
    passed = a.get("harts.wait_loop_quanta_passed", {}).get("value", 0)
    if against == "platform.run_ahead=false" and passed == 0:
        problems.append("the default run passed no quantum end in a skip")
    if against == "platform.run_ahead=false" and b.get("harts.wait_loop_quanta_passed", {}).get("value", 0) != 0:
        problems.append("platform.run_ahead=false still passed quantum ends in a skip")
    if problems:
        sys.exit("wait_loop_equivalence: FAILED\n" + "\n".join(problems))
    print("wait_loop_equivalence: OK (%d skips, %d iterations skipped, %d quantum ends passed in skips, "
          "%d runs on beside spinning harts, %d console lines)" %
          (skips, a["harts.wait_loop_iterations_skipped"]["value"], passed, beside, len(on_console)))


if __name__ == "__main__":
    main()
