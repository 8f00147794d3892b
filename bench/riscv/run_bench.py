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

  --case NAME HARTS ACCELVP_ELF ACCELVP_EMPTY_ELF QEMU_ELF QEMU_EMPTY_ELF   (repeatable)

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


def run(cmd, timeout):
    """Runs cmd; returns (CPU seconds of the child, its output)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                       timeout=timeout)
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


def best_time(cmd, repeat, timeout):
    return min((run(cmd, timeout) for _ in range(repeat)), key=lambda r: r[0])


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
    ap.add_argument("--repeat", type=int, default=5, help="timed QEMU runs per case (best is kept)")
    ap.add_argument("--accel-vp-repeat", type=int, default=2, help="timed accel-vp runs per case (best is kept)")
    ap.add_argument("--timeout", type=int, default=900)
    args = ap.parse_args()

    def qcmd(elf, harts, extra=()):
        return [args.qemu, "-machine", "virt", "-bios", "none", "-nographic", "-monitor", "none", "-no-reboot",
                "-smp", str(harts)] + list(extra) + ["-kernel", elf]

    out_dir = tempfile.mkdtemp(prefix="bench-riscv-")

    def acmd(elf, harts):
        return [args.accel_vp, "--no-progress", "-o", out_dir, "run", "--elf", elf, "--harts", str(harts)]

    rows, figures, failed = [], [], False
    for name, harts, aelf, aempty, qelf, qempty in args.case:
        harts = int(harts)
        # QEMU: exact instruction counts from -icount, time from plain runs.
        _, qout = run(qcmd(qelf, harts, ["-icount", "shift=0"]), args.timeout)
        _, qout_empty = run(qcmd(qempty, harts, ["-icount", "shift=0"]), args.timeout)
        qresults, qn = parse(qout)
        qn -= parse(qout_empty)[1]
        qt = best_time(qcmd(qelf, harts), args.repeat, args.timeout)[0] - best_time(qcmd(qempty, harts), args.repeat,
                                                                                    args.timeout)[0]
        qmips = qn / max(qt, 1e-9) / 1e6
        # accel-vp.
        at, aout = best_time(acmd(aelf, harts), args.accel_vp_repeat, args.timeout)
        at -= best_time(acmd(aempty, harts), args.accel_vp_repeat, args.timeout)[0]
        aresults, an = parse(aout)
        an -= parse(run(acmd(aempty, harts), args.timeout)[1])[1]
        amips = an / max(at, 1e-9) / 1e6
        status = check(aresults, qresults, harts)
        failed |= bool(status)
        rows.append((name, harts, qn, qt, qmips, an, at, amips, status))
        figures.append({"name": "iss.%s.%dh" % (name, harts), "value": amips, "unit": "MIPS", "higher_is_better": True,
                        "reference": {"name": "qemu-system-riscv64 %dh" % harts, "value": qmips, "unit": "MIPS"}})

    # Translation on against Bare, both on accel-vp in this run (issue: at least 0.8).
    amips_of = {(r[0], r[1]): r[7] for r in rows}
    if ("mixed", 1) in amips_of and ("mixed_sv39", 1) in amips_of:
        figures.append({"name": "iss.mixed_sv39_vs_bare.1h", "value": amips_of[("mixed_sv39", 1)], "unit": "MIPS",
                        "higher_is_better": True,
                        "reference": {"name": "accel-vp mixed, M-mode Bare", "value": amips_of[("mixed", 1)],
                                      "unit": "MIPS"}})

    shutil.rmtree(out_dir, ignore_errors=True)
    print("%-10s %5s %14s %9s %9s %14s %9s %9s %8s" % ("program", "harts", "QEMU insns", "CPU [s]", "QEMU MIPS",
                                                          "accel-vp insns", "CPU [s]", "MIPS", "ratio"))
    for name, harts, qn, qt, qmips, an, at, amips, status in rows:
        print("%-10s %5d %14d %9.3f %9.1f %14d %9.3f %9.1f %8.3f %s" % (name, harts, qn, qt, qmips, an, at, amips,
                                                                     amips / qmips, status))
    if ("mixed", 1) in amips_of and ("mixed_sv39", 1) in amips_of:
        print("mixed with Sv39 on (S-mode) / Bare (M-mode) on accel-vp: %.3f" %
              (amips_of[("mixed_sv39", 1)] / max(amips_of[("mixed", 1)], 1e-9)))
    print("instructions: minstret around the work (QEMU: -icount run); CPU time: best run minus the empty build's best run")
    path = os.environ.get("AVP_BENCH_RESULTS")
    if path:
        with open(path, "w") as f:
            json.dump({"figures": figures}, f, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
