#!/usr/bin/env python3
"""Runs a program, types INPUT on its stdin once its output shows PROMPT,
and checks its exit code and output:
  run_with_input.py PROMPT INPUT REGEX -- COMMAND [ARGS...]
INPUT may hold \\n escapes. stdin stays open until the program ends (QEMU
drops input that arrives before its UART is ready, so nothing is typed
ahead). accel-vp's hart tags ("[hart0] ") are removed first."""
import re
import subprocess
import sys
import threading
import time

TIMEOUT = 120


def main():
    if len(sys.argv) < 6 or sys.argv[4] != "--":
        print(__doc__)
        return 2
    prompt = sys.argv[1].encode()
    text = sys.argv[2].encode().decode("unicode_escape").encode()
    pattern, cmd = sys.argv[3], sys.argv[5:]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = bytearray()
    done = threading.Event()

    def reader():
        while True:
            b = p.stdout.read1(4096)
            if not b:
                break
            out.extend(b)
        done.set()

    threading.Thread(target=reader, daemon=True).start()
    deadline = time.monotonic() + TIMEOUT
    while prompt not in out and not done.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)
    if prompt in out:
        p.stdin.write(text)
        p.stdin.flush()
    try:
        code = p.wait(timeout=max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        p.kill()
        code = -1
    done.wait(5)
    text_out = re.sub(r"(?m)^\[hart\d+\] ", "", out.decode(errors="replace"))
    if code != 0 or not re.search(pattern, text_out):
        print("FAIL: exit code %d, expected output /%s/\n%s" % (code, pattern, text_out[-3000:]))
        return 1
    print(text_out[-2000:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
