#!/usr/bin/env python3
"""Drives gdb-multiarch in batch mode against `accel-vp --gdb 0 run --elf`:
break at a function, step, print a variable, finish, continue to the end."""
import re
import subprocess
import sys

accel_vp, elf, gdb = sys.argv[1], sys.argv[2], sys.argv[3]
sim = subprocess.Popen([accel_vp, "--no-progress", "-o", "gdb_test_out", "--gdb", "0", "run", "--elf", elf],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
port = None
for line in sim.stderr:
    m = re.search(r"127\.0\.0\.1:(\d+)", line)
    if m:
        port = m.group(1)
        break
if port is None:
    print("FAIL: accel-vp did not start a GDB server")
    sys.exit(1)
cmds = ["set pagination off", "set confirm off", f"target remote :{port}", "info threads", "break compute",
        "continue", "next", "print n", "info registers pc", "finish", "continue"]
args = [gdb, "-nx", "-batch"] + sum([["-ex", c] for c in cmds], []) + [elf]
out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60).stdout
sim_out, sim_err = sim.communicate(timeout=60)
print(out)
print(sim_out, sim_err)
checks = [r"Thread 8", r"Breakpoint 1, compute \(n=10\)", r"\$1 = 10", r"Value returned is \$2 = 385",
          r"exited normally"]
missing = [c for c in checks if not re.search(c, out)]
if missing or sim.returncode != 0 or "result 385" not in sim_out:
    print("FAIL: missing", missing, "accel-vp exit", sim.returncode)
    sys.exit(1)
print("PASS")
