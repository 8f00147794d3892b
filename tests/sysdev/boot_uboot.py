#!/usr/bin/env python3
"""Boots U-Boot on accel-vp (after OpenSBI's generic fw_jump, or U-Boot's own
M-mode build alone), types commands on the UART through stdin at its prompt
and checks their output, OpenSBI's banner (harts, devices from the generated
device tree) and the simulated time `sleep 1` takes (from the manifest's
UART lines).

usage: boot_uboot.py ACCEL_VP opensbi|mmode HARTS OUT_DIR
"""
import json
import os
import re
import subprocess
import sys
import threading
import time

OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf"
UBOOT_S = "/usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin"
UBOOT_M = "/usr/lib/u-boot/qemu-riscv64/u-boot.bin"


def fail(msg, out=""):
    print(out[-6000:])
    print("FAIL:", msg)
    sys.exit(1)


def run_interactive(cmd, commands, timeout):
    """Starts accel-vp, sends a key at once (stops autoboot), then each
    command when U-Boot's prompt has appeared: U-Boot reads and drops input
    that arrives while a command runs (its Ctrl-C check), as on hardware."""
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = bytearray()
    done = threading.Event()

    def reader():
        while True:
            b = p.stdout.read1(4096)
            if not b:
                break
            out.extend(b)
        done.set()

    threading.Thread(target=reader, daemon=True).start()
    p.stdin.write(b"\n")
    p.stdin.flush()
    deadline = time.monotonic() + timeout
    prompts = 0
    for c in commands:
        while out.count(b"=> ") <= prompts:
            if done.is_set() or time.monotonic() > deadline:
                p.kill()
                return -1, out.decode(errors="replace")
            time.sleep(0.01)
        prompts = out.count(b"=> ")
        p.stdin.write(c.encode() + b"\n")
        p.stdin.flush()
    try:
        code = p.wait(timeout=max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        p.kill()
        code = -1
    done.wait(5)
    return code, out.decode(errors="replace")


def main():
    vp, mode, harts, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    commands = ["version", "bdinfo", "mw.q 0x90000000 0x1122334455667788 2", "md.q 0x90000000 2",
                "sleep 1", "poweroff"]
    if mode == "opensbi":
        boot = ["--firmware", OPENSBI, "--kernel", UBOOT_S]
    else:
        boot = ["--firmware", UBOOT_M]
    # A 10 ns hart clock keeps the one simulated second of `sleep 1` short in wall time.
    cmd = [vp, "--no-progress", "-o", out, "--set", "harts.clock_period=10ns", "boot", "--harts", str(harts)] + boot
    code, text = run_interactive(cmd, commands, 240)
    if code != 0:
        fail(f"exit code {code} (expected 0 from the power-off device)", text)
    expect = [r"U-Boot 2023\.01", r"=> version", r"riscv64-linux-gnu-gcc", r"=> bdinfo",
              r"-> start\s*= 0x0*80000000", r"-> size\s*= 0x0*40000000",
              r"90000000: 1122334455667788 1122334455667788", r"=> sleep 1", r"=> poweroff", r"CPU:\s+rv64imafdc"]
    if mode == "opensbi":
        expect += [r"OpenSBI v1\.1", rf"Platform HART Count\s*: {harts}\b", r"Platform Console Device\s*: uart8250",
                   r"Platform Timer Device\s*: aclint-mtimer @ 1000000000Hz", r"Platform IPI Device\s*: aclint-mswi",
                   r"Platform Shutdown Device\s*: sifive_test", r"Platform Name\s*: accel-vp",
                   r"Boot HART Base ISA\s*: rv64imafdc", r"Domain0 HARTs\s*: " + ",".join(f"{h}\\*" for h in range(harts))]
    for e in expect:
        if not re.search(e, text):
            fail(f"missing /{e}/ in the output", text)
    m = json.load(open(os.path.join(out, "manifest.json")))
    lines = m.get("uart", [])
    i = next((i for i, l in enumerate(lines) if l["text"].endswith("=> sleep 1")), None)
    if i is None or i + 1 >= len(lines):
        fail("the manifest has no UART line for sleep 1 and the prompt after it", text)
    # From the newline that starts `sleep 1` to the next prompt. U-Boot counts whole
    # milliseconds of mtime from a truncated start, so it may end up to 1 ms early.
    dt = (lines[i + 1]["start_ns"] - lines[i]["time_ns"]) / 1e9
    if not 0.999 <= dt < 1.01:
        fail(f"sleep 1 took {dt:.6f} simulated seconds", text)
    print(f"OK: {mode}, {harts} hart(s); sleep 1 took {dt:.6f} simulated s; simulated {m['simulated_time_ns']/1e9:.3f} s,"
          f" wall {m['wall_time_s']:.1f} s")


if __name__ == "__main__":
    main()
