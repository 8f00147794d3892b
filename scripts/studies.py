#!/usr/bin/env python3
"""The architecture studies of docs/studies/: their sweeps and the tables
the pages quote, in one place.

  studies.py update [--accel-vp PATH] [--work DIR]   re-runs every sweep, copies
        each chart (sweep.html) to docs/studies/<sweep>.html and rewrites the
        tables in the study pages from the sweeps' results.csv
  studies.py check  [--accel-vp PATH] [--work DIR]   re-runs every sweep and
        fails, naming page, row and column, where a table differs from what
        this build computes (test `studies.tables_match_build`)

The platform is deterministic, so a table that differs means the build's
results changed: run `update`, then re-read the page's prose."""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUDIES_DIR = os.path.join(ROOT, "docs", "studies")


def fmt_int(v):
    return str(int(round(v)))


def fmt_r3(v):
    return repr(round(v, 3))


def fixed(n):
    return lambda v: "%.*f" % (n, v)


# A column: (header in the page, how to compute it, how to print it).
# Sources: "param:NAME" (the sweep parameter's value as written), "metric:NAME"
# (a results.csv column), "product:A,B" (the product of parameters),
# "speedup:NAME" (the first row's NAME divided by this row's).
SIM = ("simulated_time_ns", "metric:simulated_time_ns", fmt_r3)
KLAT = ("cmp.kernel_latency.mean (ns)", "metric:cmp.kernel_latency.mean", fmt_int)
HARTS_COLS = [("harts_per_core", "param:platform.harts_per_core", None), ("cores", "param:platform.cores", None),
              ("harts", "product:platform.harts_per_core,platform.cores", fmt_int)]

# Each sweep: its name (output and chart), arguments, and the page and table
# (0-based among the page's tables) that quote it. Every study runs on the
# ideal memory (configs/ideal-memory.yaml: a fixed DRAM latency, no banks, an
# unlimited port unless the sweep sets one), so the parameters it sweeps are
# the only memory effects in its figures; the pages say so.
CONFIG = ["--config", "ideal-memory"]
SWEEPS = [
    {"name": "vecadd-harts", "page": "vecadd-harts.md", "table": 0,
     "args": ["--workload", "vecadd", "--param", "platform.harts_per_core=1,2,4,8", "--param", "platform.cores=1,2",
              "--metrics", "simulated_time_ns,cmp.kernel_latency.mean,harts.instructions.value"],
     "columns": HARTS_COLS + [SIM, KLAT, ("harts.instructions", "metric:harts.instructions.value", fmt_int)]},
    {"name": "matmul-harts", "page": "matmul-harts.md", "table": 0,
     "args": ["--workload", "matmul", "--param", "platform.harts_per_core=1,2,4,8", "--param", "platform.cores=1,2",
              "--metrics", "simulated_time_ns,cmp.kernel_latency.mean,harts.instructions.value"],
     "columns": HARTS_COLS + [SIM, KLAT,
                              ("speed-up of the kernel", "speedup:cmp.kernel_latency.mean", fixed(2)),
                              ("harts.instructions", "metric:harts.instructions.value", fmt_int)]},
    {"name": "dma-double-buffering", "page": "dma-double-buffering.md", "table": 0,
     "args": ["--workload", "stream-direct,stream-dma", "--param", "dram.read_latency=25ns,50ns,100ns,200ns,400ns",
              "--metrics", "simulated_time_ns,cmp.kernel_latency.mean,dma.bytes.value,harts.hart0.dcache_misses.value"],
     "columns": [("dram.read_latency", "param:dram.read_latency", None), ("workload", "param:workload", None), SIM, KLAT,
                 ("dma.bytes", "metric:dma.bytes.value", fmt_int),
                 ("hart0 dcache misses", "metric:harts.hart0.dcache_misses.value", fmt_int)]},
    {"name": "dma-double-buffering-contention", "page": "dma-double-buffering.md", "table": 1,
     "args": ["--workload", "stream-direct,stream-dma", "--param", "dram.read_latency=25ns,50ns,100ns,200ns,400ns",
              "--param", "bus.dram.bandwidth=4", "--param", "platform.quantum=100ns",
              "--metrics", "simulated_time_ns,cmp.kernel_latency.mean,bus.dram.busy.fraction,bus.dram.queue_delay.mean"],
     "columns": [("dram.read_latency", "param:dram.read_latency", None), ("workload", "param:workload", None), SIM, KLAT,
                 ("bus.dram.busy.fraction", "metric:bus.dram.busy.fraction", fixed(3)),
                 ("bus.dram.queue_delay.mean (ns)", "metric:bus.dram.queue_delay.mean", fixed(1))]},
    {"name": "dram-contention", "page": "dram-contention.md", "table": 0,
     "args": ["--workload", "stream-direct,stream-dma", "--param", "platform.harts_per_core=1,2,4,8",
              "--param", "platform.cores=1", "--param", "bus.dram.bandwidth=0,4,8", "--param", "platform.quantum=100ns",
              "--metrics", "simulated_time_ns,cmp.kernel_latency.mean,bus.dram.busy.fraction,bus.dram.queue_delay.mean"],
     "columns": [("harts", "param:platform.harts_per_core", None), ("bus.dram.bandwidth (B/ns)", "param:bus.dram.bandwidth", None),
                 ("workload", "param:workload", None), KLAT,
                 ("bus.dram.busy.fraction", "metric:bus.dram.busy.fraction", fixed(3)),
                 ("bus.dram.queue_delay.mean (ns)", "metric:bus.dram.queue_delay.mean", fixed(1))]},
    {"name": "dram-contention-channels", "page": "dram-contention.md", "table": 1,
     "args": ["--workload", "stream-direct,stream-dma", "--param", "platform.harts_per_core=1,2,4,8",
              "--param", "platform.cores=1", "--param", "bus.dram.bandwidth=4", "--param", "bus.dram.channels=2",
              "--param", "platform.quantum=100ns",
              "--metrics", "simulated_time_ns,cmp.kernel_latency.mean,bus.dram.busy.fraction,bus.dram.queue_delay.mean"],
     "columns": [("harts", "param:platform.harts_per_core", None), ("workload", "param:workload", None), KLAT,
                 ("bus.dram.busy.fraction", "metric:bus.dram.busy.fraction", fixed(3)),
                 ("bus.dram.queue_delay.mean (ns)", "metric:bus.dram.queue_delay.mean", fixed(1))]},
    {"name": "dram-contention-background", "page": "dram-contention.md", "table": 2,
     "args": ["--workload", "stream-direct", "--args", "1024", "262144", "--param", "platform.harts_per_core=1,2,4,8",
              "--param", "platform.cores=1", "--param", "bus.dram.bandwidth=4", "--param", "dma.burst_bytes=4096,256",
              "--param", "platform.quantum=100ns",
              "--metrics", "simulated_time_ns,cmp.kernel_latency.mean,bus.dram.busy.fraction,bus.dram.queue_delay.mean"],
     "columns": [("harts", "param:platform.harts_per_core", None), ("dma.burst_bytes", "param:dma.burst_bytes", None), KLAT,
                 ("bus.dram.busy.fraction", "metric:bus.dram.busy.fraction", fixed(3)),
                 ("bus.dram.queue_delay.mean (ns)", "metric:bus.dram.queue_delay.mean", fixed(1))]},
    {"name": "dram-contention-banks", "page": "dram-contention.md", "table": 3,
     "args": ["--workload", "stream-direct,stream-dma", "--param", "platform.harts_per_core=1,8",
              "--param", "platform.cores=1", "--param", "bus.dram.bandwidth=8", "--param", "dram.banks=0,8",
              "--param", "dram.row_bytes=2048", "--param", "dram.activate_latency=15ns",
              "--param", "dram.precharge_latency=15ns", "--param", "platform.quantum=100ns",
              "--metrics", "simulated_time_ns,cmp.kernel_latency.mean,bus.dram.queue_delay.mean,dram.row_hits.value,"
                           "dram.row_activations.value,dram.row_conflicts.value"],
     "columns": [("harts", "param:platform.harts_per_core", None), ("dram.banks", "param:dram.banks", None),
                 ("workload", "param:workload", None), KLAT,
                 ("bus.dram.queue_delay.mean (ns)", "metric:bus.dram.queue_delay.mean", fixed(1)),
                 ("dram.row_hits", "metric:dram.row_hits.value", fmt_int),
                 ("dram.row_activations", "metric:dram.row_activations.value", fmt_int),
                 ("dram.row_conflicts", "metric:dram.row_conflicts.value", fmt_int)]},
    {"name": "dram-contention-row-cycle", "page": "dram-contention.md", "table": 4,
     "args": ["--workload", "stream-direct,stream-dma", "--param", "platform.harts_per_core=1,8",
              "--param", "platform.cores=1", "--param", "bus.dram.bandwidth=8", "--param", "dram.banks=8",
              "--param", "dram.row_bytes=2048", "--param", "dram.activate_latency=15ns",
              "--param", "dram.precharge_latency=15ns",
              "--param", "dram.row_cycle=0ns,45ns", "--param", "platform.quantum=100ns",
              "--metrics", "simulated_time_ns,cmp.kernel_latency.mean,bus.dram.queue_delay.mean,"
                           "dram.row_conflicts.value,dram.bank_wait.mean,dram.bank_wait.count"],
     "columns": [("harts", "param:platform.harts_per_core", None), ("dram.row_cycle", "param:dram.row_cycle", None),
                 ("workload", "param:workload", None), KLAT,
                 ("bus.dram.queue_delay.mean (ns)", "metric:bus.dram.queue_delay.mean", fixed(1)),
                 ("dram.row_conflicts", "metric:dram.row_conflicts.value", fmt_int),
                 ("dram.bank_wait.mean (ns)", "metric:dram.bank_wait.mean", fixed(2)),
                 ("dram.bank_wait.count", "metric:dram.bank_wait.count", fmt_int)]},
    {"name": "vecadd-link", "page": "link-generation.md", "table": 0,
     "args": ["--workload", "vecadd", "--param", "link.generation=1,2,3,4,5",
              "--metrics", "simulated_time_ns,link.read_latency.mean,link.down.busy.fraction"],
     "columns": [("link.generation", "param:link.generation", None), SIM,
                 ("link.read_latency.mean", "metric:link.read_latency.mean", fixed(6)),
                 ("link.down.busy.fraction", "metric:link.down.busy.fraction", fixed(8))]},
    {"name": "acceldev-link", "page": "link-generation.md", "table": 1,
     "args": ["--workload", "acceldev", "--param", "link.generation=1,2,3,4,5", "--param", "link.lanes=4,16",
              "--metrics", "simulated_time_ns,link.up.busy.fraction"],
     "columns": [("link.generation", "param:link.generation", None), ("link.lanes", "param:link.lanes", None), SIM,
                 ("link.up.busy.fraction", "metric:link.up.busy.fraction", fixed(8))]},
]


def run_sweep(avp, work, sweep):
    out = os.path.join(work, sweep["name"])
    shutil.rmtree(out, ignore_errors=True)
    cmd = [avp, "--no-progress", "-o", out] + CONFIG + ["sweep"] + sweep["args"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        sys.exit("studies: %s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stdout.decode(errors="replace")))
    with open(os.path.join(out, "results.csv")) as f:
        return out, list(csv.DictReader(f))


def expected_rows(sweep, results):
    """The table the page should hold: one list of cells per results row."""
    rows = []
    for r in results:
        cells = []
        for _, source, fmt in sweep["columns"]:
            kind, name = source.split(":", 1)
            if kind == "param":
                cells.append(r[name])
            elif kind == "metric":
                cells.append(fmt(float(r[name])))
            elif kind == "product":
                v = 1.0
                for n in name.split(","):
                    v *= float(r[n])
                cells.append(fmt(v))
            elif kind == "speedup":
                cells.append(fmt(float(results[0][name]) / float(r[name])))
        rows.append(cells)
    return rows


def find_table(lines, index):
    """(first line, end line) of the index-th markdown table (header, rule, rows)."""
    found, i = -1, 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            found += 1
            end = i + 2
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            if found == index:
                return i, end
            i = end
        else:
            i += 1
    raise SystemExit("studies: no table %d in the page" % index)


def split_row(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["update", "check"])
    ap.add_argument("--accel-vp", default=os.path.join(ROOT, "build", "accel-vp"))
    ap.add_argument("--work", help="directory for the sweeps' output (default: a temporary one)")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="avp-studies-")
    os.makedirs(work, exist_ok=True)
    mismatches = []
    for sweep in SWEEPS:
        out, results = run_sweep(args.accel_vp, work, sweep)
        page = os.path.join(STUDIES_DIR, sweep["page"])
        with open(page) as f:
            lines = f.read().split("\n")
        start, end = find_table(lines, sweep["table"])
        headers = [c[0] for c in sweep["columns"]]
        if split_row(lines[start]) != headers:
            sys.exit("studies: %s table %d has columns %s, expected %s" % (sweep["page"], sweep["table"],
                                                                           split_row(lines[start]), headers))
        rows = expected_rows(sweep, results)
        if args.mode == "update":
            lines[start + 2:end] = ["| " + " | ".join(r) + " |" for r in rows]
            with open(page, "w") as f:
                f.write("\n".join(lines))
            # The copy stands alone in docs/: the points' own reports stay behind, so no links to them.
            with open(os.path.join(out, "sweep.html")) as f:
                chart = re.sub(r'"report":\s*"[^"]*"', '"report":null', f.read())
            with open(os.path.join(STUDIES_DIR, sweep["name"] + ".html"), "w") as f:
                f.write(chart)
            print("== %s: %d rows written to %s" % (sweep["name"], len(rows), sweep["page"]))
            continue
        have = [split_row(l) for l in lines[start + 2:end]]
        if len(have) != len(rows):
            mismatches.append("%s table %d: %d rows, the build gives %d" % (sweep["page"], sweep["table"], len(have),
                                                                           len(rows)))
        for want, got in zip(rows, have):
            for h, w, g in zip(headers, want, got):
                if w != g:
                    mismatches.append("%s table %d, row %s, column %s: page %s, build %s" % (
                        sweep["page"], sweep["table"], " ".join(got[:2]), h, g, w))
        print("== %s: %d rows checked" % (sweep["name"], len(rows)))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    if mismatches:
        print("studies: the pages differ from this build (scripts/studies.py update regenerates them):")
        for m in mismatches:
            print("  " + m)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
