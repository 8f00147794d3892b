#!/usr/bin/env python3
"""The UART on an interactive terminal (a pseudo-terminal here), as QEMU's
-nographic: raw mode while the simulator runs (typed text is not echoed by
the terminal, so the program's echo is the only one), Ctrl-A h lists the
keys, Ctrl-A x quits with every output written (exit 130, the manifest says
interrupted by Ctrl-A x), no progress line on that terminal, and the
terminal's mode restored on every exit path (the program's own end, Ctrl-A x,
SIGTERM). A run in the background of its terminal (`timeout` puts it
there) neither changes the terminal's mode nor reads it (it would be
stopped by SIGTTIN and never see the SIGTERM): it ends with its manifest.

usage: uart_terminal_test.py ACCEL_VP UART_ECHO_ELF OUT_DIR
"""
import fcntl
import json
import os
import pty
import select
import shlex
import signal
import subprocess
import sys
import termios
import time

vp, elf, out = (os.path.abspath(a) for a in sys.argv[1:4])
failures = []


def check(what, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
        if detail:
            print(repr(detail[-3000:]))


class Session:
    """accel-vp with a pseudo-terminal as stdin, stdout and stderr (progress not switched off)."""

    def __init__(self, name):
        self.dir = os.path.join(out, name)
        os.makedirs(self.dir, exist_ok=True)
        self.master, self.slave = pty.openpty()
        self.mode_before = termios.tcgetattr(self.slave)
        # As in a terminal window: a session of its own whose controlling terminal is the pty.
        self.p = subprocess.Popen([vp, "-o", self.dir, "run", "--elf", elf, "--uart", "stdio"], stdin=self.slave,
                                  stdout=self.slave, stderr=self.slave, start_new_session=True,
                                  preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        self.text = b""

    def read_until(self, needle, timeout=60):
        deadline = time.monotonic() + timeout
        while needle not in self.text and time.monotonic() < deadline:
            r, _, _ = select.select([self.master], [], [], 0.05)
            if r:
                try:
                    self.text += os.read(self.master, 4096)
                except OSError:
                    break
        return needle in self.text

    def raw(self):
        """The terminal is in raw mode (no echo, no line editing, no signals from keys)."""
        lflag = termios.tcgetattr(self.slave)[3]
        return not lflag & (termios.ECHO | termios.ICANON | termios.ISIG)

    def type(self, data):
        os.write(self.master, data)

    def finish(self, timeout=60):
        try:
            code = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            code = "hung"
        self.read_until(b"\xff", timeout=0.5)  # the rest of the output
        restored = termios.tcgetattr(self.slave) == self.mode_before
        os.close(self.master)
        os.close(self.slave)
        return code, restored

    def manifest(self):
        try:
            with open(os.path.join(self.dir, "manifest.json")) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}


# Typing: one echo (the program's), raw mode while it runs, restored when it ends by itself.
s = Session("typed")
check("the program's banner", s.read_until(b"q ends"), s.text)
check("raw mode while the simulator owns the terminal", s.raw())
s.type(b"hello\r")
check("the program answers", s.read_until(b"echo: hello"), s.text)
check("typed text is echoed once (by the program, not the terminal)", s.text.count(b"hello") == 1, s.text)
s.type(b"\x01h")
check("Ctrl-A h lists the escape keys", s.read_until(b"C-a x"), s.text)
s.type(b"q")
code, restored = s.finish()
check("q ends the program: exit 0", code == 0, s.text)
check("the terminal's mode is restored after a normal end", restored)
check("no progress line on the UART's terminal", b"\r[accel-vp] simulated" not in s.text, s.text)

# Ctrl-A x quits with every output written.
s = Session("quit")
s.read_until(b"q ends")
s.type(b"\x01x")
code, restored = s.finish()
check("Ctrl-A x quits: exit 130", code == 130, s.text)
m = s.manifest()
check("the manifest says interrupted by Ctrl-A x", m.get("ending") == "interrupted" and m.get("interrupted_by") == "Ctrl-A x",
      str({k: m.get(k) for k in ("ending", "interrupted_by")}))
check("the summary is printed", b"accel-vp summary" in s.text, s.text)
check("on an interactive terminal simulated time is paced to host time (platform.pace=auto)",
      m.get("real_time_paced") is True, str(m.get("real_time_paced")))
check("the terminal's mode is restored after Ctrl-A x", restored)

# A signal: the mode is restored too.
s = Session("sigterm")
s.read_until(b"q ends")
s.p.send_signal(signal.SIGTERM)
code, restored = s.finish()
check("SIGTERM: exit 143", code == 143, s.text)
check("the terminal's mode is restored after SIGTERM", restored)

# In the background of the terminal, as under `timeout`: SIGTERM ends it with its outputs.
# (5 s: on a loaded host a signal sent before the run installs its handlers would kill it outright.)
fw = os.path.join(out, "spin.bin")
with open(fw, "wb") as f:
    f.write((0x0000006F).to_bytes(4, "little"))  # j .
bg = os.path.join(out, "background")
pid, master = pty.fork()
if pid == 0:  # a shell leading a session on the pty; timeout runs accel-vp in a process group of its own
    os.execvp("sh", ["sh", "-c", " ".join(shlex.quote(a) for a in
                                          ["timeout", "-s", "TERM", "5", vp, "-o", bg, "boot", "--firmware", fw])])
text = b""
deadline = time.monotonic() + 120
while time.monotonic() < deadline:
    r, _, _ = select.select([master], [], [], 0.1)
    if r:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        text += chunk
    if os.waitpid(pid, os.WNOHANG)[0] == pid:
        break
else:
    os.kill(pid, signal.SIGKILL)
os.close(master)
try:
    with open(os.path.join(bg, "manifest.json")) as f:
        m = json.load(f)
except (OSError, ValueError):
    m = {}
check("a boot in the terminal's background stopped by timeout's SIGTERM writes its manifest",
      m.get("ending") == "interrupted" and m.get("interrupted_by") == "SIGTERM", text.decode(errors="replace"))

sys.exit(1 if failures else 0)
