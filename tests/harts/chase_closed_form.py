#!/usr/bin/env python3
"""Pointer chases read with mcycle against their closed form.

Runs a device program that prints lines
  chase <bytes> bytes stride <s>: loads <n> cycles <c> instret <i> ...
(tests/harts/hpm_counters.c, sw/device/examples/lat_mem_rd.c), takes the run's
effective parameters from its manifest, and checks each working set's cycles
per load against the closed form of the hart and memory models
(docs/timing.md, "Closed-form check"):

  per load = cycles.load + (cycles.alu + cycles.branch) / 16      (the loop: 16 loads, addi, bnez)
           + dcache.hit_latency / clock                           (working set <= dcache.size)
           + (dcache.miss_latency + bus.dram.latency + dram.read_latency
              + line / bus.dram.bandwidth) / clock                (working set >= 2 x dcache.size)

within MARGIN (relative). Working sets between the two are not checked
(set conflicts depend on the addresses). A stride of a multiple of the L1's
set span misses in one set; with DRAM banks, a stride of a multiple of banks
x dram.row_bytes opens another row of one bank at every load: tRP + tRCD,
and at least dram.row_cycle between activations. With DRAM banks (dram.banks > 0) a
working set of at most banks x dram.row_bytes keeps its rows open (row hits
only); a larger one pays dram.precharge_latency + dram.activate_latency once
per row, (tRP + tRCD) x line / row_bytes per load.

With refresh (dram.refresh_interval tREFI, dram.refresh_latency tRFC), a load that
arrives during a refresh waits for its end, so in each tREFI the chase runs only for
tREFI - tRFC; and the refresh closes every bank's row, which adds tRCD for each row
the chase finds closed after it (the rows of a working set that stayed open; in a
chase that opens a row per row, the row in progress) and saves tRP for each row it
would have found another row open in. With L the time of a load without refresh and D
that per refresh:

  per load with refresh = L x tREFI / (tREFI - tRFC - D)

  chase_closed_form.py ACCEL_VP ELF WORKDIR [--set name=value ...] [--trace CATEGORIES] [--hpm]

--trace runs with accel-vp's text trace on (to the null device), which puts
the hart on the observed interpreter loop: mcycle must not depend on the
execution engine.

--hpm: the program is hpm_counters.c; also checks its event counters against
the chase (hits, misses, memory stall cycles) and the counters' differences
from its statistics reset to its dump against the dumped statistics."""
import json
import os
import re
import subprocess
import sys

MARGIN = 0.01  # the measurement window's few extra instructions (counter reads, call) over >= 4096 loads

TIME_UNITS = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0, "ps": 1e-3, "fs": 1e-6}


def ns(value):
    number, unit = str(value).split()
    return float(number) * TIME_UNITS[unit]


def loop_cycles(p):
    return p["harts.cycles.load"] + (p["harts.cycles.alu"] + p["harts.cycles.branch"]) / 16.0


def memory_cycles(p, bytes_, stride=64):
    """The memory stall of one load of a chase over bytes_ with pointers stride apart (None where the
    closed form does not decide) and where it is served."""
    clock = ns(p["harts.clock_period"])
    size, ways, line = p["harts.dcache.size"], p["harts.dcache.ways"], p["harts.dcache.line"]
    if stride == line:
        if size and bytes_ <= size:
            return ns(p["harts.dcache.hit_latency"]) / clock, "L1 hit"
        if size and bytes_ < 2 * size:
            return None, "between L1 and 2 x L1"
    elif size and not ((stride // line) % (size // (ways * line)) == 0 and bytes_ // stride > ways):
        return None, "a stride whose pointers do not all miss in one L1 set"
    bandwidth = p["bus.dram.bandwidth"]
    transfer = (line if size else 8) / bandwidth if bandwidth else 0.0
    fill = ns(p["bus.dram.latency"]) + ns(p["dram.read_latency"]) + transfer
    miss = ns(p["harts.dcache.miss_latency"]) if size else 0.0
    banks, row = p.get("dram.banks", 0), p.get("dram.row_bytes", 0)
    if not banks:
        return (miss + fill) / clock, "memory"
    conflict = ns(p["dram.precharge_latency"]) + ns(p["dram.activate_latency"])
    if stride != line:
        if stride % (banks * row):
            return None, "a stride over several banks"
        # Every load opens another row of one bank: tRP + tRCD, and at least tRC between activations.
        per_load = loop_cycles(p) * clock + miss + fill + conflict
        wait = max(0.0, ns(p["dram.row_cycle"]) - per_load)
        return (miss + fill + conflict + wait) / clock, "memory, a row conflict per load"
    if bytes_ <= banks * row:  # every row of the working set stays open in its bank
        return (miss + fill) / clock, "memory, row hits"
    # Each row's first line finds its bank with another row open (tRP + tRCD); the rest hit.
    return (miss + fill + conflict * line / row) / clock, "memory, a row conflict per row"


def refresh_per_period(p, bytes_, stride, loads):
    """The time (ns) the refresh's closed rows add in one refresh interval to a chase that
    makes `loads` loads in it (D above)."""
    banks, row, line = p.get("dram.banks", 0), p.get("dram.row_bytes", 0), p["harts.dcache.line"]
    if not banks:
        return 0.0
    trcd, trp = ns(p["dram.activate_latency"]), ns(p["dram.precharge_latency"])
    if stride != line:  # one bank, another row at every load: the first after the refresh finds it closed
        return -trp
    rows = loads * line / row  # rows the chase moves through in one interval
    if bytes_ <= banks * row:  # the rows it keeps open are closed: tRCD for each it comes back to
        return min(-(-bytes_ // row), rows + 1) * trcd
    # The row in progress is opened again; the next rows' banks are closed (no tRP) while fewer than banks.
    return trcd - trp * min(rows, banks)


def closed_form(p, bytes_, stride=64):
    stall, where = memory_cycles(p, bytes_, stride)
    if stall is None:
        return None, where
    per_load = loop_cycles(p) + stall
    trefi = ns(p.get("dram.refresh_interval", "0 ns"))
    if not trefi or where == "L1 hit":
        return per_load, where
    clock, trfc = ns(p["harts.clock_period"]), ns(p["dram.refresh_latency"])
    load = per_load * clock
    loads = (trefi - trfc) / load
    for _ in range(3):  # the rows closed per interval depend on the loads in it
        loads = (trefi - trfc - refresh_per_period(p, bytes_, stride, loads)) / load
    return trefi / loads / clock, where + ", refresh"


def main():
    accel_vp, elf, workdir = sys.argv[1:4]
    sets = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--set"]
    trace = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--trace"]
    config = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--config"]
    hpm = "--hpm" in sys.argv
    variant = "_".join(re.sub(r"\W", "", s) for s in config + sets + trace)
    name = "chase_" + os.path.basename(elf).split(".")[0] + (("_" + variant) if variant else "")
    out_dir = os.path.join(workdir, name)
    cmd = [accel_vp, "--no-progress", "-o", out_dir]
    if trace:
        cmd += ["--trace", trace[0], "--trace-file", os.devnull]
    if config:
        cmd += ["--config", config[0]]
    for s in sets:
        cmd += ["--set", s]
    proc = subprocess.run(cmd + ["run", "--elf", elf], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=600)
    if proc.returncode != 0:
        print(proc.stdout)
        print("chase_closed_form: FAILED (exit %d)" % proc.returncode)
        return 1
    manifest = json.load(open(os.path.join(out_dir, "manifest.json")))
    p = manifest["parameters"]
    failures = []
    chases = []
    for m in re.finditer(r"chase (\d+) bytes stride (\d+): loads (\d+) cycles (\d+) instret (\d+)(.*)", proc.stdout):
        bytes_, stride, loads, cycles, instret = (int(m.group(i)) for i in range(1, 6))
        extra = dict((k, int(v)) for k, v in re.findall(r"(\w+) (\d+)", m.group(6)))
        chases.append((bytes_, loads, cycles, instret, extra))
        want, where = closed_form(p, bytes_, stride)
        got = cycles / loads
        line = "%8d bytes, stride %6d: %7.2f cycles/load" % (bytes_, stride, got)
        if want is None:
            print(line + "  (%s: not checked)" % where)
            continue
        print(line + "  closed form %7.2f (%s)" % (want, where))
        if abs(got - want) > MARGIN * want:
            failures.append("%d bytes: %.3f cycles per load, closed form %.3f (%s)" % (bytes_, got, want, where))
    if not chases:
        failures.append("no chase lines in the output")
    if hpm:
        failures += check_hpm(p, chases, proc.stdout, out_dir)
    for f in failures:
        print("FAIL:", f)
    if failures:
        print(proc.stdout)
    print("chase_closed_form: " + ("FAILED" if failures else "OK"))
    return 1 if failures else 0


def check_hpm(p, chases, out, out_dir):
    failures = []
    if "hpm_counters: checks OK" not in out:
        failures.append("the program's own checks failed")
    clock = ns(p["harts.clock_period"])
    for bytes_, loads, cycles, instret, e in chases:
        l1 = bytes_ <= p["harts.dcache.size"]
        # The window holds the loads, 2 loop instructions per 16, and a few counter reads and call instructions.
        if not 0 <= instret - loads * 18 // 16 <= 16:
            failures.append("%d bytes: %d instructions for %d loads" % (bytes_, instret, loads))
        hits, misses = (loads, 0) if l1 else (0, loads)
        if not (hits <= e["dcache_hits"] <= hits + 4 and misses <= e["dcache_misses"] <= misses + 4):
            failures.append("%d bytes: D-cache events %d hits %d misses, expected %d and %d" %
                            (bytes_, e["dcache_hits"], e["dcache_misses"], hits, misses))
        stall = loads * (closed_form(p, bytes_)[0] - loop_cycles(p))  # refresh waits included
        if abs(e["stall_memory"] - stall) > MARGIN * stall:
            failures.append("%d bytes: %d memory stall cycles, closed form %.0f" % (bytes_, e["stall_memory"], stall))
    m = re.search(r"from reset to dump: mcycle (\d+) minstret (\d+) dcache_hits (\d+) dcache_misses (\d+) "
                  r"stall_memory (\d+) icache_misses (\d+)", out)
    report = json.load(open(os.path.join(out_dir, "report.json")))
    if not m or not report.get("dumps"):
        return failures + ["no counters from the reset to the dump, or no dump"]
    mcycle, minstret, dhits, dmisses, stall, imisses = (int(g) for g in m.groups())
    st = report["dumps"][0]["units"]["harts.hart0"]["counters"]
    value = lambda name: st[name]["value"]
    # The program read the counters just before its reset and its dump (the same instructions
    # each time): the differences span what the statistics counted in between.
    expect = [("active_cycles", value("active_cycles"), mcycle),
              ("instructions", value("instructions"), minstret),
              ("dcache_hits", value("dcache_hits"), dhits),
              ("dcache_misses", value("dcache_misses"), dmisses),
              ("stall_memory / clock", int(value("stall_memory") * 1e-3 / clock), stall),
              ("icache_misses", value("icache_misses"), imisses)]
    for name, stat, counter in expect:
        print("reset to dump: %-22s statistic %12d  counter %12d" % (name, stat, counter))
        if stat != counter:
            failures.append("%s: statistic %d, counter %d" % (name, stat, counter))
    return failures


if __name__ == "__main__":
    sys.exit(main())
