#!/usr/bin/env python3
"""Debugs the host kernel and the device kernel in one run (docs/full-system.md):
`--gdb 0 boot --system host --gdb-device 0` with the host init running
/bin/cmp_vecadd. One gdb-multiarch (vmlinux) holds the host harts at the
firmware's entry and continues; a second (the device kernel's ELF) attaches
to the accelerator's harts while the host boots, breaks at the kernel's
entry when the command processor dispatches it, reads its arguments and
continues. Both debuggers see the run end with the init's status 0.

usage: gdb_two_systems.py ACCEL_VP VMLINUX IMAGE HOST_INITRAMFS DEVICE_KERNEL_ELF GDB OUT_DIR
"""
import re
import subprocess
import sys

OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf"


def gdb_batch(gdb, elf, port, cmds):
    cmds = ["set pagination off", "set confirm off", "set remotetimeout 120", f"target remote :{port}"] + cmds
    return subprocess.Popen([gdb, "-nx", "-batch"] + sum([["-ex", c] for c in cmds], []) + [elf],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def main():
    accel_vp, vmlinux, image, initramfs, kernel_elf, gdb, out = sys.argv[1:8]
    sim = subprocess.Popen([accel_vp, "--no-progress", "-o", out, "--gdb", "0", "boot", "--system", "host",
                            "--gdb-device", "0", "--firmware", OPENSBI, "--kernel", image, "--initrd", initramfs,
                            "--bootargs", "console=ttyS0 earlycon fullsystem.run=/bin/cmp_vecadd,64"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    host_port = device_port = None
    for line in sim.stderr:
        m = re.search(r"gdb may attach on 127\.0\.0\.1:(\d+)", line)
        device_port = m.group(1) if m else device_port
        m = re.search(r"waiting for gdb on 127\.0\.0\.1:(\d+)", line)
        host_port = m.group(1) if m else host_port
        if host_port and device_port:
            break
    if not (host_port and device_port):
        sim.kill()
        sys.exit("FAIL: accel-vp did not start both GDB servers")
    # The device's debugger first: the server takes it between chunks of the run, once the host's continues.
    device = gdb_batch(gdb, kernel_elf, device_port, [
        "break kernel_main", "continue", "p instance", "p/x $pc", "delete", "continue"])
    host = gdb_batch(gdb, vmlinux, host_port, ["info threads", "continue"])
    host_out = host.communicate(timeout=240)[0]
    device_out = device.communicate(timeout=240)[0]
    sim_out, sim_err = sim.communicate(timeout=240)
    print("== host gdb\n" + host_out + "\n== device gdb\n" + device_out + "\n== accel-vp\n" + sim_out + sim_err)
    expect = [(host_out, r"\* 1\s+Thread 1 \(hart 0"), (host_out, r"exited normally"),
              (device_out, r"Breakpoint 1, kernel_main \(instance=\d+"), (device_out, r"\$1 = \d+\n"),
              (device_out, r"\$2 = 0x[0-9a-f]+\n"), (device_out, r"exited normally"),
              (sim_out, r"cmp_vecadd: PASS 64 elements"), (sim_out, r"fullsystem: \d+ passed, 0 failed")]
    missing = [p for text, p in expect if not re.search(p, text)]
    if missing or sim.returncode != 0:
        sys.exit(f"FAIL: missing {missing}, accel-vp exit {sim.returncode}")
    print("OK: the host kernel and the device kernel debugged in one run")


if __name__ == "__main__":
    main()
