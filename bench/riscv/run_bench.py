#!/usr/bin/env python3
"""RISC-V benchmark runner: runs avp_bench on accel-vp (1 hart and all harts)
and on qemu-system-riscv64, and prints MIPS for each and the ratio.

Method: instructions = the program's own minstret deltas summed over harts
(exact on accel-vp; on QEMU from a separate -icount shift=0 run, since QEMU's
minstret counts host ticks otherwise). Time = best wall time of the timed
runs. The AVP_BENCH_EMPTY build (same start-up, no work) is subtracted from
both, so start-up (SystemC elaboration, QEMU boot, .bss clear) does not count.
The kernels' checksums must match QEMU's, or the run is reported as wrong."""
import argparse
import re
import subprocess
import sys
import time

LINE = re.compile(r"bench (\S+) hart (\d+): result ([0-9a-f]+) instret (\d+)")


def run(cmd, timeout):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                       timeout=timeout)
    dt = time.perf_counter() - t0
    out = p.stdout.decode(errors="replace")
    if p.returncode != 0:
        raise RuntimeError("%s exited with %d:\n%s" % (" ".join(cmd), p.returncode, out[-2000:]))
    return dt, out


def accel_vp_runs_elf(exe):
    p = subprocess.run([exe, "run", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    return p.returncode == 0 and b"--elf" in p.stdout


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


def measure(cmd_full, cmd_empty, repeat, timeout, count_full=None, count_empty=None):
    """Returns (instructions, seconds, results) with the empty run subtracted."""
    t_full, out = min((run(cmd_full, timeout) for _ in range(repeat)), key=lambda r: r[0])
    t_empty, out_empty = min((run(cmd_empty, timeout) for _ in range(repeat)), key=lambda r: r[0])
    results, n_full = parse(out)
    _, n_empty = parse(out_empty)
    if count_full is not None:
        n_full, n_empty = count_full, count_empty
    return n_full - n_empty, max(t_full - t_empty, 1e-9), results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qemu", required=True)
    for prog in ("qemu1", "qemuall", "accelvp"):
        ap.add_argument("--%s-elf" % prog, required=True)
        ap.add_argument("--%s-empty-elf" % prog, required=True)
    ap.add_argument("--accel-vp")
    ap.add_argument("--all-harts", type=int, default=8, help="hart count of the default platform")
    ap.add_argument("--repeat", type=int, default=10, help="timed QEMU runs (best is kept)")
    ap.add_argument("--timeout", type=int, default=600)
    args = ap.parse_args()

    def qcmd(elf, harts, extra=()):
        return [args.qemu, "-machine", "virt", "-bios", "none", "-nographic", "-monitor", "none", "-no-reboot",
                "-smp", str(harts)] + list(extra) + ["-kernel", elf]

    # Instructions of one hart's work: the 1-hart build under -icount (exact
    # minstret). Every hart does the same work, so N harts execute N times it.
    _, qout = run(qcmd(args.qemu1_elf, 1, ["-icount", "shift=0"]), args.timeout)
    _, qout_empty = run(qcmd(args.qemu1_empty_elf, 1, ["-icount", "shift=0"]), args.timeout)
    qresults, n1_full = parse(qout)
    _, n1_empty = parse(qout_empty)

    rows, notes = [], []
    for harts, elf, empty in ((1, args.qemu1_elf, args.qemu1_empty_elf),
                              (args.all_harts, args.qemuall_elf, args.qemuall_empty_elf)):
        n, t, results = measure(qcmd(elf, harts), qcmd(empty, harts), args.repeat, args.timeout,
                                harts * n1_full, harts * n1_empty)
        rows.append(("qemu-system-riscv64", harts, n, t, n / t / 1e6, check(results, qresults, harts)))
    qmips = rows[0][4]

    if args.accel_vp and not accel_vp_runs_elf(args.accel_vp):
        notes.append("accel-vp: not measured (%s has no `run --elf` yet)" % args.accel_vp)
    elif args.accel_vp:
        for harts in sorted({1, args.all_harts}):
            acmd = lambda elf: [args.accel_vp, "run", "--elf", elf, "--harts", str(harts)]
            try:
                n, t, results = measure(acmd(args.accelvp_elf), acmd(args.accelvp_empty_elf), 1, args.timeout)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                notes.append("accel-vp with %d hart(s) failed: %s" % (harts, e))
                continue
            rows.append(("accel-vp", harts, n, t, n / t / 1e6, check(results, qresults, harts)))
    else:
        notes.append("accel-vp: not measured (no accel-vp target in this build)")

    print("%-20s %5s %14s %9s %9s %11s" % ("platform", "harts", "instructions", "wall [s]", "MIPS", "vs QEMU 1h"))
    for name, harts, n, t, mips, status in rows:
        print("%-20s %5d %14d %9.3f %9.1f %10.3fx %s" % (name, harts, n, t, mips, mips / qmips, status))
    for note in notes:
        print(note)
    print("instructions: minstret around the kernels (QEMU: 1-hart -icount run x harts); "
          "wall: best run minus the empty build's best run")
    return 1 if any(r[5] for r in rows) or any("failed" in n for n in notes) else 0


def check(results, reference, harts):
    """The kernels' checksums of every hart must equal QEMU's 1-hart run for hart 0."""
    ref0 = {k[0]: v for k, v in reference.items() if k[1] == 0}
    if len({k[1] for k in results}) != harts:
        return "WRONG: %d harts reported" % len({k[1] for k in results})
    wrong = sorted(k for k, v in results.items() if k[1] == 0 and ref0.get(k[0]) != v)
    return "WRONG RESULTS %s" % wrong if wrong else ""


if __name__ == "__main__":
    sys.exit(main())
