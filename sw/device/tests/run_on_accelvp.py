#!/usr/bin/env python3
"""Runs a device program on accel-vp and checks its exit code and output:
run_on_accelvp.py ACCEL_VP ELF HARTS REGEX. Exits 77 (CTest SKIP_RETURN_CODE)
when accel-vp cannot run ELF programs yet."""
import re
import subprocess
import sys

SKIP = 77


def main():
    exe, elf, harts, pattern = sys.argv[1:5]
    helptext = subprocess.run([exe, "run", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=60).stdout.decode(errors="replace")
    if "--elf" not in helptext:
        print("SKIP: %s has no `run --elf` yet" % exe)
        return SKIP
    p = subprocess.run([exe, "run", "--elf", elf, "--harts", harts], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=120)
    out = p.stdout.decode(errors="replace")
    # accel-vp tags each console line with its hart ("[hart3] text").
    out = re.sub(r"(?m)^\[hart\d+\] ", "", out)
    if p.returncode != 0 or not re.search(pattern, out):
        print("FAIL: exit code %d, expected output /%s/\n%s" % (p.returncode, pattern, out[-3000:]))
        return 1
    print(out[-2000:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
