#!/usr/bin/env python3
"""A program gives the same results translated (harts.translate=true, the
default) and interpreted (harts.translate=false): both end with exit code 0,
print the same console output and agree on the simulated time and on every
statistic. An instruction limit (--max-insns) bounds both runs, so a
translated run that loops where the interpreter does not fails here, by its
exit code, rather than by a timeout. With --stops-at-limit the limit is
meant to end both runs (in the middle of the program's loops): they must
stop there, at the same instruction, time and statistics.

  translate_equivalence.py ACCEL_VP WORKDIR ELF MAX_INSNS [--stops-at-limit]"""
import json
import os
import subprocess
import sys


def run(accel_vp, workdir, elf, max_insns, translate, stops_at_limit):
    out = os.path.join(workdir, "translate_equivalence_%s_%s" % (os.path.basename(elf), translate))
    cmd = [accel_vp, "--no-progress", "-o", out, "--set", "harts.translate=%s" % translate,
           "run", "--elf", elf, "--max-insns", str(max_insns)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if (p.returncode != 0) != stops_at_limit:
        sys.exit("%s ended with %d:\n%s" % (" ".join(cmd), p.returncode, p.stdout[-2000:]))
    with open(os.path.join(out, "manifest.json")) as f:
        m = json.load(f)
    if stops_at_limit:
        if m["instructions"] < int(max_insns):
            sys.exit("%s: stopped after %s instructions, before the limit" % (" ".join(cmd), m["instructions"]))
    elif m["exit_code"] != 0:
        sys.exit("%s: exit code %s (%s), %s instructions" % (" ".join(cmd), m["exit_code"], m["ending_message"],
                                                              m["instructions"]))
    return m


def main():
    if len(sys.argv) not in (5, 6) or (len(sys.argv) == 6 and sys.argv[5] != "--stops-at-limit"):
        sys.exit(__doc__)
    accel_vp, workdir, elf, max_insns = sys.argv[1:5]
    stops_at_limit = len(sys.argv) == 6
    translated = run(accel_vp, workdir, elf, max_insns, "true", stops_at_limit)
    interpreted = run(accel_vp, workdir, elf, max_insns, "false", stops_at_limit)
    diffs = ["%s: translated %r, interpreted %r" % (k, translated[k], interpreted[k])
             for k in ("console", "simulated_time_ns", "instructions") if translated[k] != interpreted[k]]
    a, b = translated["statistics"], interpreted["statistics"]
    diffs += ["statistic %s: translated %s, interpreted %s" % (k, a.get(k), b.get(k))
              for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    if diffs:
        sys.exit("translate_equivalence: %s differs:\n  %s" % (elf, "\n  ".join(diffs)))
    print("translate_equivalence: OK (%s instructions)" % translated["instructions"])


if __name__ == "__main__":
    main()
