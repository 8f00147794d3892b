#!/usr/bin/env python3
"""Parallel harts (docs/harts.md, "Parallel harts"): the SDK benchmark
(avp_bench.c: integer loop, CRC32, matrix multiply, copies; independent work
on every hart) and the store-heavy probe (store_probe.c: a load and a store
of the hart's own page every five instructions) on all harts, in the serial
schedule and in the parallel quantum schedule on 1, 2, ... host threads up
to the machine's cores.
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
With --round-trip, the host's core-to-core round trip (host_round_trip.cpp:
a host line handed between two threads and back) is measured first and
printed: the parallel schedule hands its batch between the host threads at
every quantum, a few such round trips, which weigh against a short
quantum's slices (figure host.core_round_trip, ns, absolute).

Each quantum (default: the platform's 1 us, then 10 us) is measured in
AVP_BENCH_ROUNDS (default 2) interleaved rounds, the best run of each kept.

  parallel_harts.py ACCEL_VP HARTS ELF [NAME=ELF ...] [--quanta QUANTUM[,QUANTUM...]] [--round-trip BIN]

The first program's figures are harts.parallel.*; a NAME=ELF program's are
harts.NAME.parallel.* (and its references harts.NAME.serial.*, ...)."""
import argparse
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


def measure(accel_vp, program, elf, harts, quantum, cores, rounds):
    """One quantum: rounds of every measurement in turn, the best of each kept
    (the host's speed drifts within minutes, and interleaving gives each the
    same chances). Returns the figures for AVP_BENCH_RESULTS."""
    modes = [("serial", [])] + [("parallel, %d host thread%s" % (n, "s" if n > 1 else ""),
                                 ["harts.parallel_quantum=true", "harts.host_threads=%d" % n])
                                for n in range(1, max(2, cores) + 1)]
    copies = max(2, cores)
    ones, togethers, results = [], [], {name: [] for name, _ in modes}
    for _ in range(rounds):
        ones.append(run(accel_vp, elf, 1, quantum, []))
        togethers.append(concurrent(accel_vp, elf, copies, quantum))
        for name, sets in modes:
            results[name].append(run(accel_vp, elf, harts, quantum, sets))
    wall, insns, _ = min(ones, key=lambda r: r[0])
    one = insns / wall / 1e6
    label = "parallel harts" + (" (%s)" % program if program else "")
    print("%s: quantum %s, best of %d interleaved rounds" % (label, quantum, rounds))
    print("%s: 1 hart, quantum %s, serial: %.2f s wall, %.1f MIPS (the one-hart rate)" % (label, quantum, wall, one))
    together = min(togethers)
    capacity = copies * insns / together / 1e6 / one
    print("%s: host capacity: %d independent one-hart runs at once: %.2f s wall, %.2fx the one-hart rate"
          % (label, copies, together, capacity))
    # The 10 us figures keep the names bench/baseline.json has always had.
    suffix = "" if quantum == "10us" else ".q" + quantum
    figures = []
    base = None
    for name, sets in modes:
        wall, insns, sim = min(results[name], key=lambda r: r[0])
        mips = insns / wall / 1e6
        base = base or mips
        print("%s: %d harts, quantum %s, %-28s %6.2f s wall, %7.1f MIPS aggregate, %.2fx serial, %.2fx one "
              "hart, %.2f of host capacity (%d instructions, %.0f ns simulated)"
              % (label, harts, quantum, name + ":", wall, mips, mips / base, mips / one, mips / one / capacity, insns, sim))
        if not sets:
            continue
        threads = int(sets[-1].split("=")[1])
        prefix = "harts." + (program + "." if program else "")
        figure = lambda what, ref, value: {"name": "%sparallel.%dt%s%s" % (prefix, threads, what, suffix),
                                           "value": mips, "unit": "MIPS", "higher_is_better": True,
                                           "reference": {"name": ref, "value": value, "unit": "MIPS"}}
        figures.append(figure("", "%sserial.%dh" % (prefix, harts), base))  # measured in the same run
        figures.append(figure(".of_host", "host.capacity.%dx1h" % copies, one * capacity))
        figures.append(figure(".of_one_hart", "%sserial.1h" % prefix, one))
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("accel_vp")
    ap.add_argument("harts", type=int)
    ap.add_argument("elf", help="the first program (figures harts.parallel.*)")
    ap.add_argument("named", nargs="*", metavar="NAME=ELF", help="more programs (figures harts.NAME.parallel.*)")
    ap.add_argument("--quanta", default="1us,10us")
    ap.add_argument("--round-trip", metavar="BIN", help="host_round_trip: the host's core-to-core round trip")
    args = ap.parse_args()
    programs = [("", args.elf)]
    for p in args.named:
        name, sep, elf = p.partition("=")
        if not sep or not name or not elf:
            ap.error("expected NAME=ELF, got %r" % p)
        programs.append((name, elf))
    rounds = int(os.environ.get("AVP_BENCH_ROUNDS", "2"))
    cores = os.cpu_count() or 1
    figures = []
    if args.round_trip:
        p = subprocess.run([args.round_trip], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            sys.exit("%s failed (%d): %s" % (args.round_trip, p.returncode, p.stdout.strip()))
        ns = float(p.stdout.split()[0])
        print("parallel harts: host core-to-core round trip: %.0f ns (a host line handed between two threads "
              "and back)" % ns)
        figures.append({"name": "host.core_round_trip", "value": ns, "unit": "ns", "higher_is_better": False})
    figures += [f for name, elf in programs for q in args.quanta.split(",")
                for f in measure(args.accel_vp, name, elf, args.harts, q, cores, rounds)]
    print("parallel harts: host cores %d" % cores)
    path = os.environ.get("AVP_BENCH_RESULTS")
    if path:
        with open(path, "w") as f:
            json.dump({"figures": figures}, f, indent=2)


if __name__ == "__main__":
    main()
