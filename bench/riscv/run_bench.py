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

LINE = re.compile(r"^bench (\S+) hart (\d+): result ([0-9a-f]+) instret (\d+)")


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
        m = LINE.match(line.strip())
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
    ap.add_argument("--qemu-elf", required=True)
    ap.add_argument("--qemu-empty-elf", required=True)
    ap.add_argument("--accel-vp")
    ap.add_argument("--avp-elf")
    ap.add_argument("--avp-empty-elf")
    ap.add_argument("--all-harts", type=int, default=8, help="hart count of the default platform")
    ap.add_argument("--repeat", type=int, default=5, help="timed QEMU runs (best is kept)")
    ap.add_argument("--timeout", type=int, default=600)
    args = ap.parse_args()

    qbase = [args.qemu, "-machine", "virt", "-bios", "none", "-nographic", "-monitor", "none", "-no-reboot"]
    qcmd = lambda elf, extra=(): qbase + list(extra) + ["-kernel", elf]
    _, qout = run(qcmd(args.qemu_elf, ["-icount", "shift=0"]), args.timeout)
    _, qout_empty = run(qcmd(args.qemu_empty_elf, ["-icount", "shift=0"]), args.timeout)
    qresults, qn_full = parse(qout)
    _, qn_empty = parse(qout_empty)
    qn, qt, _ = measure(qcmd(args.qemu_elf), qcmd(args.qemu_empty_elf), args.repeat, args.timeout,
                        qn_full, qn_empty)
    qmips = qn / qt / 1e6

    rows = [("qemu-system-riscv64", 1, qn, qt, qmips, "")]
    notes = []
    if args.accel_vp and not accel_vp_runs_elf(args.accel_vp):
        notes.append("accel-vp: not measured (%s has no `run --elf` yet)" % args.accel_vp)
    elif args.accel_vp:
        for harts in sorted({1, args.all_harts}):
            acmd = lambda elf: [args.accel_vp, "run", "--elf", elf, "--harts", str(harts)]
            try:
                n, t, results = measure(acmd(args.avp_elf), acmd(args.avp_empty_elf), 1, args.timeout)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                notes.append("accel-vp with %d hart(s) failed: %s" % (harts, e))
                continue
            wrong = [k for k, v in results.items() if k[1] == 0 and qresults.get(k) != v]
            status = "WRONG RESULTS %s" % wrong if wrong else ""
            rows.append(("accel-vp", harts, n, t, n / t / 1e6, status))
    else:
        notes.append("accel-vp: not measured (no accel-vp target with `run --elf` in this build)")

    print("%-20s %5s %14s %9s %9s %9s" % ("platform", "harts", "instructions", "wall [s]", "MIPS", "vs QEMU"))
    for name, harts, n, t, mips, status in rows:
        print("%-20s %5d %14d %9.3f %9.1f %8.3fx %s" % (name, harts, n, t, mips, mips / qmips, status))
    for note in notes:
        print(note)
    print("(instructions from minstret, QEMU counted with -icount; start-up subtracted via the empty build)")
    return 1 if any(r[5] for r in rows) or any("failed" in n for n in notes) else 0


if __name__ == "__main__":
    sys.exit(main())
