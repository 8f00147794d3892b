#!/usr/bin/env python3
"""The GDB server's protocol robustness, through a raw socket:
usage: gdb_protocol_test.py framing|stalled-client|interrupt|first-instruction ACCEL_VP ELF

framing: checksums are verified ('-' and the packet is not acted on), a '-'
gets the last reply again, packets larger than the advertised PacketSize
are refused with an error (also one that never ends), thread ids and
register numbers are checked (E02/E03), malformed packets change nothing.
stalled-client: a debugger that continues and then never reads again
cannot keep the simulator from finishing the program.
interrupt: Ctrl-C while running is reported as SIGINT (T02); `k` ends the
run with the usual summary.
first-instruction: -S stops a workload when the first hart is about to run
its first kernel instruction; -S needs a port; -g is port 1234."""
import json
import os
import re
import socket
import subprocess
import sys

mode, accel_vp, elf = sys.argv[1:4]
failures = []


def start(out_dir, extra=(), run=None):
    run = run or ["run", "--elf", elf, "--harts", "12"]
    sim = subprocess.Popen([accel_vp, "--no-progress", "-o", out_dir, "--set", "platform.cores=3", "--gdb", "0", *extra,
                            *run], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in sim.stderr:
        m = re.search(r"127\.0\.0\.1:(\d+)", line)
        if m:
            return sim, int(m.group(1))
    sys.exit("FAIL: accel-vp did not start a GDB server")


def frame(payload, checksum=None):
    data = payload.encode() if isinstance(payload, str) else payload
    cs = sum(data) & 0xFF if checksum is None else checksum
    return b"$" + data + b"#%02x" % cs


class Client:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.data = b""

    def read_until(self, pattern):
        while True:
            m = re.search(pattern, self.data, re.S)
            if m:
                self.data = self.data[m.end():]
                return m
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("connection closed; unread: %r" % self.data)
            self.data += chunk

    def nak(self, what):
        got = self.read_until(rb"^[+-]").group(0).decode()
        expect(what + " answered '-'", got, "-")

    def reply(self):
        """The next reply (acks before it are skipped); acknowledges it."""
        m = self.read_until(rb"^\+*\$([^#]*)#([0-9a-f]{2})")
        self.sock.sendall(b"+")
        return m.group(1).decode()

    def exchange(self, payload):
        self.sock.sendall(frame(payload))
        return self.reply()


def expect(what, got, pattern):
    ok = re.fullmatch(pattern, got) is not None
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {got[:80]!r}")
    if not ok:
        failures.append((what, got, pattern))


if mode == "framing":
    sim, port = start("gdb_test_framing")
    c = Client(port)
    expect("qSupported advertises PacketSize", c.exchange("qSupported"), r".*PacketSize=4000;.*")
    # A wrong checksum is answered '-' and the packet is not acted on.
    c.sock.sendall(frame("Hg2", checksum=0))
    c.nak("a bad checksum")
    expect("Hg2 with a bad checksum changed nothing", c.exchange("qC"), r"QC1")
    c.sock.sendall(b"$Hg2#zz")
    c.nak("a non-hex checksum")
    expect("Hg2 with a non-hex checksum changed nothing", c.exchange("qC"), r"QC1")
    # '-' asks for the last reply again.
    expect("Hg3", c.exchange("Hg3"), r"OK")
    expect("qC", c.exchange("qC"), r"QC3")
    c.sock.sendall(b"-")
    expect("qC retransmitted after '-'", c.reply(), r"QC3")
    # Packets beyond PacketSize: an error, the connection stays usable.
    expect("oversized packet", c.exchange("X" * 0x4001), r"E07")
    expect("oversized m", c.exchange("m40000000,2000"), r"E01")
    c.sock.sendall(b"$" + b"q" * (8 << 20) + b"#01")  # 8 MiB (sum 00), wrong checksum: a NAK, nothing kept
    c.nak("8 MiB")
    expect("still serving after 8 MiB", c.exchange("qC"), r"QC3")
    # Thread ids: 12 harts are threads 1..c.
    for p in ["Hgd", "Hg0d", "Hcd", "Td", "T0", "qThreadExtraInfo,d", "vCont;s:d"]:
        expect(p, c.exchange(p), r"E02")
    expect("Hg-1", c.exchange("Hg-1"), r"OK")
    expect("Tc", c.exchange("Tc"), r"OK")
    expect("qC after bad thread ids", c.exchange("qC"), r"QC3")
    # Register numbers: none beyond the description, values of the register's size.
    for p in ["p41", "p1042", "p100000020", "p2000", "P1042=0000000000000000", "P41=0000000000000000", "P20=01", "P20=000000400000000000"]:
        expect(p, c.exchange(p), r"E0[13]")
    expect("p20 (pc) unchanged", c.exchange("p20"), r"[0-9a-f]{16}")
    # Malformed packets change nothing.
    for p in ["Hg2zz", "Hg", "Hx2", "Z0,40000010zz,2", "Z0,,2", "Z2,40000010,", "Z2,40000010,0", "vCont;s:zz",
              "vCont;x", "vCont", "czz", "M40000000,2:0000zz", "m40000000", "mzz,4", "qXfer:features:read:target.xml:0",
              "qRcmd,6", "Dx", "kk"]:
        expect(p, c.exchange(p), r"E01")
    expect("qC after malformed packets", c.exchange("qC"), r"QC3")
    expect("still stopped after a malformed vCont", c.exchange("?"), r"T05thread:1;")
    expect("no breakpoint from a malformed Z0", c.exchange("z0,40000010,2"), r"OK")
    c.sock.sendall(b"$k#6b")
    sim.communicate(timeout=60)
elif mode == "stalled-client":
    sim, port = start("gdb_test_stalled")
    c = Client(port)
    c.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    expect("QStartNoAckMode", c.exchange("QStartNoAckMode"), r"OK")
    # 2000 requests of 8 KiB replies, then continue: never read again.
    c.sock.sendall(frame("m40000000,1000") * 2000 + frame("c"))
    _, err = sim.communicate(timeout=60)
    expect("accel-vp says why it dropped the debugger", err, r"(?s).*debugger stopped reading.*")
    expect("the program ran to its end", str(sim.returncode), "0")
    c.sock.close()
elif mode == "interrupt":
    # Ctrl-C while the program runs is reported as SIGINT (T02); kill ends the run with its summary.
    sim, port = start("gdb_test_interrupt")
    c = Client(port)
    expect("first stop", c.exchange("?"), r"T05thread:1;")
    c.sock.sendall(frame("c"))
    c.sock.sendall(b"\x03")
    expect("Ctrl-C", c.reply(), r"T02thread:[0-9a-f]+;")
    expect("pc inside the loop", c.exchange("p20"), r"[0-9a-f]{16}")
    c.sock.sendall(frame("k"))
    out, err = sim.communicate(timeout=60)
    expect("summary after kill", out, r"(?s).*== accel-vp summary: elf:.*simulated time.*")
    expect("accel-vp says the debugger killed it", err, r"(?s).*did not finish: killed by the debugger.*")
    expect("accel-vp exit status after kill", str(sim.returncode), "3")
    with open(os.path.join("gdb_test_interrupt", "manifest.json")) as f:
        expect("the manifest says the debugger killed the run", json.load(f)["ending"], "killed")
elif mode == "first-instruction":
    # -S: a workload's debugger connects when the first kernel instruction is about to run.
    sim, port = start("gdb_test_first", ["-S"], ["run", "vecadd", "--args", "64"])
    c = Client(port)
    stop = c.exchange("?")
    expect("stop at the first instruction", stop, r"T05thread:[0-9a-f]+;")
    pc = int.from_bytes(bytes.fromhex(c.exchange("p20")), "little")
    expect("pc in the kernel window", hex(pc), r"0x1[0-9a-f]{4}")
    expect("priv register", c.exchange("p1041"), r"0300000000000000")
    c.sock.sendall(frame("c"))
    out, err = sim.communicate(timeout=60)
    expect("the workload still passes", out, r"(?s).*results OK.*")
    # -S without a port, -g is port 1234.
    bad = subprocess.run([accel_vp, "-S", "run", "--elf", elf], capture_output=True, text=True, timeout=60)
    expect("-S alone exit status", str(bad.returncode), "2")
    expect("-S alone message", bad.stderr, r"(?s).*-S.*needs --gdb PORT or -g.*")
    helptext = subprocess.run([accel_vp, "--help"], capture_output=True, text=True, timeout=60).stdout
    expect("-g in --help", helptext, r"(?s).*-g\s+shorthand for --gdb 1234.*")
else:
    sys.exit(__doc__)
if failures:
    print("FAIL:", failures)
    sys.exit(1)
print("PASS")
