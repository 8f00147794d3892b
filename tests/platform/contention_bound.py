#!/usr/bin/env python3
"""DRAM bandwidth contention against its first-principles bound
(docs/studies/dram-contention.md).

stream-direct and stream-dma move 128 KiB through the DRAM port during the
kernel; at 4 bytes/ns the kernel cannot take less than 131072 / 4 ns. On 8
harts (quantum 100 ns) both must be at least that and at most 10 % above it
(the documented tolerance); per instance, a hart must take longer on 8
harts than alone; and without a limit (negative control) the 8-hart kernel
must beat the bound, so the limit is what binds. Channels: with two 4 bytes/ns
channels stream-dma's bound halves and the kernel must be within the same
tolerance of it. Background traffic: a 256 KiB DMA copy beside the
stream-direct kernel must slow it on the limited port and must change
nothing on an unlimited one (negative control). The memory is the ideal one
(configs/ideal-memory.yaml): the port's bandwidth is the only bound, no
banks add latency.

  contention_bound.py ACCEL_VP WORKDIR"""
import json
import os
import subprocess
import sys

BOUND_NS = 131072 / 4.0
TOLERANCE = 1.10


def kernel_ns(accel_vp, workdir, workload, harts, bandwidth, channels=1, background=0):
    out = os.path.join(workdir, "contention_%s_%d_%g_%d_%d" % (workload, harts, bandwidth, channels, background))
    cmd = [accel_vp, "--no-progress", "-o", out, "--config", "ideal-memory", "--set", "platform.cores=1", "--set", "platform.harts_per_core=%d" % harts,
           "--set", "bus.dram.bandwidth=%g" % bandwidth, "--set", "bus.dram.channels=%d" % channels,
           "--set", "platform.quantum=100ns", "run", workload, "--args", "1024", str(background)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit("%s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stdout[-2000:]))
    with open(os.path.join(out, "manifest.json")) as f:
        return json.load(f)["statistics"]["cmp.kernel_latency"]["mean"]


def main():
    accel_vp, workdir = sys.argv[1:3]
    failures = []
    for workload in ("stream-direct", "stream-dma"):
        eight = kernel_ns(accel_vp, workdir, workload, 8, 4)
        one = kernel_ns(accel_vp, workdir, workload, 1, 4)
        free = kernel_ns(accel_vp, workdir, workload, 8, 0)
        print("%s: 8 harts %.0f ns (bound %.0f ns, %.3fx), 1 hart %.0f ns per instance, unlimited port %.0f ns"
              % (workload, eight, BOUND_NS, eight / BOUND_NS, one / 8, free))
        if not BOUND_NS <= eight <= BOUND_NS * TOLERANCE:
            failures.append("%s: 8-hart kernel %.0f ns is not within [1, %.2f] x the bound %.0f ns"
                            % (workload, eight, TOLERANCE, BOUND_NS))
        if not eight > one / 8:
            failures.append("%s: an instance on 8 competing harts (%.0f ns) is not slower than alone (%.0f ns)"
                            % (workload, eight, one / 8))
        if not free < BOUND_NS:
            failures.append("%s: without a limit the kernel (%.0f ns) does not beat the bound" % (workload, free))
    two = kernel_ns(accel_vp, workdir, "stream-dma", 8, 4, channels=2)
    print("stream-dma: 8 harts on two 4 bytes/ns channels %.0f ns (bound %.0f ns, %.3fx)" % (two, BOUND_NS / 2, two / (BOUND_NS / 2)))
    if not BOUND_NS / 2 <= two <= BOUND_NS / 2 * TOLERANCE:
        failures.append("stream-dma: 8-hart kernel on two channels %.0f ns is not within [1, %.2f] x the bound %.0f ns"
                        % (two, TOLERANCE, BOUND_NS / 2))
    quiet, busy = (kernel_ns(accel_vp, workdir, "stream-direct", 8, 4, background=b) for b in (0, 262144))
    free_quiet, free_busy = (kernel_ns(accel_vp, workdir, "stream-direct", 8, 0, background=b) for b in (0, 262144))
    print("stream-direct: 8 harts at 4 bytes/ns %.0f ns, with a 256 KiB DMA copy beside it %.0f ns; unlimited port %.0f / %.0f ns"
          % (quiet, busy, free_quiet, free_busy))
    if not busy > quiet:
        failures.append("stream-direct: the background copy (%.0f ns) does not slow the kernel (%.0f ns)" % (busy, quiet))
    if free_busy != free_quiet:
        failures.append("stream-direct: on an unlimited port the background copy changes the kernel (%.0f -> %.0f ns)"
                        % (free_quiet, free_busy))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
