#!/usr/bin/env python3
"""Boot to the U-Boot prompt: OpenSBI's generic fw_jump.elf with U-Boot's
S-mode build (Debian packages opensbi and u-boot-qemu) on accel-vp
(`accel-vp boot`, 1 hart) and on qemu-system-riscv64 virt, in the same run.

Figures: the wall time from starting the simulator to the prompt (best of
--repeat runs; accel-vp against QEMU) and accel-vp's simulated time to the
autoboot countdown, where U-Boot is ready for a key (from the manifest's
UART lines: the simulated time of the countdown line's first byte; the
prompt's depends on when the key typed in host time arrives). A newline is
typed when U-Boot's autoboot countdown shows, which stops it; then
`poweroff` ends the run.

Then U-Boot's `sleep 2` at the prompt, on 1 and on 4 harts (and on 4 in
the parallel quantum schedule on two host threads: figure `.4h_parallel`):
the wall time from typing the command to the next prompt (best of --repeat
runs), against QEMU's (which takes the 2 s of its host clock). It is what
a firmware engineer waits for in polling loops (docs/harts.md, "Polling
loops").

With AVP_BENCH_RESULTS set, the figures are written there as JSON
(bench/bench_results.h describes the format)."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf"
UBOOT_S = "/usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin"
PROMPT = b"=> "


def to_prompt(cmd, timeout, command=None):
    """Runs cmd, types a newline, waits for the prompt, runs `command` there
    (if given), powers off; returns (wall seconds to the prompt, wall seconds
    from typing the command to the next prompt, output)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = bytearray()
    seen = threading.Event()
    done = threading.Event()

    def reader():
        while True:
            b = p.stdout.read1(4096)
            if not b:
                break
            out.extend(b)
            if PROMPT in out and not seen.is_set():
                seen.t = time.monotonic()
                seen.set()
        done.set()

    threading.Thread(target=reader, daemon=True).start()
    # A key as soon as the countdown shows (input typed before U-Boot reads
    # the console may be dropped when the UART is reset).
    deadline = time.monotonic() + timeout
    while b"autoboot" not in out and not done.is_set() and time.monotonic() < deadline:
        time.sleep(0.002)
    p.stdin.write(b"\n")
    p.stdin.flush()
    if not seen.wait(max(1, deadline - time.monotonic())):
        p.kill()
        raise RuntimeError("no U-Boot prompt within %d s from %s:\n%s" % (timeout, cmd[0], out.decode(errors="replace")[-3000:]))
    wall = seen.t - t0
    command_wall = None
    if command:
        t1 = time.monotonic()
        p.stdin.write(command.encode() + b"\n")
        p.stdin.flush()
        while out.count(PROMPT) < 2 and not done.is_set() and time.monotonic() < deadline:
            time.sleep(0.001)
        if out.count(PROMPT) < 2:
            p.kill()
            raise RuntimeError("no prompt after %r within %d s from %s" % (command, timeout, cmd[0]))
        command_wall = time.monotonic() - t1
    p.stdin.write(b"poweroff\n")
    p.stdin.flush()
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
    done.wait(5)
    return wall, command_wall, out.decode(errors="replace")


def ready_sim_time(manifest_path):
    """The simulated time (s) of the first UART line with the autoboot countdown."""
    with open(manifest_path) as f:
        m = json.load(f)
    for line in m.get("uart", []):
        if "autoboot" in line["text"]:
            return line["start_ns"] * 1e-9
    raise RuntimeError("no autoboot countdown in the manifest's uart lines: %s" % manifest_path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--accel-vp", required=True)
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    for f in (OPENSBI, UBOOT_S):
        if not os.path.exists(f):
            print("bench-boot: %s is missing (Debian packages opensbi, u-boot-qemu)" % f)
            return 1
    work = tempfile.mkdtemp(prefix="bench-boot-")
    def avp_cmd(harts, sets=()):
        return [args.accel_vp, "--no-progress", "-o", work] + [a for s in sets for a in ("--set", s)] + [
            "boot", "--harts", str(harts), "--firmware", OPENSBI, "--kernel", UBOOT_S]

    def qemu_cmd(harts):
        return [args.qemu, "-machine", "virt", "-smp", str(harts), "-m", "1G", "-nographic", "-monitor", "none",
                "-no-reboot", "-bios", OPENSBI, "-kernel", UBOOT_S]

    avp_wall = min(to_prompt(avp_cmd(1), args.timeout)[0] for _ in range(args.repeat))
    sim = ready_sim_time(os.path.join(work, "manifest.json"))
    qemu_wall = min(to_prompt(qemu_cmd(1), args.timeout)[0] for _ in range(args.repeat))
    sleeps = {}
    # (name, harts, accel-vp settings): the serial schedule, and the parallel one on two host threads.
    for name, harts, sets in (("1h", 1, ()), ("4h", 4, ()), ("4h_parallel", 4, ("harts.host_threads=2",))):
        avp = min(to_prompt(avp_cmd(harts, sets), args.timeout, "sleep 2")[1] for _ in range(args.repeat))
        qemu = min(to_prompt(qemu_cmd(harts), args.timeout, "sleep 2")[1] for _ in range(args.repeat))
        sleeps[name] = (harts, sets, avp, qemu)
    shutil.rmtree(work, ignore_errors=True)
    print("boot to the U-Boot prompt (OpenSBI fw_jump + U-Boot S-mode, 1 hart), best of %d:" % args.repeat)
    print("  accel-vp: %.3f s wall, %.6f s simulated to the countdown" % (avp_wall, sim))
    print("  qemu-system-riscv64: %.3f s wall" % qemu_wall)
    print("  accel-vp / QEMU wall time: %.1f" % (avp_wall / max(qemu_wall, 1e-9)))
    for name, (harts, sets, avp, qemu) in sleeps.items():
        print("U-Boot `sleep 2` at the prompt, %d hart%s%s: accel-vp %.2f s wall, qemu-system-riscv64 %.2f s" %
              (harts, "s" if harts > 1 else "", " (%s)" % ", ".join(sets) if sets else "", avp, qemu))
    path = os.environ.get("AVP_BENCH_RESULTS")
    if path:
        figures = [{"name": "boot.uboot_prompt_wall", "value": avp_wall, "unit": "s", "higher_is_better": False,
                    "reference": {"name": "qemu-system-riscv64", "value": qemu_wall, "unit": "s"}},
                   {"name": "boot.uboot_ready_simulated", "value": sim, "unit": "s", "higher_is_better": False}]
        for name, (harts, sets, avp, qemu) in sleeps.items():
            figures.append({"name": "boot.uboot_sleep2_wall.%s" % name, "value": avp, "unit": "s",
                            "higher_is_better": False,
                            "reference": {"name": "qemu-system-riscv64", "value": qemu, "unit": "s"}})
        with open(path, "w") as f:
            json.dump({"figures": figures}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
