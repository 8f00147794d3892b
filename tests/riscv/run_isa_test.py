#!/usr/bin/env python3
"""Runs one ISA test program on QEMU (the reference) and, when given, on
accel-vp, and compares the signatures (the lines between the begin/end
markers the program prints).

The QEMU signature must equal the reviewed golden file expected/<name>.sig
(spec-checked by hand; see docs/isa-testing.md). The accel-vp signature must
equal the golden file too, which is the QEMU signature except for the lines
listed in expected/<name>.qemu-deviations (places where QEMU and the RISC-V
specification disagree: there the golden file holds the spec's value and the
deviations file QEMU's)."""
import argparse
import difflib
import os
import subprocess
import sys

TIMEOUT_S = 60


def run(cmd):
    """Returns (exit code or None on timeout, stdout, stderr). Signatures come
    from stdout only, so simulator logging on stderr cannot interleave."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode(errors="replace"), (e.stderr or b"").decode(errors="replace")
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def signature(output):
    """The lines between the markers. A console prefix that the simulator may
    put before each printed line (e.g. a hart tag) is taken from the begin
    marker's line and stripped from the following ones."""
    lines, prefix = [], None
    for line in output.splitlines():
        line = line.rstrip("\r")
        if prefix is None:
            at = line.find("--- begin signature")
            if at >= 0:
                prefix = line[:at]
                lines.append(line[at:])
            continue
        if prefix and line.startswith(prefix):
            line = line[len(prefix):]
        lines.append(line)
        if line.startswith("--- end signature"):
            return lines
    return None


def read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]


def diff(expected, actual, a, b):
    d = list(difflib.unified_diff(expected, actual, a, b, lineterm="", n=1))
    return "\n".join(d[:60]) + ("\n... (%d more diff lines)" % (len(d) - 60) if len(d) > 60 else "")


def run_signature(label, cmd):
    rc, out, err = run(cmd)
    if rc is None:
        print("FAIL: %s timed out after %d s: %s\n%s\n%s" % (label, TIMEOUT_S, " ".join(cmd), out[-2000:],
                                                          err[-2000:]))
        return None
    sig = signature(out)
    if rc != 0 or sig is None:
        print("FAIL: %s exited with %s%s: %s\n--- stdout\n%s\n--- stderr\n%s" % (
            label, rc, "" if sig else " without a complete signature", " ".join(cmd), out[-3000:], err[-2000:]))
        return None
    return sig


def accel_vp_runs_elf(exe):
    rc, out, err = run([exe, "run", "--help"])
    return rc == 0 and "--elf" in out + err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--qemu", required=True, help="qemu-riscv64 or qemu-system-riscv64")
    ap.add_argument("--system", action="store_true", help="bare-metal program for -machine virt")
    ap.add_argument("--qemu-elf", required=True)
    ap.add_argument("--expected-dir", required=True)
    ap.add_argument("--accel-vp", help="accel-vp executable")
    ap.add_argument("--avp-elf", help="the program built for accel-vp")
    ap.add_argument("--harts", type=int, default=1, help="harts to run (QEMU -smp, accel-vp --harts)")
    ap.add_argument("--qemu-cpu", help="QEMU -cpu (system): extensions QEMU leaves off by default")
    ap.add_argument("--update", action="store_true", help="write QEMU's signature as the golden file")
    args = ap.parse_args()

    if args.system:
        qcmd = [args.qemu, "-machine", "virt", "-bios", "none", "-nographic", "-monitor", "none",
                "-no-reboot", "-smp", str(args.harts), "-kernel", args.qemu_elf]
        if args.qemu_cpu:
            qcmd += ["-cpu", args.qemu_cpu]
    else:
        qcmd = [args.qemu, args.qemu_elf]
    qsig = run_signature("QEMU", qcmd)
    if qsig is None:
        return 1

    golden_path = os.path.join(args.expected_dir, args.name + ".sig")
    deviations = read_lines(os.path.join(args.expected_dir, args.name + ".qemu-deviations"))
    if args.update:
        # Lines with a documented QEMU deviation keep their reviewed spec value.
        dev_keys = {l.split(": ")[0] for l in deviations}
        kept = {l.split(": ")[0]: l for l in read_lines(golden_path) if l.split(": ")[0] in dev_keys}
        qsig = [kept.get(l.split(": ")[0], l) for l in qsig]
        with open(golden_path, "w") as f:
            f.write("\n".join(qsig) + "\n")
        print("wrote %s (%d lines): review it against the spec" % (golden_path, len(qsig)))
        return 0

    golden = read_lines(golden_path)
    # QEMU's view of the golden file: the spec value replaced by QEMU's own.
    dev_keys = {l.split(": ")[0]: l for l in deviations}
    golden_qemu = [dev_keys.get(l.split(": ")[0], l) for l in golden]
    ok = True
    if qsig != golden_qemu:
        print("FAIL: QEMU signature differs from %s (plus documented QEMU deviations)" % golden_path)
        print(diff(golden_qemu, qsig, "expected", "qemu"))
        ok = False
    else:
        print("QEMU signature matches %s (%d lines, %d documented QEMU deviations)"
              % (golden_path, len(golden), len(deviations)))

    if args.accel_vp and not accel_vp_runs_elf(args.accel_vp):
        print("NOTE: %s has no `run --elf` yet: only QEMU was checked (against the golden file)" % args.accel_vp)
    elif args.accel_vp:
        asig = run_signature("accel-vp", [args.accel_vp, "run", "--elf", args.avp_elf, "--harts", str(args.harts)])
        if asig is None:
            return 1
        if asig != golden:
            print("FAIL: accel-vp signature differs from the golden/QEMU signature")
            print(diff(golden, asig, "expected", "accel-vp"))
            ok = False
        else:
            print("accel-vp signature matches the golden file (%d lines)" % len(asig))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
