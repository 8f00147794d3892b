#!/usr/bin/env python3
"""Honest endings: every command stopped by SIGINT or SIGTERM exits 128 +
signal with a manifest that says "interrupted" and names the signal, and
keeps what ran so far (a timeline with the running program's slice, the
running harts' statistics). Runs each command with work that does not end by
itself: run --elf (a spinning program), run WORKLOAD, cmdbuf (a kernel
looping forever), boot (firmware spinning in a one-instruction loop, the
case that left no manifest), serve, exec, sweep (a resume hint, partial
results).

usage: endings_test.py ACCEL_VP SPIN_ELF LOOP_ELF OUT_DIR
"""
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import time

vp, spin_elf, loop_elf, out = (os.path.abspath(a) for a in sys.argv[1:5])
failures = []


def check(what, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
        if detail:
            print(detail[-3000:])


def catches(pid, sig):
    """True when process `pid` is accel-vp and has a handler for `sig` (its run loop runs)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (sig - 1) & 1)
    except OSError:
        pass
    return False


def wait_catching(pid, sig, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if catches(pid, sig):
            return True
        time.sleep(0.01)
    return False


def point_running(pid, sig):
    """True when sweep point `pid` has replaced the sweep's forked copy (which
    inherits its handlers) with its own run and that run catches `sig`. The
    command line must be the point's: in the middle of the exec it is empty
    while the sweep's handlers are still listed."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().split(b"\0")
    except OSError:
        return False
    return b"run" in args and b"sweep" not in args and catches(pid, sig)


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def start(name, args, stdin=subprocess.DEVNULL):
    d = os.path.join(out, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    log = open(os.path.join(d, "log.txt"), "w")
    p = subprocess.Popen([vp, "--no-progress", "-o", d] + args, stdin=stdin, stdout=log, stderr=subprocess.STDOUT,
                         start_new_session=True, cwd=d)
    return p, d


def stop(p, sig, settle=0.3):
    """Sends `sig` once the run loop catches it (and a little simulated work was done); the exit status."""
    if not wait_catching(p.pid, sig):
        p.kill()
        return None
    time.sleep(settle)
    os.kill(p.pid, sig)
    try:
        return p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        return "hung"


def text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def manifest(d):
    try:
        with open(os.path.join(d, "manifest.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def check_interrupted(name, d, code, sig):
    want = 128 + sig
    m = manifest(d)
    log = text(os.path.join(d, "log.txt"))
    check(f"{name}: exit {want} on {signal.Signals(sig).name}", code == want, f"exit {code}\n{log}")
    check(f"{name}: manifest says interrupted by {signal.Signals(sig).name}",
          m.get("ending") == "interrupted" and m.get("interrupted_by") == signal.Signals(sig).name
          and m.get("finished") is False and m.get("exit_code") == want, json.dumps({k: m.get(k) for k in
                                                                                     ("ending", "interrupted_by", "finished", "exit_code")}) + "\n" + log)
    return m


os.makedirs(out, exist_ok=True)

# run --elf: the running program's slice is in the timeline, its instructions in the statistics.
p, d = start("elf", ["--timeline", "timeline.json", "run", "--elf", spin_elf])
m = check_interrupted("run --elf", d, stop(p, signal.SIGINT), signal.SIGINT)
try:
    tl = json.load(open(os.path.join(d, "timeline.json")))
    slices = [e for e in tl["traceEvents"] if e.get("ph") == "X" and e.get("name") == "program"]
except (OSError, ValueError, KeyError):
    slices = []
check("run --elf: the timeline keeps the running program's slice, cut at the stop",
      len(slices) == 1 and slices[0].get("args", {}).get("exit") == "running", str(slices))
check("run --elf: the running hart's instructions are in the statistics",
      m.get("statistics", {}).get("harts.hart0.instructions", {}).get("value", 0) > 0,
      str(m.get("statistics", {}).get("harts.hart0.instructions")))

# run WORKLOAD
p, d = start("workload", ["run", "matmul", "--args", "256"])
check_interrupted("run matmul", d, stop(p, signal.SIGTERM, settle=0.05), signal.SIGTERM)

# cmdbuf: RUN_INSTANCES of a kernel that loops forever.
with open(loop_elf, "rb") as f:
    entry = struct.unpack_from("<Q", f.read(64), 24)[0]


def header(op, n, inline):
    return 0xC0000000 | op << 8 | (2 * n) << 16 | inline << 32


buf = struct.pack("<5Q", header(2, 1, 1), entry, header(8, 1, 1), 1, header(1, 0, 0))
os.makedirs(os.path.join(out, "cmdbuf_input"), exist_ok=True)
cb = os.path.join(out, "cmdbuf_input", "loop.bin")
with open(cb, "wb") as f:
    f.write(buf)
p, d = start("cmdbuf", ["--set", "harts.instruction_limit=0", "--set", "cmp.kernel_watchdog=0", "cmdbuf", cb, "--load", loop_elf])
check_interrupted("cmdbuf", d, stop(p, signal.SIGINT), signal.SIGINT)

# boot: every hart spins in `j .` (a raw firmware image of one instruction).
fw = os.path.join(out, "cmdbuf_input", "spin.bin")
with open(fw, "wb") as f:
    f.write(struct.pack("<I", 0x0000006F))
for sig in (signal.SIGTERM, signal.SIGINT):
    p, d = start("boot_" + signal.Signals(sig).name, ["boot", "--harts", "2", "--firmware", fw])
    check_interrupted("boot (harts spinning)", d, stop(p, sig), sig)

# serve: waits for clients until stopped.
p, d = start("serve", ["serve", "--socket", "s.sock"])
check_interrupted("serve", d, stop(p, signal.SIGINT), signal.SIGINT)

# exec: the program is stopped with the platform.
p, d = start("exec", ["exec", "--no-preload", "--", "sleep", "60"])
code = stop(p, signal.SIGTERM)
check_interrupted("exec", d, code, signal.SIGTERM)

# sweep: the signal reaches the running point, which records an interrupted
# run; the sweep says how to resume and writes partial results.
d = os.path.join(out, "sweep")
shutil.rmtree(d, ignore_errors=True)
p = subprocess.Popen([vp, "--no-progress", "-o", d, "sweep", "--workload", "matmul", "--args", "256", "--param",
                      "platform.seed=1,2", "--jobs", "1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                     start_new_session=True, text=True)
ready = wait_catching(p.pid, signal.SIGINT)
deadline = time.monotonic() + 60
while ready and time.monotonic() < deadline and not any(point_running(c, signal.SIGINT) for c in children(p.pid)):
    time.sleep(0.01)
time.sleep(0.05)
os.kill(p.pid, signal.SIGINT)
try:
    sweep_out = p.communicate(timeout=120)[0]
except subprocess.TimeoutExpired:
    p.kill()
    sweep_out = p.communicate()[0]
check("sweep: exit 130 on SIGINT", p.returncode == 130, sweep_out)
check("sweep: says how to resume", "run the same command again to resume" in sweep_out, sweep_out)
point = manifest(os.path.join(d, "point_platform.seed-1"))
check("sweep: the running point records an interrupted run",
      point.get("ending") == "interrupted" and point.get("interrupted_by") == "SIGINT", str(point.get("ending")))
try:
    results = json.load(open(os.path.join(d, "results.json")))
except (OSError, ValueError):
    results = {}
check("sweep: partial results name the signal", results.get("interrupted_by") == "SIGINT", str(results)[:500])

sys.exit(1 if failures else 0)
