#!/usr/bin/env python3
"""The parallel quantum schedule gives the same simulated results on one host
thread and on several (docs/harts.md, "Parallel harts"): for each workload,
`harts.parallel_quantum=true` (one thread) and `harts.host_threads=2` must
agree on the simulated time and on every statistic, and so must the
DMI-off run of the same schedule (DMI only moves data faster), also with
DRAM bandwidth and banks contended, with and without the D-cache's stream
buffers. Harts that read one another's plain stores within a quantum
(SHARED_ELF, four harts) must also print the same checksums. Negative
control: the serial schedule (the default) is run too, and at least one
workload must differ from it, so the comparison can see a difference.

  host_threads_equivalence.py ACCEL_VP WORKDIR ELF SHARED_ELF"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from how_it_ran import statistic_differences  # noqa: E402

WORKLOADS = [("vecadd", []), ("matmul", []), ("stream-direct", []), ("stream-dma", []), ("acceldev-kernel", []),
             ("aql-chain", [])]
# Contention: eight harts streaming through a bandwidth-limited DRAM with open
# rows (busy for a row cycle), alone and beside DMA traffic. The order of their fills within a batch
# depends on the host threads, so their queueing and rows are replayed after
# it in hart order (docs/harts.md, "Parallel harts").
CONTENDED = ["bus.dram.bandwidth=4", "dram.banks=8", "dram.row_cycle=45ns", "platform.cores=1", "platform.harts_per_core=8"]
# The same with stream buffers, whose prefetches are such fills too.
CONTENTION = [("stream-direct_contended", "stream-direct", CONTENDED), ("stream-dma_contended", "stream-dma", CONTENDED),
              ("stream-direct_prefetch", "stream-direct", CONTENDED + ["harts.dcache.prefetch_streams=4"])]


def run(accel_vp, workdir, tag, sets, what):
    out = os.path.join(workdir, "equiv_" + tag)
    cmd = [accel_vp, "--no-progress", "-o", out] + [a for s in sets for a in ("--set", s)] + ["run"] + what
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit("%s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stdout[-2000:]))
    with open(os.path.join(out, "manifest.json")) as f:
        m = json.load(f)
    printed = [line for line in p.stdout.splitlines() if line.startswith("shared_pages:")]
    return m["simulated_time_ns"], m["statistics"], printed


def differences(a, b):
    out = [] if a[0] == b[0] else ["simulated_time_ns %s != %s" % (a[0], b[0])]
    out += [] if a[2] == b[2] else ["printed %r != %r" % (a[2], b[2])]
    return out + statistic_differences(a[1], b[1])


def main():
    accel_vp, workdir, elf, shared_elf = sys.argv[1:5]
    cases = [(name, [], [name] + (["--args"] + args if args else [])) for name, args in WORKLOADS]
    cases.append(("bare-metal", [], ["--elf", elf, "--harts", "4"]))
    cases.append(("shared-pages", [], ["--elf", shared_elf, "--harts", "4"]))
    cases += [(tag, sets, [name]) for tag, name, sets in CONTENTION]
    failures, differs_from_serial = [], 0
    for name, sets, what in cases:
        one = run(accel_vp, workdir, name + "_1", sets + ["harts.parallel_quantum=true"], what)
        two = run(accel_vp, workdir, name + "_2", sets + ["harts.host_threads=2"], what)
        serial = run(accel_vp, workdir, name + "_serial", sets, what)
        d = differences(one, two)
        failures += ["%s, 1 against 2 host threads: %s" % (name, x) for x in d[:5]]
        differs_from_serial += bool(differences(one, serial))
        print("%s: %.3f ns on 1 and 2 host threads%s" % (name, one[0], "" if not d else " DIFFER"))
    off = ["dram.dmi=false", "tcdm.dmi=false", "tcim.dmi=false"]
    d = differences(run(accel_vp, workdir, "vecadd_dmi_off", ["harts.host_threads=2"] + off, ["vecadd"]),
                    run(accel_vp, workdir, "vecadd_1", ["harts.parallel_quantum=true"], ["vecadd"]))
    failures += ["vecadd, DMI off against on: " + x for x in d[:5]]
    if differs_from_serial == 0:
        failures.append("no workload differs from the serial schedule: the comparison cannot see differences")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
