#!/usr/bin/env python3
"""The command processor driven from Linux on the host system
(docs/full-system.md): boots the host with `fullsystem.run=/bin/cmp_vecadd`,
whose vecadd maps BAR0 and BAR2 through sysfs, runs a command buffer on the
device and checks the results.

usage: fullsystem_cmp.py ACCEL_VP IMAGE HOST_INITRAMFS OUT_DIR MODE
  MODE vecadd  PASS lines, exit status 0, and the run's timeline shows the
               vecadd end to end, in order: the host's BAR0 writes of the
               buffer's address and CB_SUBMIT, their TLPs, the CMP's
               doorbell and buffer, the RUN_INSTANCES dispatch, the device
               harts' kernel instances, the completion interrupt, INTx on the
               host side, and the host's read of INTR that sees it
       fault   cmp_vecadd --fault: the CMP reports a kernel trap (error 11),
               the program FAILs with it, exit status 1
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../linux"))
from boot_linux import OPENSBI, fail, run  # noqa: E402


def header_value(path, name):
    """A define or enumerator of a layout header, so that the test follows it."""
    text = open(os.path.join(HERE, "../../platform/interfaces/include", path)).read()
    return int(re.search(rf"\b{name}\b\s*=?\s*(0x[0-9a-fA-F]+|\d+)", text).group(1), 0)


def boot(vp, image, initramfs, out, run_arg, timeline=None):
    cmd = [vp, "--no-progress", "-o", out] + (["--timeline", timeline] if timeline else []) + [
        "boot", "--system", "host", "--firmware", OPENSBI, "--kernel", image, "--initrd", initramfs, "--harts", "1",
        "--bootargs", f"console=ttyS0 earlycon fullsystem.run={run_arg}"]
    code, stdout, stderr = run(cmd)
    return code, stdout.split("== accel-vp summary")[0] + stderr


def expect_lines(text, patterns):
    for p in patterns:
        if not re.search(p, text, re.M):
            fail(f"missing /{p}/", text)


def check_timeline(path):
    """The vecadd's events on one time axis, each after the one before."""
    events = json.load(open(path))
    events = events["traceEvents"] if isinstance(events, dict) else events
    tracks = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    slices = [(tracks.get(e["tid"], ""), e["name"], e["ts"], e["ts"] + e.get("dur", 0), e.get("args", {}))
              for e in events if e.get("ph") == "X"]
    for t in ("host_system.harts.hart0", "host_system.pcie", "link.down", "link.up", "cmp", "cmp.queue",
              "cmp.dispatch", "harts.hart0", "dma.ch0"):
        if t not in tracks.values():
            fail(f"no track {t} in the timeline; tracks: {sorted(tracks.values())}")
    if not any(s[0] == "host_system.harts.hart0" for s in slices):
        fail("the host hart has no slice on the timeline")

    def first(track, name, after, what=None):
        for s in sorted(slices, key=lambda s: s[2]):
            if s[0] == track and s[1] == name and s[2] >= after and (what is None or what(s)):
                return s
        fail(f"no '{name}' on {track} at or after {after} us")

    bar0_regs = open(os.path.join(HERE, "../../platform/interfaces/include/pcie/bar0_regs.h")).read()
    done_bit = int(re.search(r"#define AVP_INTR_CMDBUF_DONE \(1u << (\d+)\)", bar0_regs).group(1))
    cb_addr = first("host_system.pcie", "BAR0 write CB_ADDR", 0)
    submit = first("host_system.pcie", "BAR0 write CB_SUBMIT", cb_addr[2])
    tlp = first("link.down", "MWr 4 B", submit[2])
    doorbell = first("cmp.queue", "doorbell", submit[2], lambda s: s[4].get("addr") == cb_addr[4]["value"])
    buffer = first("cmp", "buffer", doorbell[2], lambda s: s[4].get("addr") == cb_addr[4]["value"])
    dispatch = first("cmp.dispatch", "RUN_INSTANCES", buffer[2])
    instances = [s for s in slices if re.fullmatch(r"harts\.hart\d+", s[0]) and s[1].startswith("instance ")
                 and dispatch[2] <= s[2] and s[3] <= dispatch[3] + 1e-6]
    if len(instances) != 1024:
        fail(f"{len(instances)} kernel instances inside the RUN_INSTANCES dispatch, expected 1024")
    completion = first("cmp", "completion interrupt", max(s[3] for s in instances) - 1e-6)
    intx = first("host_system.pcie", "INTx asserted", completion[2])
    seen = first("host_system.pcie", "BAR0 read INTR", submit[2], lambda s: s[4].get("value", 0) & (1 << done_bit))
    if not (tlp[2] <= doorbell[2] <= buffer[2] <= dispatch[2] and buffer[3] >= completion[2] and intx[2] <= seen[3]):
        fail(f"out of order: TLP {tlp[2]}, doorbell {doorbell[2]}, buffer {buffer[2]}..{buffer[3]}, dispatch "
             f"{dispatch[2]}, completion {completion[2]}, INTx {intx[2]}, INTR read {seen[2]}..{seen[3]}")
    return (f"CB_SUBMIT at {submit[2]:.3f} us, doorbell +{(doorbell[2] - submit[2]) * 1e3:.0f} ns, "
            f"1024 instances, completion +{completion[2] - submit[2]:.3f} us, seen by the host +{seen[3] - submit[2]:.3f} us")


def main():
    vp, image, initramfs, out, mode = sys.argv[1:6]
    os.makedirs(out, exist_ok=True)
    if mode == "vecadd":
        timeline = os.path.join(out, "timeline.json")
        code, text = boot(vp, image, initramfs, out, "/bin/cmp_vecadd", timeline)
        expect_lines(text, [r"^cmp_vecadd: 0000:00:00\.0, BAR0 and BAR2 mapped",
                            r"^cmp_vecadd: PASS 1024 elements, 0 wrong, 1 buffer\(s\) done",
                            r"kernel_add: hart \d+ ran instance 0",
                            r"^fullsystem: PASS cmp_vecadd: /bin/cmp_vecadd exited with status 0",
                            r"^fullsystem: 6 passed, 0 failed\r?$"])
        if code != 0:
            fail(f"exit status {code}, expected 0", text)
        print("OK: cmp_vecadd from Linux; timeline:", check_timeline(timeline))
    elif mode == "fault":
        code, text = boot(vp, image, initramfs, out, "/bin/cmp_vecadd,--fault")
        trap = header_value("cmp/cmp_packets.h", "AVP_CMP_ERR_KERNEL_TRAP")
        expect_lines(text, [rf"^cmp_vecadd: FAIL command buffer error: code {trap} at offset \d+, info 0x[0-9a-f]+, "
                            r"pc 0x0, cause 1\r?$",
                            r"^fullsystem: FAIL cmp_vecadd: /bin/cmp_vecadd exited with status 1",
                            r"^fullsystem: 5 passed, 1 failed\r?$"])
        if code != 1:
            fail(f"exit status {code}, expected 1", text)
        print("OK: cmp_vecadd --fault reports the CMP's kernel trap")
    else:
        fail(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
