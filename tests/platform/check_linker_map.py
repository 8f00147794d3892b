#!/usr/bin/env python3
"""The device SDK's linker scripts describe the platform's default address
map: every MEMORY region must lie where `accel-vp info` maps that block, so
a moved default cannot leave the SDK linking code to the old place.
Usage: check_linker_map.py ACCEL_VP LD_DIR"""
import re
import subprocess
import sys

accel_vp, ld_dir = sys.argv[1:3]
info = subprocess.run([accel_vp, "info"], check=True, capture_output=True, text=True).stdout
blocks = {m[3]: (int(m[1], 16), int(m[2], 16) + 1)
          for m in re.finditer(r"^\s+0x([0-9a-f]+) \.\. 0x([0-9a-f]+)\s+(\w+)", info, re.M)}

UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def number(text):
    m = re.fullmatch(r"(0x[0-9a-fA-F]+|\d+)([KMG]?)", text.strip())
    return int(m[1], 0) * UNITS[m[2]]


def regions(script):
    """MEMORY regions as name -> (origin, length); `DEFINED(sym) ? sym : default`
    takes the default, which is what an SDK build without overrides uses."""
    text = open(f"{ld_dir}/{script}").read()
    body = re.search(r"MEMORY\s*\{(.*?\n)\}", text, re.S)[1]
    out = {}
    for m in re.finditer(r"(\w+)\s*\([rwx]+\)\s*:\s*ORIGIN\s*=\s*(.*?),\s*LENGTH\s*=\s*(.*?)\n", body, re.S):
        pick = lambda v: number(v.split(":")[-1]) if "?" in v else number(v)
        out[m[1]] = (pick(m[2]), pick(m[3]))
    return out


# region -> (block, must the region be the whole block?)
expect = {
    "accelvp.ld": {"TCIM": ("tcim", True), "TCDM": ("tcdm_local", True), "TCDM_GLOBAL": ("tcdm", False),
                   "DRAM": ("dram", True)},
    "kernel.ld": {"KERNEL": ("windows_low", True)},
}
failures = []
for script, want in expect.items():
    have = regions(script)
    for region, (block, whole) in want.items():
        origin, length = have[region]
        lo, hi = blocks[block]
        ok = origin == lo and (origin + length == hi if whole else origin + length >= hi)
        if not ok:
            failures.append(f"{script}: {region} is 0x{origin:x}+0x{length:x}, the platform maps {block} at "
                            f"0x{lo:x}..0x{hi - 1:x}")
for f in failures:
    print(f, file=sys.stderr)
print(f"{sum(len(w) for w in expect.values())} linker regions checked, {len(failures)} differ from the address map")
sys.exit(1 if failures else 0)
