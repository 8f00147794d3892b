#!/usr/bin/env python3
"""Boots the project's Linux kernel and self-test initramfs (sw/linux) after
Debian's OpenSBI fw_jump, on accel-vp or on qemu-system-riscv64 -M virt, and
checks the banner, every self-test line, the summary and the exit status.

usage: boot_linux.py ACCEL_VP IMAGE INITRAMFS OUT_DIR MODE HARTS
  MODE selftest     boot to power-off, every check PASS, exit status 0
       determinism  two boots: the same UART bytes and simulated time
       parallel     the parallel quantum schedule on one host thread and on two:
                    every check PASS, the same UART bytes, time and statistics
       negative     selftest.fail=1: the futex check FAILs, exit status 1
       qemu         the same kernel and initramfs on QEMU's virt machine
"""
import json
import os
import re
import subprocess
import sys

OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf"
BOOTARGS = "console=ttyS0 earlycon"
CHECKS = ["mounts", "harts-online", "affinity", "futex", "atomics", "fp", "cpuinfo", "interrupts", "fork-cow",
          "exec-wait", "mmap-faults", "signals", "nanosleep", "clock-vs-mtime", "clocks-monotonic"]
TIMEOUT = 500


def fail(msg, out=""):
    print(out[-8000:])
    print("FAIL:", msg)
    sys.exit(1)


def run(cmd):
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as e:
        fail(f"no power-off within {TIMEOUT} s: {' '.join(cmd)}", (e.stdout or b"").decode(errors="replace"))
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def boot_vp(vp, image, initramfs, out, harts, bootargs=BOOTARGS, settings=()):
    cmd = [vp, "--no-progress", "-o", out, "boot", "--firmware", OPENSBI, "--kernel", image, "--initrd", initramfs,
           "--harts", str(harts), "--bootargs", bootargs]
    for s in settings:
        cmd += ["--set", s]
    code, stdout, stderr = run(cmd)
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    uart = stdout.split("== accel-vp summary")[0]  # the summary after it has wall times
    return code, uart, stdout + stderr, manifest


def boot_qemu(image, initramfs, harts, bootargs=BOOTARGS):
    # One TCG thread for all harts: with a thread per hart on a loaded 2-core
    # host, one 4-hart boot in three stalled until the timeout.
    cmd = ["qemu-system-riscv64", "-M", "virt", "-accel", "tcg,thread=single", "-smp", str(harts), "-m", "512M",
           "-nographic", "-bios", OPENSBI,
           "-kernel", image, "-initrd", initramfs, "-append", bootargs]
    code, stdout, stderr = run(cmd)
    return code, stdout + stderr


def two_boots(vp, image, initramfs, out, harts, settings):
    """Boots twice (run0, run1 in out, each with its settings): both pass the
    self-test and print the same UART bytes. Returns each run's (UART, manifest)."""
    runs = [boot_vp(vp, image, initramfs, os.path.join(out, f"run{i}"), harts, settings=sets)
            for i, sets in enumerate(settings)]
    for code, _, text, _ in runs:
        check_selftest(text, harts)
        if code != 0:
            fail(f"exit status {code}", text)
    (_, out0, _, _), (_, out1, _, _) = runs
    if out0 != out1:
        fail("the two boots' UART bytes differ", out0 + "\n----\n" + out1)
    return [(uart, manifest) for _, uart, _, manifest in runs]


def check_selftest(text, harts, failing=()):
    expect = [r"OpenSBI v1\.1", r"Linux version 6\.1\.", rf"smp: Brought up 1 node, {harts} CPUs?",
              rf"accel-vp Linux self-test: {harts} harts online"]
    for e in expect:
        if not re.search(e, text):
            fail(f"missing /{e}/ in the output", text)
    for name in CHECKS:
        want = "FAIL" if name in failing else "PASS"
        if not re.search(rf"^selftest: {want} {name}: ", text, re.M):
            fail(f"no 'selftest: {want} {name}' line", text)
    summary = rf"^selftest: {len(CHECKS) - len(failing)} passed, {len(failing)} failed\r?$"
    if not re.search(summary, text, re.M):
        fail(f"missing /{summary}/", text)


def main():
    vp, image, initramfs, out, mode, harts = sys.argv[1:6] + [int(sys.argv[6])]
    os.makedirs(out, exist_ok=True)
    if mode == "selftest":
        code, _, text, m = boot_vp(vp, image, initramfs, out, harts)
        check_selftest(text, harts)
        if code != 0:
            fail(f"exit status {code}, expected 0 (SBI SRST power-off)", text)
        print(f"OK: {harts} hart(s), every check passed; simulated {m['simulated_time_ns'] / 1e9:.3f} s, "
              f"wall {m['wall_time_s']:.1f} s")
    elif mode == "determinism":
        (out0, m0), (_, m1) = two_boots(vp, image, initramfs, out, harts, [(), ()])
        if m0["simulated_time_ns"] != m1["simulated_time_ns"] or m0.get("uart") != m1.get("uart"):
            fail(f"simulated times differ: {m0['simulated_time_ns']} and {m1['simulated_time_ns']} ns (or UART line times)")
        print(f"OK: two boots on {harts} hart(s), {len(out0)} identical UART bytes, both {m0['simulated_time_ns']} ns")
    elif mode == "parallel":
        # A slice runs CSR accesses, xRETs, fences, WFIs that do not sleep and
        # accesses the TLB holds on any host thread (docs/harts.md, "Parallel harts").
        schedules = [["harts.parallel_quantum=true"], ["harts.host_threads=2"]]
        (out0, m0), (_, m1) = two_boots(vp, image, initramfs, out, harts, schedules)
        stats = [open(os.path.join(out, f"run{i}", "stats.txt")).read() for i in range(2)]
        if m0["simulated_time_ns"] != m1["simulated_time_ns"] or stats[0] != stats[1]:
            fail(f"simulated times ({m0['simulated_time_ns']}, {m1['simulated_time_ns']} ns) or statistics differ")
        print(f"OK: {harts} harts in the parallel schedule on one and two host threads: {len(out0)} identical UART "
              f"bytes, identical statistics, {m0['simulated_time_ns']} ns")
    elif mode == "negative":
        code, _, text, _ = boot_vp(vp, image, initramfs, out, harts, BOOTARGS + " selftest.fail=1")
        check_selftest(text, harts, failing=("futex",))
        if code != 1:
            fail(f"exit status {code}, expected 1 (one failed check, the SiFive test device's FAIL)", text)
        print("OK: the negative control failed the futex check and the run exited with status 1")
    elif mode == "qemu":
        code, text = boot_qemu(image, initramfs, harts)
        check_selftest(text, harts)
        if code != 0:
            fail(f"QEMU exit status {code}", text)
        code, text = boot_qemu(image, initramfs, harts, BOOTARGS + " selftest.fail=1")
        check_selftest(text, harts, failing=("futex",))
        if code != 1:
            fail(f"QEMU exit status {code} with the negative control, expected 1", text)
        print(f"OK: QEMU virt, {harts} hart(s): every check passed; the negative control exited with 1")
    else:
        fail(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
