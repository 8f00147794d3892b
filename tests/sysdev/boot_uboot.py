#!/usr/bin/env python3
"""Boots U-Boot on accel-vp (after OpenSBI's generic fw_jump, or U-Boot's own
M-mode build alone), types commands on the UART through stdin and checks
their output and the simulated time `sleep 1` takes (from the manifest's
UART lines).

usage: boot_uboot.py ACCEL_VP opensbi|mmode HARTS OUT_DIR
"""
import json
import os
import re
import subprocess
import sys

OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf"
UBOOT_S = "/usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin"
UBOOT_M = "/usr/lib/u-boot/qemu-riscv64/u-boot.bin"


def fail(msg, out=""):
    print(out[-6000:])
    print("FAIL:", msg)
    sys.exit(1)


def main():
    vp, mode, harts, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    # A key stops autoboot; then the commands. md/mw on DRAM above U-Boot's load address.
    commands = ["version", "bdinfo", "mw.q 0x90000000 0x1122334455667788 2", "md.q 0x90000000 2",
                "sleep 1", "poweroff"]
    stdin = "\n" + "".join(c + "\n" for c in commands)
    if mode == "opensbi":
        boot = ["--firmware", OPENSBI, "--kernel", UBOOT_S]
    else:
        boot = ["--firmware", UBOOT_M, "--firmware-addr", "0x80000000"]
    # A 10 ns hart clock keeps the one simulated second of `sleep 1` short in wall time.
    cmd = [vp, "--no-progress", "-o", out, "--set", "harts.clock_period=10ns", "boot", "--harts", str(harts)] + boot
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=240)
    text = p.stdout + p.stderr
    if p.returncode != 0:
        fail(f"exit code {p.returncode} (expected 0 from the power-off device)", text)
    expect = [r"U-Boot 2023\.01", r"=> version", r"riscv64-linux-gnu-gcc", r"=> bdinfo",
              r"boot_params\s*=", r"DRAM bank\s*= 0x0+\s*\n-> start\s*= 0x0*40000000", r"-> size\s*= 0x0*80000000",
              r"90000000: 1122334455667788 1122334455667788", r"=> sleep 1", r"=> poweroff"]
    if mode == "opensbi":
        expect += [r"OpenSBI v1\.1", rf"Platform HART Count\s*: {harts}\b", r"Platform Console Device\s*: uart8250",
                   r"Platform Timer Device\s*: aclint-mtimer @ 1000000000Hz", r"Platform IPI Device\s*: aclint-mswi",
                   r"Platform System Reset Device\s*: sifive_test", r"Boot HART ISA\s*: rv64imafdcsu",
                   r"Boot HART Base ISA\s*: rv64imafdc"]
    for e in expect:
        if not re.search(e, text):
            fail(f"missing /{e}/ in the output", text)
    m = json.load(open(os.path.join(out, "manifest.json")))
    lines = m.get("uart", [])
    t_sleep = next((l["time_ns"] for l in lines if l["text"].endswith("=> sleep 1")), None)
    t_next = next((l["time_ns"] for l in lines if l["text"].endswith("=> poweroff")), None)
    if t_sleep is None or t_next is None:
        fail("the manifest has no UART lines for sleep 1 / poweroff", text)
    dt = (t_next - t_sleep) / 1e9
    if not 1.0 <= dt < 1.01:
        fail(f"sleep 1 took {dt:.6f} simulated seconds", text)
    print(f"OK: {mode}, {harts} hart(s); sleep 1 took {dt:.6f} simulated s; simulated {m['simulated_time_ns']/1e9:.3f} s,"
          f" wall {m['wall_time_s']:.1f} s")


if __name__ == "__main__":
    main()
