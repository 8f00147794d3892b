#!/usr/bin/env python3
"""The functional timing mode and the switch to timed (docs/timing.md,
"Functional mode and the switch to timed").

- Same architectural results: SDK programs (mixed on 1 and 4 harts, in
  S-mode with Sv39, the xintf program) print the same console text (their
  checksums and instruction counts), exit the same and, on one hart,
  retire the same instructions in functional as in timed mode.
- Counters: in a functional run every hart's `cycles` equal its
  instructions, it spends no time on fetches and has no cache access, and its
  `active_cycles` (mcycle) are its instructions plus the cycles it waited
  (barriers, WFI, extension devices, device registers); a one-hart compute
  program's simulated time is its instruction count in ns.
- The switch: at insns:N the switching hart has retired N instructions (to
  the end of that block); at time:T it happens at the first quantum's end at
  or after T; at stats-reset it is the program's reset: the region after it
  is timed exactly like a timed run's (same instructions and instruction
  cycles in the dump); the manifest records it.
- Warm caches (harts.warm_caches): a functional run that keeps the caches'
  contents has a timed run's cache hits and misses (one hart, translated
  and interpreted) while taking no time for them and sending no traffic;
  switched at insns:N its totals are still the timed run's; switched at
  stats-reset, the region's counters are a timed run's, where a cold
  switch's first reads miss (warm_caches.c).
- Bad values of harts.timing, harts.timed_from and harts.warm_caches are configuration errors, named as
  the user gave them (--set or --timed-from); a --set of either that disagrees with --timed-from is a
  usage error.

  functional_mode.py ACCEL_VP WORKDIR MIXED_ELF MIXED_SV39_ELF XINTF_ELF ROI_ELF WARM_ELF"""
import json
import os
import subprocess
import sys

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(accel_vp, workdir, tag, sets, elf, harts=1, expect_ok=True):
    out = os.path.join(workdir, "functional_" + tag)
    cmd = [accel_vp, "--no-progress", "-o", out] + [a for s in sets for a in ("--set", s)]
    cmd += ["run", "--elf", elf, "--harts", str(harts)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    if not expect_ok:
        return p.returncode, p.stdout
    if p.returncode != 0:
        sys.exit("%s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stdout[-2000:]))
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    return manifest, report


def stat(m, name):
    return m["statistics"][name]["value"]


def console(m):
    return [(c["hart"], c["text"]) for c in m["console"]]


def same_results(accel_vp, workdir, name, elf, harts):
    timed, _ = run(accel_vp, workdir, name + "_timed", [], elf, harts)
    func, _ = run(accel_vp, workdir, name + "_functional", ["harts.timing=functional"], elf, harts)
    check(console(timed) == console(func), "%s: console text differs:\n%s\n%s" % (name, console(timed), console(func)))
    check(timed["exit_code"] == func["exit_code"], "%s: exit codes differ" % name)
    if harts == 1:  # harts that wait for one another spin for as long as the other takes
        check(timed["instructions"] == func["instructions"],
              "%s: %d instructions timed, %d functional" % (name, timed["instructions"], func["instructions"]))
    check(timed["simulated_time_ns"] > func["simulated_time_ns"], "%s: functional is not quicker in simulated time" % name)
    return func


def counters(m, name, compute_only):
    harts = sorted({k.split(".")[1] for k in m["statistics"] if k.startswith("harts.hart") and k.endswith(".instructions")})
    period_ps = 1000  # the default harts.clock_period
    for h in harts:
        p = "harts.%s." % h
        n = stat(m, p + "instructions")
        if n == 0:
            continue
        check(stat(m, p + "cycles") == n, "%s %s: cycles %d != instructions %d" % (name, h, stat(m, p + "cycles"), n))
        for c in ("icache_hits", "icache_misses", "dcache_hits", "dcache_misses", "stall_fetch"):
            check(stat(m, p + c) == 0, "%s %s: %s is %d" % (name, h, c, stat(m, p + c)))
        waited = sum(stat(m, p + "stall_" + c) for c in ("barrier", "wfi", "xintf", "memory"))
        check(stat(m, p + "active_cycles") == n + waited // period_ps,
              "%s %s: active_cycles %d != instructions %d + waited %d ps" % (name, h, stat(m, p + "active_cycles"), n,
                                                                            waited))
        if compute_only:
            check(waited == 0, "%s %s: waited %d ps" % (name, h, waited))
    if compute_only:
        check(m["simulated_time_ns"] == m["instructions"],
              "%s: simulated %s ns for %d instructions" % (name, m["simulated_time_ns"], m["instructions"]))


CACHE_COUNTS = ("icache_hits", "icache_misses", "dcache_hits", "dcache_misses")


def cache_counts(m):
    return {c: stat(m, "harts.hart0." + c) for c in CACHE_COUNTS}


def warm_caches(accel_vp, workdir, mixed, warm_elf):
    """A functional run warming the caches against a timed one (one hart: the same accesses)."""
    timed, _ = run(accel_vp, workdir, "warm_timed", [], mixed)
    warm = ["harts.timing=functional", "harts.warm_caches=true"]
    for tag, sets in (("warm", []), ("warm_interpreted", ["harts.translate=false"])):
        m, _ = run(accel_vp, workdir, tag, warm + sets, mixed)
        check(cache_counts(m) == cache_counts(timed), "%s: caches %s, timed run %s" % (tag, cache_counts(m), cache_counts(timed)))
        check(stat(m, "harts.hart0.dcache_misses") > 1000, "%s: %d D-cache misses" % (tag, stat(m, "harts.hart0.dcache_misses")))
        for c in ("stall_fetch", "stall_memory"):
            check(stat(m, "harts.hart0." + c) == 0, "%s: %s is %d" % (tag, c, stat(m, "harts.hart0." + c)))
        check(stat(m, "harts.hart0.cycles") == m["instructions"] == m["simulated_time_ns"],
              "%s: cycles %d, instructions %d, %s ns" % (tag, stat(m, "harts.hart0.cycles"), m["instructions"],
                                                         m["simulated_time_ns"]))
        check(stat(m, "bus.dram.accesses") == 0, "%s: %d DRAM accesses" % (tag, stat(m, "bus.dram.accesses")))
        check(m["timing"] == {"mode": "functional", "timed_from": "", "warm_caches": True, "switched": False},
              "%s: %s" % (tag, m["timing"]))
    # Switched at insns:N: the totals (the functional part's and the timed part's) are still the timed run's.
    m, _ = run(accel_vp, workdir, "warm_switch",
               ["harts.timing=functional", "harts.timed_from=insns:3000000", "harts.warm_caches=true"], mixed)
    check(cache_counts(m) == cache_counts(timed), "warm switch: caches %s, timed run %s" % (cache_counts(m), cache_counts(timed)))
    check(m["timing"]["warm_caches"] and m["timing"]["switched"], "warm switch: %s" % m["timing"])
    # Switched at stats-reset: the region (two reads of an array the program wrote) is a timed run's, counter
    # for counter; switched cold, its first reads miss.
    _, timed_rep = run(accel_vp, workdir, "warm_roi_timed", [], warm_elf)
    switch = ["harts.timing=functional", "harts.timed_from=stats-reset"]
    _, warm_rep = run(accel_vp, workdir, "warm_roi", switch + ["harts.warm_caches=true"], warm_elf)
    _, cold_rep = run(accel_vp, workdir, "warm_roi_cold", switch, warm_elf)
    region = lambda rep: {k: v["value"] for k, v in dump_hart0(rep, 0).items()}
    check(region(warm_rep) == region(timed_rep), "warm region: %s\ntimed run: %s" % (region(warm_rep), region(timed_rep)))
    check(region(timed_rep)["dcache_misses"] == 0 and region(timed_rep)["dcache_hits"] >= 4096,
          "warm region: the timed run's %s" % region(timed_rep))
    check(region(cold_rep)["dcache_misses"] >= 256, "cold region: %s" % region(cold_rep))


def dump_hart0(report, i):
    return report["dumps"][i]["units"]["harts.hart0"]["counters"]


def main():
    accel_vp, workdir, mixed, mixed_sv39, xintf, roi, warm_elf = sys.argv[1:8]

    # Architectural results and counters.
    counters(same_results(accel_vp, workdir, "mixed_1", mixed, 1), "mixed_1", True)
    counters(same_results(accel_vp, workdir, "mixed_4", mixed, 4), "mixed_4", False)
    counters(same_results(accel_vp, workdir, "mixed_sv39", mixed_sv39, 1), "mixed_sv39", True)
    counters(same_results(accel_vp, workdir, "xintf", xintf, 1), "xintf", False)
    warm_caches(accel_vp, workdir, mixed, warm_elf)

    # insns:N: at the end of the block of the N-th instruction (a block is at most 64).
    n = 1234567
    m, _ = run(accel_vp, workdir, "insns", ["harts.timing=functional", "harts.timed_from=insns:%d" % n], mixed)
    t = m["timing"]
    check(t["switched"] and t["switch_cause"] == "insns:%d" % n, "insns: %s" % t)
    check(n <= t["switch_hart_instructions"] < n + 64, "insns: switched after %d instructions" % t["switch_hart_instructions"])
    # Timed from there: the instructions after it cost their classes' cycles, and the D-cache is used.
    check(stat(m, "harts.hart0.cycles") > stat(m, "harts.hart0.instructions"), "insns: no instruction cycles after the switch")
    check(stat(m, "harts.hart0.dcache_hits") > 0, "insns: no D-cache access after the switch")
    check(m["simulated_time_ns"] > t["switch_time_ns"] + (m["instructions"] - t["switch_instructions"]),
          "insns: the timed part took no more than a cycle per instruction")

    # time:T: at the first quantum's end (1 us) at or after T.
    m, _ = run(accel_vp, workdir, "time", ["harts.timing=functional", "harts.timed_from=time:1500us"], mixed)
    t = m["timing"]
    check(t["switched"] and t["switch_cause"] == "time:1500 us", "time: %s" % t)
    check(1500000 <= t["switch_time_ns"] < 1501000 + 200, "time: switched at %s ns" % t["switch_time_ns"])
    # Functional before it: one instruction per ns.
    check(t["switch_hart_instructions"] == round(t["switch_time_ns"]), "time: %s" % t)

    # stats-reset: the region after the reset is that of a timed run.
    timed, timed_rep = run(accel_vp, workdir, "roi_timed", [], roi)
    m, rep = run(accel_vp, workdir, "roi_switch", ["harts.timing=functional", "harts.timed_from=stats-reset"], roi)
    t = m["timing"]
    check(t["switched"] and t["switch_cause"] == "stats-reset", "stats-reset: %s" % t)
    for i in (0, 1):
        for c in ("instructions", "cycles"):
            check(dump_hart0(rep, i)[c]["value"] == dump_hart0(timed_rep, i)[c]["value"],
                  "stats-reset: dump %d %s %s, timed run %s" % (i, c, dump_hart0(rep, i)[c]["value"],
                                                               dump_hart0(timed_rep, i)[c]["value"]))
    check(dump_hart0(rep, 0)["cycles"]["value"] > dump_hart0(rep, 0)["instructions"]["value"],
          "stats-reset: the region is not timed")
    # Functional up to the reset: the switch's time is its instruction count in ns.
    check(t["switch_time_ns"] == t["switch_hart_instructions"], "stats-reset: %s" % t)
    # A timed run records no switch; a functional run that never reaches its point says so.
    check("timing" not in timed, "a timed run's manifest has a timing section")
    out = os.path.join(workdir, "functional_never")
    p = subprocess.run([accel_vp, "--no-progress", "-o", out, "--set", "harts.timing=functional", "--set",
                        "harts.timed_from=stats-reset", "run", "--elf", mixed], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=600)
    check(p.returncode == 0 and "the run ended before that point; it stayed functional throughout" in p.stdout,
          "never: no warning (%d):\n%s" % (p.returncode, p.stdout[-1000:]))
    with open(os.path.join(out, "manifest.json")) as f:
        m = json.load(f)
    check(m["timing"] == {"mode": "functional", "timed_from": "stats-reset", "warm_caches": False, "switched": False},
          "never: %s" % m["timing"])
    check(m["warnings"] >= 1, "never: the warning is not counted (%s)" % m["warnings"])

    # Bad values.
    for sets, message in [(["harts.timing=fast"], "harts.timing: 'fast' is not a timing mode (timed or functional)"),
                          (["harts.timing=functional", "harts.timed_from=soon"], "'soon' is not a switch point"),
                          (["harts.timing=functional", "harts.timed_from=insns:0"], "insns:0 is before the first"),
                          (["harts.timing=functional", "harts.timed_from=time:5"], "'5' is not a time with a unit"),
                          (["harts.timed_from=insns:100"], "'insns:100' needs harts.timing=functional"),
                          (["harts.warm_caches=true"], "harts.warm_caches: true needs harts.timing=functional")]:
        code, out = run(accel_vp, workdir, "bad", sets, mixed, expect_ok=False)
        check(code == 2 and message in out, "%s: exit %d, %s" % (sets, code, out[-300:]))

    # A bad --timed-from is named as the user wrote it; a --set that agrees with it is no conflict.
    for args, message in ((["--timed-from", "soon"], "(harts.timed_from = soon was set at --timed-from soon)"),
                          (["--set", "harts.timed_from=soon", "--timed-from", "soon"],
                           "(harts.timed_from = soon was set at --set harts.timed_from=soon)")):
        p = subprocess.run([accel_vp, "--no-progress", "-o", os.path.join(workdir, "functional_bad_shorthand")] + args +
                           ["run", "--elf", mixed], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=600)
        check(p.returncode == 2 and message in p.stdout, "%s: exit %d, %s" % (args, p.returncode, p.stdout[-300:]))

    # --timed-from sets both keys: a --set of either that disagrees, before or after it, is a usage error.
    for args, conflicting in ((["--timed-from", "insns:100", "--set", "harts.timing=timed"], "harts.timing=timed"),
                              (["--set", "harts.timing=timed", "--timed-from", "insns:100"], "harts.timing=timed"),
                              (["--timed-from", "insns:100", "--set", "harts.timed_from=stats-reset"],
                               "harts.timed_from=stats-reset")):
        p = subprocess.run([accel_vp, "--no-progress", "-o", os.path.join(workdir, "functional_conflict")] + args +
                           ["run", "--elf", mixed], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=600)
        message = "--timed-from insns:100: conflicts with --set " + conflicting
        check(p.returncode == 2 and message in p.stdout, "%s: exit %d, %s" % (args, p.returncode, p.stdout[-300:]))

    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print("functional_mode: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
