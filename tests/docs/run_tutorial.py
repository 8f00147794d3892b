#!/usr/bin/env python3
"""Runs every ```sh block of a Markdown tutorial, in order, in one bash
session in an empty temporary directory, and checks the outputs it shows.

run_tutorial.py DOC.md SOURCE_DIR BUILD_DIR [TOOL ...]

The shell gets AVP_SRC=SOURCE_DIR, AVP_BUILD=BUILD_DIR and BUILD_DIR first on
PATH (the tutorial's own defaults then point at this build). A ```text block
that follows a ```sh block with nothing but blank lines between is that
block's expected output (stdout and stderr together): each of its lines must
match a line of the output, in order, other output lines in between being
allowed; `...` inside a line matches anything, a line that is only `...`
stands for omitted lines. Exits 77 (CTest's skip code) when a TOOL the
tutorial needs is not installed, 1 when a command fails or an expected line
is missing."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

SKIP = 77
TIMEOUT = 240  # seconds of wall time for the whole tutorial
FENCE = re.compile(r"^```(\w*)\s*\n(.*?)^```\s*$", re.M | re.S)


def blocks(markdown):
    """[(commands, expected lines or None)] in document order."""
    out = []
    last_end, last_lang = 0, None
    for m in FENCE.finditer(markdown):
        lang, body = m.group(1), m.group(2)
        if lang == "sh":
            out.append([body, None])
        elif lang == "text" and last_lang == "sh" and markdown[last_end:m.start()].strip() == "":
            out[-1][1] = [line for line in body.splitlines() if line.strip()]
        last_end, last_lang = m.end(), lang
    return out


def line_pattern(expected):
    return re.compile("".join(".*" if part == "..." else re.escape(part)
                              for part in re.split(r"(\.\.\.)", expected.rstrip())) + r"\s*")


def missing_lines(expected, output):
    lines = output.splitlines()
    at = 0
    for exp in expected:
        if exp.strip() == "...":
            continue
        pattern = line_pattern(exp)
        while at < len(lines) and not pattern.fullmatch(lines[at].rstrip()):
            at += 1
        if at == len(lines):
            return exp
        at += 1
    return None


def main():
    doc, src, build = sys.argv[1:4]
    missing = [t for t in sys.argv[4:] if not shutil.which(t)]
    if missing:
        print("SKIP: not installed:", ", ".join(missing))
        return SKIP
    steps = blocks(open(doc, encoding="utf-8").read())
    if not steps:
        print("FAIL: no ```sh blocks in", doc)
        return 1
    marker = "@@tutorial-block-%d@@"
    script = "set -euo pipefail\n" + "".join(
        f"echo '{marker % i}'\n{body}\n" for i, (body, _) in enumerate(steps)) + f"echo '{marker % len(steps)}'\n"
    env = dict(os.environ, AVP_SRC=os.path.abspath(src), AVP_BUILD=os.path.abspath(build),
               PATH=os.path.abspath(build) + os.pathsep + os.environ["PATH"])
    with tempfile.TemporaryDirectory(prefix="avp-tutorial-") as work:
        proc = subprocess.Popen(["bash", "-c", script], cwd=work, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            stdout, _ = proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the shell and whatever it left in the background
            stdout, _ = proc.communicate()
            print(f"FAIL: the tutorial took more than {TIMEOUT} s")
    parts = re.split(r"^@@tutorial-block-(\d+)@@\n", stdout, flags=re.M)
    outputs = {int(parts[k]): parts[k + 1] for k in range(1, len(parts) - 1, 2)}
    failed = False
    for i, (body, expected) in enumerate(steps):
        if i not in outputs:  # an earlier block stopped the shell
            break
        output = outputs[i]
        print(f"--- block {i + 1}:\n{body}--- output:\n{output}")
        if i + 1 not in outputs:
            print(f"FAIL: block {i + 1} stopped the tutorial (bash exit {proc.returncode})")
            failed = True
            break
        gap = missing_lines(expected, output) if expected else None
        if gap is not None:
            print(f"FAIL: block {i + 1}: expected output line not found: {gap!r}")
            failed = True
    if failed or proc.returncode != 0:
        print(f"FAIL (bash exit {proc.returncode})")
        return 1
    print(f"PASS: {len(steps)} blocks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
