#!/usr/bin/env python3
"""STREAM copy/triad and DMA streams against the closed form of the memory system.

Runs sw/device/examples/stream.c on the harts of the configuration, which prints
  stream <kernel> hart <h>: bytes <b> cycles <c>
  stream <kernel> harts <n>: bytes <b> cycles <c>
  dma <what> transfers <k>: bytes <b> cycles <c>
takes the run's effective parameters from its manifest and checks the bandwidths
against the closed form of the hart, cache, interconnect and DRAM models
(docs/timing.md, "Bandwidth: STREAM and DMA"). Bandwidths are bytes/ns (GB/s).

Harts. A hart has one miss outstanding (blocking caches), so alone it is latency-bound. Per
64-byte line of each array (copy c = a: 8 fld, 8 fsd, 2 addi, 1 bne; triad a = b + s c:
16 fld, 8 fmadd.d, 8 fsd, 3 addi, 1 bne):

  time per line = the instructions' cycles x clock
                + hits x dcache.hit_latency                      (the accesses that do not miss)
                + fills x (dcache.miss_latency + bus.dram.latency + dram.read_latency
                           + line / bus.dram.bandwidth
                           + (dram.precharge_latency + dram.activate_latency) x line / dram.row_bytes)
                + 1 x (dcache.miss_latency + line / bus.dram.bandwidth)   (the dirty victim's write-back:
                      its miss penalty, and its port time ahead of the fill it precedes)

with fills = 2 (copy: a, and c by write-allocate) or 3 (triad: b, c, a), each line of the
destination written back once: DRAM traffic (fills + 1) x line per line. With N harts the
closed form is N x that traffic rate, up to the DRAM port's peak, bus.dram.bandwidth x
bus.dram.channels:

  traffic(N) = min(N x (fills + 1) x line / time per line, peak)

and STREAM's bandwidth is traffic x 16 / 24 (copy) or 24 / 32 (triad): STREAM counts the
bytes the program asks for, not the write-allocate fills.

With stream buffers that follow every stream of the kernel (harts.dcache.prefetch_streams >= fills),
a fill costs only dcache.miss_latency (its line was fetched ahead), except the first line of each
4 KiB page (a stream stops at its page), which costs the whole fill and the victim's transfer:
a fraction line / 4096 of the fills.

Refresh (dram.refresh_interval tREFI, dram.refresh_latency tRFC): an access arriving
during a refresh waits for its end. A hart reaches DRAM more often than every tRFC, so it
loses the whole refresh: its rate, and the port's peak, scale by (tREFI - tRFC) / tREFI (with
stream buffers, a hart runs on from its buffers into a refresh and loses only part of it: its
rate lies between the closed forms that lose all of each refresh and none). A
DMA channel reads once per period P: the read that arrives during a refresh waits tRFC - a,
a uniform over P, so each refresh adds tRFC^2 / (2 P) to the transfer (tRFC - P / 2 where
P < tRFC).

DMA. A channel moves a transfer in bursts of dma.burst_bytes B, each a read (B /
bus.dram.bandwidth + dram.read_latency, + tRP + tRCD once per row), a write (the TCDM's
latency) and the channel's own time (B / dma.bandwidth), with dma.outstanding_bursts K
bursts in flight: each stage takes one burst at a time, and a burst holds its buffer from
its read to the end of its own time, so after the first burst one ends every

  period = max(read, write, own, (read + write + own) / K)

k transfers run on k channels at once, up to the DRAM port's peak.

Checks (the margins are explained in docs/timing.md):
- 1 hart: copy and triad within MARGIN_LATENCY of the closed form;
- N harts: at most the closed form (+ MARGIN_LATENCY), at least (1 - MARGIN_QUEUE) of it
  (what the closed form leaves out: harts wait for each other's transfers on the port, and
  their streams open different rows of the same banks);
- where N harts ask for at least OVERSUBSCRIBED x the peak: at least SATURATED of the peak;
- DMA, 1 transfer: within MARGIN_LATENCY of its closed form; dma.channels transfers (DRAM to
  TCDM, DRAM to DRAM): at least DMA_SATURATED of the peak.

  stream_closed_form.py ACCEL_VP ELF WORKDIR [--harts N] [--config C] [--set name=value ...]"""
import json
import os
import re
import subprocess
import sys

MARGIN_LATENCY = 0.02
MARGIN_QUEUE = 0.40
SATURATED = 0.93
OVERSUBSCRIBED = 1.5  # the saturation check applies where the harts ask for at least this many times the peak
DMA_SATURATED = 0.90

TIME_UNITS = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0, "ps": 1e-3, "fs": 1e-6}

# Per 64-byte line: instructions by class, D-cache fills (the others hit), write-backs, STREAM's bytes.
KERNELS = {
    "copy": {"load": 8, "store": 8, "fp": 0, "alu": 2, "branch": 1, "fills": 2, "counted": 16},
    "triad": {"load": 16, "store": 8, "fp": 8, "alu": 3, "branch": 1, "fills": 3, "counted": 24},
}


def ns(value):
    number, unit = str(value).split()
    return float(number) * TIME_UNITS[unit]


def refresh(p):
    """tREFI and tRFC in ns (0, 0: no refresh)."""
    trefi = ns(p.get("dram.refresh_interval", "0 ns"))
    return (trefi, ns(p["dram.refresh_latency"])) if trefi else (0.0, 0.0)


def available(p):
    """The fraction of time DRAM is not refreshing."""
    trefi, trfc = refresh(p)
    return (trefi - trfc) / trefi if trefi else 1.0


def peak(p):
    """The DRAM port's peak in bytes/ns, less the refreshes (None: unlimited)."""
    bw = p["bus.dram.bandwidth"]
    return bw * p["bus.dram.channels"] * available(p) if bw else None


def raw_peak(p):
    """The DRAM port's peak in bytes/ns with no refresh."""
    return p["bus.dram.bandwidth"] * p["bus.dram.channels"]


def row_conflict(p, bytes_):
    """tRP + tRCD once per DRAM row, spread over bytes_ of a sequential stream."""
    if not p.get("dram.banks", 0):
        return 0.0
    return (ns(p["dram.precharge_latency"]) + ns(p["dram.activate_latency"])) * bytes_ / p["dram.row_bytes"]


def prefetching(p, kernel):
    """Whether the D-cache's stream buffers follow every stream of the kernel (its fills)."""
    return p.get("harts.dcache.prefetch_streams", 0) >= KERNELS[kernel]["fills"]


def line_time(p, kernel):
    """ns per line of each array on one hart, and the DRAM bytes it moves."""
    k = KERNELS[kernel]
    clock, line = ns(p["harts.clock_period"]), p["harts.dcache.line"]
    bw = p["bus.dram.bandwidth"]
    transfer = line / bw if bw else 0.0
    cycles = sum(k[c] * p["harts.cycles." + c] for c in ("load", "store", "fp", "alu", "branch"))
    miss = ns(p["harts.dcache.miss_latency"])
    fill = miss + ns(p["bus.dram.latency"]) + ns(p["dram.read_latency"]) + transfer + row_conflict(p, line)
    # With stream buffers a line arrives before the hart needs it: a fill costs the miss penalty, except
    # the first line of each 4 KiB page, where a stream stops and starts again with a miss of its own.
    demand = line / 4096 if prefetching(p, kernel) else 1.0
    hits = k["load"] + k["store"] - k["fills"]
    t = (cycles * clock + hits * ns(p["harts.dcache.hit_latency"]) + k["fills"] * (demand * fill + (1 - demand) * miss)
         + miss + demand * transfer)
    return t, (k["fills"] + 1) * line


def hart_available(p, kernel, hidden=False):
    """The fraction of time a hart is not stopped by refresh: all but each refresh, or (hidden, with
    stream buffers) all of it."""
    return 1.0 if hidden and prefetching(p, kernel) else available(p)


def stream_closed_form(p, kernel, harts, hidden=False):
    """DRAM traffic (bytes/ns) of `harts` harts running `kernel`, and STREAM's bandwidth; `hidden`:
    with the refreshes hidden by stream buffers."""
    t, traffic = line_time(p, kernel)
    rate = harts * traffic / t * hart_available(p, kernel, hidden)
    top = peak(p)
    if top is not None:
        rate = min(rate, top)
    return rate, rate * KERNELS[kernel]["counted"] * 8 / traffic


def dma_closed_form(p, transfers, bytes_):
    """Bytes/ns of `transfers` DRAM-to-TCDM transfers of bytes_ / transfers each, one per channel."""
    burst = min(p["dma.burst_bytes"], bytes_ // transfers)
    bw = p["bus.dram.bandwidth"]
    read = (burst / bw if bw else 0.0) + ns(p["bus.dram.latency"]) + ns(p["dram.read_latency"]) + row_conflict(p, burst)
    write = ns(p["bus.tcdm.latency"]) + ns(p["tcdm.write_latency"])
    own = burst / p["dma.bandwidth"]
    # One burst after another each stage, and a burst's buffer held from its read to its own time's end.
    period = max(read, write, own, (read + write + own) / p.get("dma.outstanding_bursts", 1))
    bursts = bytes_ / transfers / burst
    moving = read + write + own + (bursts - 1) * period
    trefi, trfc = refresh(p)
    if trefi:  # per refresh, the wait of the read that arrives during it
        moving += moving / trefi * (trfc * trfc / (2 * period) if period >= trfc else trfc - period / 2)
    one = bytes_ / transfers / (ns(p["dma.setup_latency"]) + moving)
    rate = transfers * one
    top = peak(p)
    return min(rate, top) if top is not None else rate


def main():
    accel_vp, elf, workdir = sys.argv[1:4]
    sets = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--set"]
    config = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--config"]
    harts = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--harts"] or ["1"]
    variant = "_".join(re.sub(r"\W", "", s) for s in config + sets + ["harts" + harts[0]])
    out_dir = os.path.join(workdir, "stream" + (("_" + variant) if variant else ""))
    cmd = [accel_vp, "--no-progress", "-o", out_dir]
    if config:
        cmd += ["--config", config[0]]
    for s in sets:
        cmd += ["--set", s]
    proc = subprocess.run(cmd + ["run", "--elf", elf, "--harts", harts[0]], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=600)
    if proc.returncode != 0:
        print(proc.stdout)
        print("stream_closed_form: FAILED (exit %d)" % proc.returncode)
        return 1
    p = json.load(open(os.path.join(out_dir, "manifest.json")))["parameters"]
    clock = ns(p["harts.clock_period"])
    top = peak(p)
    failures = []
    print("DRAM peak: %s bytes/ns%s" % ("unlimited" if top is None else "%.2f" % top,
                                        "" if available(p) == 1 else " (less the refreshes)"))

    found = 0
    for m in re.finditer(r"stream (\w+) harts (\d+): bytes (\d+) cycles (\d+)", proc.stdout):
        kernel, harts, bytes_, cycles = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
        found += 1
        counted = bytes_ / (cycles * clock)
        t, traffic_per_line = line_time(p, kernel)
        traffic = counted * traffic_per_line / (KERNELS[kernel]["counted"] * 8)
        want, want_counted = stream_closed_form(p, kernel, harts)
        # Bandwidth-bound, the harts may pass the peak less refresh up to the raw peak: a refresh
        # delays only the accesses that arrive during it (docs/timing.md, "DRAM presets"); and
        # stream buffers carry lines fetched before the timed window into it.
        bound = raw_peak(p) if top is not None and want >= top else 0.0
        demand = harts * traffic_per_line / t * hart_available(p, kernel)
        # With stream buffers a hart runs on from its buffers into a refresh, losing part of it:
        # between the closed form that loses all of it and the one that loses none.
        hidden, _ = stream_closed_form(p, kernel, harts, hidden=True)
        closed = "%6.2f" % want + ("" if hidden == want else " to %.2f" % hidden)
        print("%-5s %d harts: STREAM %6.2f bytes/ns, DRAM traffic %6.2f (%s of the peak); closed form %s "
              "(%s)" % (kernel, harts, counted, traffic, "-" if top is None else "%.1f %%" % (100 * traffic / top),
                        closed, "latency-bound" if top is None or demand < top else "bandwidth-bound"))
        if harts == 1:
            if not (1 - MARGIN_LATENCY) * want <= traffic <= (1 + MARGIN_LATENCY) * hidden:
                failures.append("%s on 1 hart: %.3f bytes/ns, closed form %s" % (kernel, traffic, closed))
        elif not (1 - MARGIN_QUEUE) * want <= traffic <= (1 + MARGIN_LATENCY) * max(hidden, bound):
            failures.append("%s on %d harts: %.3f bytes/ns, closed form %s" % (kernel, harts, traffic, closed))
        if top is not None and demand >= OVERSUBSCRIBED * top and traffic < SATURATED * top:
            failures.append("%s on %d harts: %.3f bytes/ns, under %d %% of the peak %.2f though they ask for %.2f" %
                            (kernel, harts, traffic, 100 * SATURATED, top, demand))
    if found != 2:
        failures.append("%d aggregate stream lines in the output, expected copy and triad" % found)

    dma = re.findall(r"dma ([\w-]+) transfers (\d+): bytes (\d+) cycles (\d+)", proc.stdout)
    for what, transfers, bytes_, cycles in dma:
        transfers, bytes_, cycles = int(transfers), int(bytes_), int(cycles)
        moved = bytes_ / (cycles * clock)
        traffic = moved * (2 if what == "dram-to-dram" else 1)
        line = "dma %-12s %d transfers: %6.2f bytes/ns moved, DRAM traffic %6.2f (%s of the peak)" % (
            what, transfers, moved, traffic, "-" if top is None else "%.1f %%" % (100 * traffic / top))
        if what == "dram-to-tcdm" and transfers == 1:
            want = dma_closed_form(p, 1, bytes_)
            print(line + "; closed form %.2f" % want)
            if abs(traffic - want) > MARGIN_LATENCY * want:
                failures.append("dma %s, 1 transfer: %.3f bytes/ns, closed form %.3f" % (what, traffic, want))
            continue
        print(line)
        if top is not None and transfers >= p["dma.channels"] and traffic < DMA_SATURATED * top:
            failures.append("dma %s, %d transfers: %.3f bytes/ns of DRAM traffic, under %d %% of the peak %.2f" %
                            (what, transfers, traffic, 100 * DMA_SATURATED, top))
    if len(dma) != 3:
        failures.append("%d dma lines in the output, expected 3" % len(dma))

    for f in failures:
        print("FAIL:", f)
    if failures:
        print(proc.stdout)
    print("stream_closed_form: " + ("FAILED" if failures else "OK"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
