#!/usr/bin/env python3
"""RISC-V programs on accel-vp and on qemu-system-riscv64 in the same run:
MIPS of each and the ratio accel-vp / QEMU (the figure bench/baseline.json
records).

Method: instructions = the programs' own minstret deltas around the work,
summed over harts (exact on accel-vp; on QEMU from a separate -icount shift=0
run, since QEMU's minstret counts host ticks otherwise). Time = best wall
time of the timed runs minus the best time of the program's _empty build
(same start-up, no work), so start-up (SystemC elaboration, QEMU boot, .bss
clear) does not count. The checksums must match QEMU's, or the run fails.

One-hart cases run pinned to one host CPU at a time, accel-vp and QEMU on
the same CPU, on each CPU the bench may use: the CPUs of a virtual machine
need not run at the same speed (a neighbour on one of them slows both
simulators on it, and not by the same factor), so an unpinned run's ratio
depends on where each simulator happened to land. The figure is the one
measured on the CPU where QEMU's whole run was quickest (the least
disturbed one); every CPU's figures are printed. Cases with more harts run
unpinned. Both simulators get the same number of timed runs, taken in
rounds (QEMU, its empty build, accel-vp, its empty build, then again), so
that a neighbour who takes the CPU for a while disturbs both alike and
neither keeps its best of more tries than the other.

  --case NAME HARTS ACCELVP_ELF ACCELVP_EMPTY_ELF QEMU_ELF QEMU_EMPTY_ELF   (repeatable)

A NAME ending in _functional runs accel-vp with harts.timing=functional (no
cache or memory timing, docs/timing.md), one ending in _warm functional with
its caches warmed (harts.warm_caches=true), one ending in _parallel in the
parallel quantum schedule on one host thread (harts.parallel_quantum=true,
docs/harts.md "Parallel harts"; its results are that schedule's), against
the same QEMU runs.

With AVP_BENCH_RESULTS set, the figures are written there as JSON
(bench/bench_results.h describes the format)."""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

LINE = re.compile(r"bench (\S+) hart (\d+): result ([0-9a-f]+) instret (\d+)")


def run(cmd, timeout, cpu=None):
    """Runs cmd (on host CPU `cpu` alone, if given); returns (CPU seconds of the child, its output)."""
    pin = (lambda: os.sched_setaffinity(0, {cpu})) if cpu is not None else None
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                       timeout=timeout, preexec_fn=pin)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    dt = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    out = p.stdout.decode(errors="replace")
    if p.returncode != 0:
        raise RuntimeError("%s exited with %d:\n%s" % (" ".join(cmd), p.returncode, out[-2000:]))
    return dt, out


def parse(out):
    results, instret = {}, 0
    for line in out.splitlines():
        m = LINE.search(line)
        if m:
            results[(m.group(1), int(m.group(2)))] = m.group(3)
            instret += int(m.group(4))
    if not results:
        raise RuntimeError("no benchmark lines in output:\n" + out[-2000:])
    return results, instret


def best_times(cmds, rounds, timeout, cpu=None):
    """The best CPU time of each command, run in `rounds` rounds of all of them in turn."""
    best = [float("inf")] * len(cmds)
    for _ in range(rounds):
        for i, cmd in enumerate(cmds):
            best[i] = min(best[i], run(cmd, timeout, cpu)[0])
    return best


def check(results, reference, harts):
    """Every hart's checksums must equal QEMU's for hart 0 of the same work (harts differ by their seed only
    in avp_bench, whose per-hart results are compared for hart 0)."""
    if len({k[1] for k in results}) != harts:
        return "WRONG: %d harts reported" % len({k[1] for k in results})
    wrong = sorted(k for k, v in results.items() if reference.get(k) is not None and reference[k] != v)
    return "WRONG RESULTS %s" % wrong if wrong else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--case", nargs=6, action="append", required=True,
                    metavar=("NAME", "HARTS", "ACCELVP", "ACCELVP_EMPTY", "QEMU", "QEMU_EMPTY"))
    ap.add_argument("--accel-vp", required=True)
    ap.add_argument("--repeat", type=int, default=4, help="timed runs of each build per case and CPU (best is kept)")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--cpus", help="host CPUs for the one-hart cases, comma-separated (default: all this process may use)")
    args = ap.parse_args()
    cpus = [int(c) for c in args.cpus.split(",")] if args.cpus else sorted(os.sched_getaffinity(0))

    def qcmd(elf, harts, extra=()):
        return [args.qemu, "-machine", "virt", "-bios", "none", "-nographic", "-monitor", "none", "-no-reboot",
                "-smp", str(harts)] + list(extra) + ["-kernel", elf]

    out_dir = tempfile.mkdtemp(prefix="bench-riscv-")

    def acmd(elf, harts, name):
        mode = (["--set", "harts.timing=functional"] if name.endswith("_functional") else
                ["--set", "harts.timing=functional", "--set", "harts.warm_caches=true"] if name.endswith("_warm") else
                ["--set", "harts.parallel_quantum=true"] if name.endswith("_parallel") else [])
        return [args.accel_vp, "--no-progress", "-o", out_dir] + mode + ["run", "--elf", elf, "--harts", str(harts)]

    rows, per_cpu, by_cpu, figures, failed = [], [], {}, [], False
    for name, harts, aelf, aempty, qelf, qempty in args.case:
        harts = int(harts)
        # QEMU: exact instruction counts from -icount, time from plain runs.
        _, qout = run(qcmd(qelf, harts, ["-icount", "shift=0"]), args.timeout)
        _, qout_empty = run(qcmd(qempty, harts, ["-icount", "shift=0"]), args.timeout)
        qresults, qn = parse(qout)
        qn -= parse(qout_empty)[1]
        aout = run(acmd(aelf, harts, name), args.timeout)[1]
        aresults, an = parse(aout)
        an -= parse(run(acmd(aempty, harts, name), args.timeout)[1])[1]
        status = check(aresults, qresults, harts)
        failed |= bool(status)
        # Times: on each CPU in turn (one hart) or unpinned; the row kept is the CPU where QEMU's
        # whole run was quickest (not its rate: that is a difference of two runs, and noisier).
        measured = []
        quickest = {}  # QEMU's best time for the work, start-up included, by CPU
        for cpu in (cpus if harts == 1 else [None]):
            q, q_empty, a, a_empty = best_times(
                [qcmd(qelf, harts), qcmd(qempty, harts), acmd(aelf, harts, name), acmd(aempty, harts, name)], args.repeat,
                args.timeout, cpu)
            quickest[cpu] = q
            qt, at = q - q_empty, a - a_empty
            measured.append((name, harts, cpu, qn, qt, qn / max(qt, 1e-9) / 1e6, an, at, an / max(at, 1e-9) / 1e6,
                             status))
        by_cpu[(name, harts)] = {r[2]: r for r in measured}
        per_cpu.extend(measured if len(measured) > 1 else [])
        rows.append(min(measured, key=lambda r: quickest[r[2]]))
        qmips, amips = rows[-1][5], rows[-1][8]
        figures.append({"name": "iss.%s.%dh" % (name, harts), "value": amips, "unit": "MIPS", "higher_is_better": True,
                        "reference": {"name": "qemu-system-riscv64 %dh" % harts, "value": qmips, "unit": "MIPS"}})

    # Translation on against Bare, both on accel-vp in this run and on the same CPU (issue: at least 0.8).
    sv39_vs_bare = None
    if ("mixed", 1) in by_cpu and ("mixed_sv39", 1) in by_cpu:
        cpu = next(r[2] for r in rows if r[:2] == ("mixed", 1))
        sv39_vs_bare = by_cpu[("mixed_sv39", 1)][cpu][8], by_cpu[("mixed", 1)][cpu][8], cpu
        figures.append({"name": "iss.mixed_sv39_vs_bare.1h", "value": sv39_vs_bare[0], "unit": "MIPS",
                        "higher_is_better": True,
                        "reference": {"name": "accel-vp mixed, M-mode Bare", "value": sv39_vs_bare[1],
                                      "unit": "MIPS"}})

    shutil.rmtree(out_dir, ignore_errors=True)

    def table(title, lines):
        print(title)
        print("%-18s %5s %4s %14s %9s %9s %14s %9s %9s %8s" % ("program", "harts", "cpu", "QEMU insns", "CPU [s]",
                                                               "QEMU MIPS", "accel-vp insns", "CPU [s]", "MIPS",
                                                               "ratio"))
        for name, harts, cpu, qn, qt, qmips, an, at, amips, status in lines:
            print("%-18s %5d %4s %14d %9.3f %9.1f %14d %9.3f %9.1f %8.3f %s" %
                  (name, harts, "-" if cpu is None else cpu, qn, qt, qmips, an, at, amips, amips / qmips, status))

    if per_cpu:
        table("one-hart cases on each host CPU (both simulators pinned to it):", per_cpu)
    table("figures (one hart: the CPU where QEMU's run was quickest; more harts: unpinned):", rows)
    if sv39_vs_bare:
        print("mixed with Sv39 on (S-mode) / Bare (M-mode) on accel-vp, cpu %s: %.3f" %
              (sv39_vs_bare[2], sv39_vs_bare[0] / max(sv39_vs_bare[1], 1e-9)))
    print("instructions: minstret around the work (QEMU: -icount run); CPU time: best run minus the empty build's best run")
    path = os.environ.get("AVP_BENCH_RESULTS")
    if path:
        with open(path, "w") as f:
            json.dump({"figures": figures}, f, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
