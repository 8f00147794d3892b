#!/usr/bin/env python3
"""harts.perf_map: a run with it on writes /tmp/perf-<pid>.map, one line per
translated block ("<start> <size> accel-vp hart<N> [U|S|M ]0x<pc>", hex) and
one per routine the blocks share ("<start> <size> accel-vp routine <name>"),
as Linux perf reads it; blocks of the program's code are named, the routines
that enter the next block and time a cache's way hit are, blocks of Sv39
fetches carry their privilege, the simulated results are those of a run
without it, and a run without it (negative control) writes no map.

usage: perf_map.py accel-vp out-dir mixed.elf mixed_sv39.elf
"""
import json
import os
import platform
import re
import struct
import subprocess
import sys

LINE = re.compile(r"^([0-9a-f]+) ([0-9a-f]+) accel-vp hart(\d+) (?:([USM]) )?0x([0-9a-f]+)$")
ROUTINE = re.compile(r"^([0-9a-f]+) ([0-9a-f]+) accel-vp routine ([a-z_]+)(?: \(.*\))?$")


def run(accel_vp, out, elf, perf_map):
    cmd = [accel_vp, "--no-progress", "-o", out]
    if perf_map:
        cmd += ["--set", "harts.perf_map=true"]
    cmd += ["run", "--elf", elf]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _, err = p.communicate(timeout=300)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}: {err}")
    path = f"/tmp/perf-{p.pid}.map"
    lines = None
    if os.path.exists(path):
        with open(path) as f:
            lines = f.read().splitlines()
        os.remove(path)
    with open(os.path.join(out, "report.json")) as f:
        counters = json.load(f)["units"]["harts.hart0"]["counters"]
    return lines, {k: v["value"] for k, v in counters.items()}


def entry_of(elf):
    with open(elf, "rb") as f:
        header = f.read(32)
    return struct.unpack_from("<Q", header, 24)[0]


def check_map(lines, elf, privileged):
    if not lines:
        sys.exit(f"FAIL: {elf}: no /tmp/perf-<pid>.map with harts.perf_map=true")
    starts, pcs, privs, routines = set(), set(), set(), set()
    routine_lines = 0
    for line in lines:
        if r := ROUTINE.match(line):
            if int(r.group(2), 16) == 0:
                sys.exit(f"FAIL: {elf}: routine {r.group(3)} of no bytes")
            routines.add(r.group(3))
            routine_lines += 1
            continue
        m = LINE.match(line)
        if not m:
            sys.exit(f"FAIL: {elf}: malformed perf map line {line!r}")
        start, size = int(m.group(1), 16), int(m.group(2), 16)
        if size == 0 or start % 16:
            sys.exit(f"FAIL: {elf}: block code at {start:#x} of {size} bytes")
        starts.add(start)
        pcs.add(int(m.group(5), 16))
        privs.add(m.group(4))
    # Blocks are translated once they have run a few times (Hart::kInterpretedRuns): the
    # program's loops, in its code after the entry.
    entry = entry_of(elf)
    if not any(entry <= pc < entry + (1 << 16) for pc in pcs):
        sys.exit(f"FAIL: {elf}: no block of the program's code (from {entry:#x}) is in the map")
    # Timed fetches and loads (the default) use these; routines made before the map opened are in it too.
    for wanted in ("enter_next", "fetch_way_or_previous", "data_way_or_previous"):
        if wanted not in routines:
            sys.exit(f"FAIL: {elf}: no routine {wanted} in the map (routines: {sorted(routines)})")
    if privileged and "S" not in privs:
        sys.exit(f"FAIL: {elf}: no block of S-mode fetches named so (privileges {privs})")
    print(f"{os.path.basename(elf)}: {len(lines) - routine_lines} blocks, {len(starts)} code addresses, "
          f"privileges {sorted(p or '-' for p in privs)}, routines {sorted(routines)}")


def main():
    accel_vp, out, mixed, sv39 = sys.argv[1:5]
    if platform.machine() not in ("x86_64", "AMD64"):
        print("perf_map: OK (this host has no block translator: nothing to map)")
        return
    for elf, privileged in ((mixed, False), (sv39, True)):
        on_dir, off_dir = os.path.join(out, "perf_map_on"), os.path.join(out, "perf_map_off")
        lines, on = run(accel_vp, on_dir, elf, True)
        check_map(lines, elf, privileged)
        none, off = run(accel_vp, off_dir, elf, False)
        if none is not None:
            sys.exit(f"FAIL: {elf}: a run without harts.perf_map wrote a perf map")
        if on != off:
            diff = {k: (on.get(k), off.get(k)) for k in set(on) | set(off) if on.get(k) != off.get(k)}
            sys.exit(f"FAIL: {elf}: the perf map changed simulated results: {diff}")
    print("perf_map: OK")


if __name__ == "__main__":
    main()
