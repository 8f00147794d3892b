#!/usr/bin/env python3
"""Parallel harts (docs/harts.md, "Parallel harts"): the SDK benchmark
(avp_bench.c: integer loop, CRC32, matrix multiply, copies; independent work
on every hart) on all harts, in the serial schedule and in the parallel
quantum schedule on 1, 2, ... host threads up to the machine's cores.
Prints wall-clock seconds, aggregate MIPS (instructions of all harts per
wall-clock second) and the speed-up over the serial schedule and over the
one-hart rate (the same program on one hart), measured in the same run; the simulated time of each run shows what the schedule
changed (the parallel quantum schedule syncs on quantum boundaries).

The host's own parallel capacity is measured in the same run as the
reference: as many independent one-hart runs at once as the machine has
cores, their instructions per wall-clock second against one run alone. On
a virtual machine whose cores share physical ones (or are throttled when
both are busy) this is well below the core count, and no schedule of harts
can beat it; each parallel figure is also given as a fraction of it.

  parallel_harts.py ACCEL_VP ELF [HARTS] [QUANTUM]"""
import json
import os
import subprocess
import sys
import tempfile
import time


def run(accel_vp, elf, harts, quantum, sets):
    with tempfile.TemporaryDirectory() as out:
        cmd = [accel_vp, "--no-progress", "-o", out, "--set", "platform.quantum=" + quantum]
        cmd += [a for s in sets for a in ("--set", s)] + ["run", "--elf", elf, "--harts", str(harts)]
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        wall = time.monotonic() - t0
        if p.returncode != 0:
            sys.exit("%s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stdout[-2000:]))
        with open(os.path.join(out, "manifest.json")) as f:
            m = json.load(f)
    return wall, m["statistics"]["harts.instructions"]["value"], m["simulated_time_ns"]


def concurrent(accel_vp, elf, copies, quantum):
    """Wall-clock seconds for `copies` one-hart runs started together."""
    with tempfile.TemporaryDirectory() as out:
        cmd = lambda i: [accel_vp, "--no-progress", "-o", os.path.join(out, str(i)), "--set",
                         "platform.quantum=" + quantum, "run", "--elf", elf, "--harts", "1"]
        t0 = time.monotonic()
        procs = [subprocess.Popen(cmd(i), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT) for i in range(copies)]
        if any(p.wait() != 0 for p in procs):
            sys.exit("concurrent one-hart runs failed: %s" % " ".join(cmd(0)))
        return time.monotonic() - t0


def main():
    accel_vp, elf = sys.argv[1:3]
    harts = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    quantum = sys.argv[4] if len(sys.argv) > 4 else "10us"
    cores = os.cpu_count() or 1
    modes = [("serial", [])] + [("parallel, %d host thread%s" % (n, "s" if n > 1 else ""),
                                 ["harts.parallel_quantum=true", "harts.host_threads=%d" % n])
                                for n in range(1, max(2, cores) + 1)]
    wall, insns, _ = min((run(accel_vp, elf, 1, quantum, []) for _ in range(2)), key=lambda r: r[0])
    one = insns / wall / 1e6
    print("parallel harts: 1 hart, quantum %s, serial: %.2f s wall, %.1f MIPS (the one-hart rate)" % (quantum, wall, one))
    copies = max(2, cores)
    together = min(concurrent(accel_vp, elf, copies, quantum) for _ in range(2))
    capacity = copies * insns / together / 1e6 / one
    print("parallel harts: host capacity: %d independent one-hart runs at once: %.2f s wall, %.2fx the one-hart rate"
          % (copies, together, capacity))
    figures = []
    base = None
    for name, sets in modes:
        wall, insns, sim = min((run(accel_vp, elf, harts, quantum, sets) for _ in range(2)), key=lambda r: r[0])
        mips = insns / wall / 1e6
        base = base or mips
        print("parallel harts: %d harts, quantum %s, %-28s %6.2f s wall, %7.1f MIPS aggregate, %.2fx serial, %.2fx one "
              "hart, %.2f of host capacity (%d instructions, %.0f ns simulated)"
              % (harts, quantum, name + ":", wall, mips, mips / base, mips / one, mips / one / capacity, insns, sim))
        if sets:  # against the serial schedule's aggregate, measured in the same run
            figures.append({"name": "harts.parallel.%dt" % int(sets[-1].split("=")[1]), "value": mips, "unit": "MIPS",
                            "higher_is_better": True,
                            "reference": {"name": "harts.serial.%dh" % harts, "value": base, "unit": "MIPS"}})
            figures.append({"name": "harts.parallel.%dt.of_host" % int(sets[-1].split("=")[1]), "value": mips,
                            "unit": "MIPS", "higher_is_better": True,
                            "reference": {"name": "host.capacity.%dx1h" % copies, "value": one * capacity,
                                          "unit": "MIPS"}})
    print("parallel harts: host cores %d" % cores)
    path = os.environ.get("AVP_BENCH_RESULTS")
    if path:
        with open(path, "w") as f:
            json.dump({"figures": figures}, f, indent=2)


if __name__ == "__main__":
    main()
