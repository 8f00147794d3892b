#!/usr/bin/env python3
"""Boots the host system (`accel-vp boot --system host`, docs/full-system.md):
OpenSBI fw_jump, the project's kernel and the host initramfs on the host
harts, with the accelerator behind the ECAM PCIe host bridge; checks that
Linux probed the host bridge, that the host's init lists the accelerator with
its ids, class and assigned BARs, read BAR0's information block from user
space, and powered off with exit status 0.

usage: boot_fullsystem.py ACCEL_VP IMAGE HOST_INITRAMFS OUT_DIR MODE HARTS
  MODE enumerate  every check PASS, exit status 0
       negative   fullsystem.fail=1: the device check FAILs, exit status 1
       acceldev   fullsystem.acceldev=1: also the Acceldev driver's checks
                  (docs/linux-driver.md): module loaded and bound, its
                  device node, every test program's exit status, and on
                  the run's timeline a RUN from the host's FEED writes
                  to the INTx of its FENCE
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from boot_linux import OPENSBI, fail, run  # noqa: E402

BOOTARGS = "console=ttyS0 earlycon"
CHECKS = ["mounts", "device", "bar0", "bar2", "bar0-read"]
DRIVER_CHECKS = ["module-load", "module-bind", "devnode", "devfile_ops", "devfile_mmap", "devfile_threads",
                 "devfile_clients", "devfile_close_buffer", "devfile_dup_fork", "devfile_hostile", "acceldev_driver",
                 "module-unload"]


def header_value(name):
    """A define of pcie/bar0_regs.h, so that the test follows the layout header."""
    here = os.path.dirname(os.path.abspath(__file__))
    text = open(os.path.join(here, "../../platform/interfaces/include/pcie/bar0_regs.h")).read()
    return int(re.search(rf"#define {name} (0x[0-9a-fA-F]+)", text).group(1), 16)


def check_driver_timeline(path):
    """A driver RUN end to end on one time axis: the host's BAR0 writes of the
    command's words, the engine's RUN slice, the driver's FENCE after it and
    the INTx that wakes the waiting program."""
    events = json.load(open(path))
    events = events["traceEvents"] if isinstance(events, dict) else events
    tracks = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    slices = sorted((e["ts"], tracks.get(e["tid"], ""), e["name"], e.get("dur", 0)) for e in events if e.get("ph") == "X")
    for i, (ts, track, name, dur) in enumerate(slices):
        if (track, name) != ("acceldev", "RUN"):
            continue
        fed = [s for s in slices[:i] if s[1] == "host_system.pcie" and s[2].startswith("BAR0 write CMD_MANUAL_FEED")]
        fence = next((s for s in slices[i:] if s[1] == "acceldev" and s[2] == "FENCE" and s[0] >= ts + dur), None)
        intx = fence and next((s for s in slices if s[1] == "host_system.pcie" and s[2] == "INTx asserted"
                               and s[0] >= fence[0]), None)
        if fed and intx:
            return f"RUN at {ts:.3f} us ({dur:.3f} us) after the host's FEED writes, FENCE, INTx +{intx[0] - ts:.3f} us"
    fail("no RUN on the acceldev track between the host's FEED writes and a FENCE's INTx", "")


def main():
    vp, image, initramfs, out, mode, harts = sys.argv[1:7]
    bootargs = BOOTARGS + {"negative": " fullsystem.fail=1", "acceldev": " fullsystem.acceldev=1"}.get(mode, "")
    checks = CHECKS + (DRIVER_CHECKS if mode == "acceldev" else [])
    timeline = os.path.join(out, "timeline.json") if mode == "acceldev" else None
    code, stdout, stderr = run([vp, "--no-progress", "-o", out] + (["--timeline", timeline] if timeline else []) +
                               ["boot", "--system", "host", "--firmware", OPENSBI,
                                "--kernel", image, "--initrd", initramfs, "--harts", harts, "--bootargs", bootargs])
    text = stdout.split("== accel-vp summary")[0] + stderr
    vendor, device, cls = (header_value(n) for n in ("AVP_PCI_VENDOR_ID", "AVP_PCI_DEVICE_ID", "AVP_PCI_CLASS"))
    expect = [r"OpenSBI v1\.1", rf"smp: Brought up 1 node, {harts} CPUs?",
              r"pci-host-generic 30000000\.pci: ECAM at \[mem 0x30000000-0x300fffff\] for \[bus 00\]",
              rf"pci 0000:00:00\.0: \[{vendor:04x}:{device:04x}\] type 00 class 0x{cls:06x}",
              r"pci 0000:00:00\.0: BAR 0 \[mem 0x4[0-9a-f]{7}-0x4[0-9a-f]{7}\]: assigned",
              r"pci 0000:00:00\.0: BAR 2 \[mem 0x4[0-9a-f]{8}-0x[0-9a-f]+ 64bit pref\]: assigned",
              rf"0000:00:00\.0 class {cls:06x} vendor {vendor:04x} device {device:04x}"]
    if mode != "negative":  # the BAR0 read needs the device found
        expect.append(r"0000:00:00\.0 BAR0 info block: magic 0x31505641 version 2")
    if mode == "acceldev":
        expect += [r"acceldev 0000:00:00\.0: acceldev0: BAR0 \[mem 0x4[0-9a-f]{7}-0x4[0-9a-f]{7}\], irq \d+, 255 contexts"]
        expect += [rf"^{p}: OK" for p in DRIVER_CHECKS
                   if p.startswith(("devfile_", "acceldev_")) and p not in ("devfile_threads", "devfile_dup_fork")]
        expect.append(r"^devfile_threads: 40 threads OK, thread 17 saw EIO")
        # The emulation's decision the kernel driver does not share: its forked child exits 10 (docs/linux-driver.md).
        expect.append(r"^\S*devfile_dup_fork\.c:\d+: check failed: waitpid\(pid, &status, 0\) == pid && WIFEXITED\(status\) "
                      r"&& WEXITSTATUS\(status\) == 0")
    for e in expect:
        if not re.search(e, text, re.M):
            fail(f"missing /{e}/", text)
    failing = ["device"] if mode == "negative" else []
    for c in checks:
        if c in ("bar0", "bar2", "bar0-read") and failing:
            continue  # not run when the device is not found
        want = "FAIL" if c in failing else "PASS"
        if not re.search(rf"^fullsystem: {want} {re.escape(c)}: ", text, re.M):
            fail(f"no '{want} {c}' line", text)
    passed = len(checks) - 3 * bool(failing) - len(failing)
    if not re.search(rf"^fullsystem: {passed} passed, {len(failing)} failed\r?$", text, re.M):
        fail("no or a wrong summary line", text)
    if code != len(failing):
        fail(f"exit status {code}, expected {len(failing)}", text)
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    print(f"OK: fullsystem {mode} on {harts} host hart(s); simulated {manifest['simulated_time_ns'] / 1e9:.3f} s")
    if timeline:
        print("timeline:", check_driver_timeline(timeline))


if __name__ == "__main__":
    main()
