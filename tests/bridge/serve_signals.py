#!/usr/bin/env python3
"""An idle `accel-vp serve` (no client, or one connected and silent) ends
promptly on SIGTERM and on SIGINT, with exit status 128 + signal and its
manifest written (it used to sleep on its sockets through the signal), and
answers SIGUSR1 with a snapshot while it waits.

usage: serve_signals.py ACCEL_VP OUT_DIR
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time


def catching(pid, sig):
    """The process has its handler for `sig` installed (the run has started)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return int(line.split()[1], 16) >> (sig - 1) & 1
    except FileNotFoundError:
        pass
    return False


def start(vp, out, sig):
    os.makedirs(out, exist_ok=True)
    sock = os.path.join(out, "serve.sock")
    p = subprocess.Popen([vp, "--no-progress", "-o", out, "serve", "--socket", sock],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    # Polls bounded by tries (the server starting), not a time threshold on the result.
    for _ in range(3000):
        if catching(p.pid, sig) and os.path.exists(sock):
            return p, sock
        time.sleep(0.01)
    p.kill()
    sys.exit(f"FAIL: the server did not start: {p.communicate()[0].decode(errors='replace')}")


def snapshot_while_idle(vp, out):
    p, _ = start(vp, out, signal.SIGUSR1)
    p.send_signal(signal.SIGUSR1)
    manifest = os.path.join(out, "manifest.json")
    for _ in range(3000):  # tries, not a time threshold
        if os.path.exists(manifest):
            break
        time.sleep(0.01)
    p.send_signal(signal.SIGTERM)
    text = p.communicate(timeout=120)[0].decode(errors="replace")
    if "statistics at" not in text or "(the run goes on)" not in text:
        sys.exit(f"FAIL: SIGUSR1 wrote no snapshot while serve was idle\n{text}")
    print("serve wrote a snapshot on SIGUSR1 while idle")


def run(vp, out, sig, with_client):
    p, sock = start(vp, out, sig)
    client = None
    if with_client:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(sock)
    p.send_signal(sig)
    try:
        text = p.communicate(timeout=120)[0].decode(errors="replace")
    except subprocess.TimeoutExpired:
        p.kill()
        sys.exit(f"FAIL: {signal.Signals(sig).name} did not end the idle server")
    if client:
        client.close()
    if p.returncode != 128 + sig:
        sys.exit(f"FAIL: exit status {p.returncode}, expected {128 + sig}\n{text}")
    with open(os.path.join(out, "manifest.json")) as f:
        m = json.load(f)
    name = signal.Signals(sig).name
    if name not in m.get("ending_message", ""):
        sys.exit(f"FAIL: manifest ending_message {m.get('ending_message')!r} does not name {name}")
    print(f"serve ended by {name}{' with a silent client' if with_client else ''}: status {p.returncode}, manifest written")


def main():
    vp, out = sys.argv[1], sys.argv[2]
    run(vp, out + "_term", signal.SIGTERM, False)
    run(vp, out + "_int", signal.SIGINT, False)
    run(vp, out + "_client", signal.SIGTERM, True)
    snapshot_while_idle(vp, out + "_usr1")
    print("serve_signals: OK")


if __name__ == "__main__":
    main()
