#!/usr/bin/env python3
"""Linux boot: OpenSBI's fw_jump.elf, the project's kernel and self-test
initramfs (sw/linux, docs/linux.md) on accel-vp (`accel-vp boot`) and on
qemu-system-riscv64 virt with the same files, in the same run, on 1 and 4
harts, and on 4 in the parallel quantum schedule on two host threads
(`4p`, figures linux.4h_parallel.*; docs/harts.md, "Parallel harts"): the
schedule that is not the default while this boot takes it longer than the
serial one (4h in the same run).

Figures, for each hart count: the wall time from starting the simulator to
the init's first line (its banner, "accel-vp Linux self-test:") and to its
exit after the power-off (accel-vp against QEMU, best of --repeat runs
taken in turns),
and accel-vp's simulated time to the init's first line (from the manifest's
UART lines). When the kernel, the initramfs, OpenSBI or QEMU is missing, the
benchmark says so and records nothing (exit status 0).

With AVP_BENCH_RESULTS set, the figures are written there as JSON
(bench/bench_results.h describes the format)."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf"
BOOTARGS = "console=ttyS0 earlycon"
BANNER = b"accel-vp Linux self-test:"


def boot(cmd, timeout):
    """Runs cmd to its exit; returns (wall s to the banner, wall s to the exit, exit status, output)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = bytearray()
    banner = [None]

    def reader():
        while True:
            b = p.stdout.read1(4096)
            if not b:
                break
            out.extend(b)
            if banner[0] is None and BANNER in out:
                banner[0] = time.monotonic()

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    try:
        code = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        raise RuntimeError("no power-off within %d s: %s\n%s" % (timeout, " ".join(cmd), out.decode(errors="replace")[-3000:]))
    end = time.monotonic()
    t.join(5)
    if banner[0] is None:
        raise RuntimeError("no init banner from %s:\n%s" % (cmd[0], out.decode(errors="replace")[-3000:]))
    return banner[0] - t0, end - t0, code, out.decode(errors="replace")


def reference_boot(cmd, timeout):
    """boot() for the reference, which on a busy 2-core host has hung at
    "smp: Bringing up secondary CPUs" with 4 vCPUs: a boot that does not
    power off within `timeout` is run once more, and said so."""
    try:
        return boot(cmd, timeout)
    except RuntimeError as e:
        print("bench-linux: the reference's boot was run again: %s" % str(e).splitlines()[0], flush=True)
        return boot(cmd, timeout)


def booted_memory_mib(accel_vp):
    """The memory accel-vp's device tree gives Linux: DRAM from 0x8000_0000 to
    its end (docs/firmware.md), read from `accel-vp info`'s address map; QEMU
    is given as much, so both kernels initialise the same memory."""
    out = subprocess.run([accel_vp, "info"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         check=True).stdout
    m = re.search(r"0x([0-9a-f]+) \.\. 0x([0-9a-f]+)\s+dram\b", out)
    if not m:
        raise RuntimeError("no dram range in `accel-vp info`:\n" + out[-2000:])
    end = int(m.group(2), 16) + 1
    return (end - max(int(m.group(1), 16), 0x80000000)) >> 20


def banner_sim_time(manifest_path):
    """The simulated time (s) of the UART line with the init's banner."""
    with open(manifest_path) as f:
        m = json.load(f)
    for line in m.get("uart", []):
        if line["text"].startswith(BANNER.decode()):
            return line["start_ns"] * 1e-9
    raise RuntimeError("no init banner in the manifest's uart lines: %s" % manifest_path)


def best(runs):
    return min(r[0] for r in runs), min(r[1] for r in runs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--accel-vp", required=True)
    ap.add_argument("--qemu", default=shutil.which("qemu-system-riscv64") or "")
    ap.add_argument("--image", required=True)
    ap.add_argument("--initramfs", required=True)
    ap.add_argument("--harts", default="1,4,4p", help="hart counts; NUMp: the parallel schedule on two host threads")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--reference-timeout", type=int, default=60,
                    help="s a reference boot may take before it is run once more")
    args = ap.parse_args()
    missing = [f for f in (OPENSBI, args.image, args.initramfs, args.qemu) if not f or not os.path.exists(f)]
    if missing:
        why = "missing %s (the kernel build, sw/linux; Debian packages opensbi, qemu-system-misc)" % ", ".join(
            m or "qemu-system-riscv64" for m in missing)
        print("bench-linux: skipped, " + why)
        path = os.environ.get("AVP_BENCH_RESULTS")
        if path:
            with open(path, "w") as f:
                json.dump({"figures": [], "skipped": {"prefix": "linux.", "why": why}}, f, indent=2)
        return 0
    work = tempfile.mkdtemp(prefix="bench-linux-")
    figures = []
    memory = "%dM" % booted_memory_mib(args.accel_vp)
    for spec in args.harts.split(","):
        parallel = spec.endswith("p")
        harts = int(spec.rstrip("p"))
        avp_cmd = [args.accel_vp, "--no-progress", "-o", work] + (["--set", "harts.host_threads=2"] if parallel else [])
        avp_cmd += ["boot", "--firmware", OPENSBI, "--kernel", args.image, "--initrd", args.initramfs, "--harts",
                    str(harts), "--bootargs", BOOTARGS]
        qemu_cmd = [args.qemu, "-M", "virt", "-smp", str(harts), "-m", memory, "-nographic", "-monitor", "none",
                    "-bios", OPENSBI, "-kernel", args.image, "-initrd", args.initramfs, "-append", BOOTARGS]
        # In turns, so that both simulators meet the host's changes of speed
        # alike (QEMU's boot alone moved by a third between runs).
        avp_runs, qemu_runs = [], []
        for _ in range(args.repeat):
            avp_runs.append(boot(avp_cmd, args.timeout))
            if avp_runs[-1][2] != 0:
                r = avp_runs[-1]
                raise RuntimeError("accel-vp exited with %d:\n%s" % (r[2], r[3][-3000:]))
            qemu_runs.append(reference_boot(qemu_cmd, args.reference_timeout))
        sim = banner_sim_time(os.path.join(work, "manifest.json"))
        avp_init, avp_off = best(avp_runs)
        qemu_init, qemu_off = best(qemu_runs)
        print("Linux boot, %d hart(s)%s, best of %d (wall s: accel-vp, qemu-system-riscv64, ratio):" %
              (harts, ", parallel quantum schedule, 2 host threads" if parallel else "", args.repeat))
        print("  to the init's first line: %.3f  %.3f  %.2f" % (avp_init, qemu_init, avp_init / max(qemu_init, 1e-9)))
        print("  to power-off:             %.3f  %.3f  %.2f" % (avp_off, qemu_off, avp_off / max(qemu_off, 1e-9)))
        print("  accel-vp simulated time to the init's first line: %.6f s" % sim)
        n = "linux.%dh%s" % (harts, "_parallel" if parallel else "")
        figures += [
            {"name": n + ".init_wall", "value": avp_init, "unit": "s", "higher_is_better": False,
             "reference": {"name": "qemu-system-riscv64", "value": qemu_init, "unit": "s"}},
            {"name": n + ".poweroff_wall", "value": avp_off, "unit": "s", "higher_is_better": False,
             "reference": {"name": "qemu-system-riscv64", "value": qemu_off, "unit": "s"}},
            {"name": n + ".init_simulated", "value": sim, "unit": "s", "higher_is_better": False}]
    shutil.rmtree(work, ignore_errors=True)
    path = os.environ.get("AVP_BENCH_RESULTS")
    if path:
        with open(path, "w") as f:
            json.dump({"figures": figures}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
