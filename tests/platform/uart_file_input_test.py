#!/usr/bin/env python3
"""UART input from a regular file is read at every poll of the UART, so a run
with its input from a file is deterministic: uart_echo.elf, its lines in a
file as stdin, run twice, echoes every line and ends at the same simulated
time with its UART lines at the same simulated times both times (input from a
terminal, pipe or socket arrives in host time: docs/firmware.md).

  uart_file_input_test.py ACCEL_VP ELF WORKDIR"""
import json
import os
import subprocess
import sys

INPUT = b"hello\nsecond line\nq"
EXPECT = ["echo: hello", "echo: second line", "uart: 2 lines echoed"]


def run(accel_vp, elf, workdir, tag):
    out = os.path.join(workdir, "uart_file_input_" + tag)
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, "uart_file_input.txt")
    with open(path, "wb") as f:
        f.write(INPUT)
    with open(path, "rb") as stdin:
        p = subprocess.run([accel_vp, "--no-progress", "-o", out, "run", "--elf", elf, "--uart", "stdio"], stdin=stdin,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    text = p.stdout.decode(errors="replace")
    missing = [e for e in EXPECT if e not in text]
    if p.returncode != 0 or missing:
        sys.exit("uart_file_input_test: FAILED: exit %d, missing %s\n%s" % (p.returncode, missing, text[-2000:]))
    with open(os.path.join(out, "manifest.json")) as f:
        m = json.load(f)
    return m["simulated_time_ns"], [(u["start_ns"], u["text"]) for u in m.get("uart", [])]


def main():
    accel_vp, elf, workdir = sys.argv[1:4]
    first, second = run(accel_vp, elf, workdir, "1"), run(accel_vp, elf, workdir, "2")
    if first != second:
        sys.exit("uart_file_input_test: FAILED: the two runs differ:\n%s\n%s" % (first, second))
    print("uart_file_input_test: OK (%.3f ns, %d UART lines, both runs)" % (first[0], len(first[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
