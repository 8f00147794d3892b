#!/usr/bin/env python3
"""Drives gdb-multiarch in batch mode against `accel-vp --gdb 0 run ...`.

bare-metal: `run --elf PROG`: software breakpoint at a function, next, print
a local, finish, hardware breakpoint, write/read/access watchpoints with
their old/new values, continue to the end.
kernel: `run vecadd` (a workload that loads a kernel linked at a window
address and runs it through the command processor) with the kernel ELF in
GDB: break at the kernel symbol (the first hart stops; the others wait at
the same breakpoint), delete it, step to the next line, print the argument
and the element it wrote, read code through the window, continue to the end; the
workload must still pass.
virtual-memory: `monitor x` through the hart's satp (gdb_paged.c).
attach-running: `--gdb-no-wait`, a debugger attaching to a running program.
linux-boot SYSTEM HARTS IMAGE INITRAMFS: `-S boot --system SYSTEM --harts
HARTS` with vmlinux in GDB: one thread per hart, waiting at the firmware's
entry (M mode, physical addresses); a breakpoint at start_kernel stops the
boot hart in S mode, where GDB's addresses are virtual (the kernel's banner,
jiffies and the instruction at pc read through satp); the boot then runs to
the init's power-off with status 0."""
import re
import socket
import struct
import subprocess
import sys


def run(accel_vp, sim_args, elf, gdb, cmds):
    sim = subprocess.Popen([accel_vp, "--no-progress", "-o", "gdb_test_" + mode, "--gdb", "0"] + sim_args,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    port = None
    for line in sim.stderr:
        m = re.search(r"127\.0\.0\.1:(\d+)", line)
        if m:
            port = m.group(1)
            break
    if port is None:
        sim.kill()
        print("FAIL: accel-vp did not start a GDB server")
        sys.exit(1)
    cmds = ["set pagination off", "set confirm off", f"target remote :{port}"] + cmds
    args = [gdb, "-nx", "-batch"] + sum([["-ex", c] for c in cmds], []) + [elf]
    out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60).stdout
    sim_out, sim_err = sim.communicate(timeout=60)
    print(out)
    print(sim_out, sim_err)
    return out, sim_out + sim_err, sim.returncode


def check(out, sim_out, code, patterns, sim_pattern):
    missing = [p for p in patterns if not re.search(p, out)]
    if missing or code != 0 or not re.search(sim_pattern, sim_out):
        print("FAIL: missing", missing, "accel-vp exit", code)
        sys.exit(1)


mode, accel_vp, elf, gdb = sys.argv[1:5]
OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf"
if mode == "bare-metal":
    out, sim_out, code = run(accel_vp, ["run", "--elf", elf, "--harts", "8"], elf, gdb, [
        "info threads", "break compute", "continue", "next", "print n", "info registers pc", "finish",
        "hbreak publish", "continue", "watch result", "continue", "rwatch result", "continue",
        "awatch readback", "continue", "delete", "continue"])
    check(out, sim_out, code, [
        r"Thread 8", r"Breakpoint 1, compute \(n=10\)", r"\$1 = 10", r"Value returned is \$2 = 385",
        r"Hardware assisted breakpoint 2 at", r"Breakpoint 2, publish \(v=385\)",
        r"Hardware watchpoint 3: result\s+Old value = 0\s+New value = 385",
        r"Hardware read watchpoint 4: result\s+Value = 385",
        r"Hardware access \(read/write\) watchpoint 5: readback\s+Old value = 0\s+New value = 385",
        r"exited normally"], r"result 385 readback 385")
elif mode == "kernel":
    out, sim_out, code = run(accel_vp, ["run", "vecadd", "--args", "64"], elf, gdb, [
        "break kernel_main", "continue", "print instance", "set $out = out", "delete", "step", "print instance",
        "print $out[instance]", "x/2xh $pc", "continue"])
    check(out, sim_out, code, [
        r"Breakpoint 1 at 0x1[0-9a-f]{4}: file .*kernel_add\.c, line 9\.",
        # On the default DDR4 memory hart 1's fetches find their rows open: it reaches the kernel first.
        r"Thread 2 hit Breakpoint 1, kernel_main \(instance=1, a=0x4[0-9a-f]+, b=0x4[0-9a-f]+, out=0x4[0-9a-f]+\)",
        r"\$1 = 1\n", r"\n10\s+if \(instance == 0\)", r"\$2 = 1\n", r"\$3 = 1003\n",
        r"0x1[0-9a-f]{4} <kernel_main\+\d+>:\s+0x[0-9a-f]{4}\s+0x[0-9a-f]{4}", r"exited normally"],
          r"vecadd: 64 elements on \d+ harts: results OK")
elif mode == "qemu-like":
    # As with QEMU: only the harts that run are threads, the pc is the ELF
    # entry on connect, the privilege mode is a register, monitor commands,
    # `kill` ends the simulator with its summary.
    with open(elf, "rb") as f:
        elf_entry = struct.unpack_from("<Q", f.read(64), 24)[0]
    out, sim_out, code = run(accel_vp, ["run", "--elf", elf, "--harts", "2"], elf, gdb, [
        "info threads", "info files", "p/x $pc", "p $priv", "monitor harts", "monitor windows", "monitor stats instructions",
        "monitor bogus", "monitor help", "break compute", "continue", "monitor harts",
        # Live statistics at a stop, the registers of every hart, memory by physical address, the address map.
        "monitor stats hart0.instructions", "monitor registers", "monitor xp 0x%x 16" % elf_entry, "monitor xp nonsense",
        "monitor mtree", "monitor reset", "flushregs", "p/x $pc", "kill"])
    entry = re.search(r"Entry point: (0x[0-9a-f]+)", out)
    patterns = [r"\* 1\s+Thread 1 \(hart 0 \(running\)\)", r"\n  2\s+Thread 2 \(hart 1 \(running\)\)",
                r"\$1 = %s\n" % (entry.group(1) if entry else "ENTRY"), r"\$2 = 3\n",
                r"hart 0 \(thread 1\): running, privilege M, pc %s" % (entry.group(1) if entry else "ENTRY"),
                r"hart 1 \(thread 2\): running, privilege M", r"window 0: inactive", r"harts\.hart0\.instructions = \d+ instructions",
                r"unknown monitor command 'bogus'", r"monitor reset", r"monitor windows",
                r"Breakpoint 1, compute \(n=10\)", r"hart 0 \(thread 1\): running, privilege M, pc 0x4000",
                r"2 hart\(s\) reset to their start", r"\$3 = %s\n" % (entry.group(1) if entry else "ENTRY"),
                r"harts\.hart0\.instructions = [1-9]\d* instructions",
                r"hart 1 \(thread 2\): running, privilege M, pc 0x[0-9a-f]+\n  ra   [0-9a-f]{16}  sp   [0-9a-f]{16}",
                r"0x%012x:( [0-9a-f]{2}){16}" % elf_entry, r"usage: monitor xp ADDR \[LEN\]",
                r"0x000040000000 \.\. 0x[0-9a-f]{12}  \S+\s+-> port",
                r"\[Inferior 1 \(Remote target\) killed\]"]
    missing = [p for p in patterns if not re.search(p, out)]
    if "Thread 3" in out:
        missing.append("only 2 threads")
    if missing or not re.search(r"== accel-vp summary: elf:.*\n.*exit code", sim_out) or "killed by the debugger" not in sim_out:
        print("FAIL: missing", missing, "accel-vp exit", code)
        sys.exit(1)
elif mode == "virtual-memory":
    # monitor x reads through the hart's satp (gdb_paged.c): across a page
    # boundary into a page mapped elsewhere, without setting the A bit of the
    # PTEs it walks or counting a walk; an unmapped address is named.
    out, sim_out, code = run(accel_vp, ["run", "--elf", elf, "--harts", "1"], elf, gdb, [
        "break paged_ready", "continue", "p/x l0[0]", "monitor x 0x200000ff0 32", "monitor x 0x300000000 8",
        "monitor x", "p/x l0[0]", "monitor stats page_walks", "continue"])
    check(out, sim_out, code, [
        r"Breakpoint 1, paged_ready", r"\$1 = 0x[0-9a-f]+03\n",
        r"0x000200000ff0: f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 fa fb fc fd fe ff",
        r"0x000200001000: ff fe fd fc fb fa f9 f8 f7 f6 f5 f4 f3 f2 f1 f0",
        r"virtual 0x300000000: no valid mapping \(page fault\) \(satp 0x8[0-9a-f]+\)",
        r"usage: monitor x ADDR \[LEN\]", r"\$2 = 0x[0-9a-f]+03\n", r"page_walks = 0 ", r"exited normally"], r"")
elif mode == "linux-boot":
    system, harts, image, initramfs = sys.argv[5:9]
    mode += "-" + system  # the output directory, apart for each system
    out, sim_out, code = run(accel_vp, ["-S", "boot", "--system", system, "--harts", harts, "--firmware", OPENSBI,
                                        "--kernel", image, "--initrd", initramfs, "--bootargs", "console=ttyS0 earlycon"],
                             elf, gdb, [
        "info threads", "p/x $pc", "p $priv", "break start_kernel", "continue", "p $priv", "bt",
        "x/s (char *)&linux_banner", "x/i $pc", "p/x (unsigned long)jiffies", "delete", "continue"])
    check(out, sim_out, code, [
        rf"\s{harts}\s+Thread {harts} \(hart {int(harts) - 1}", r"\$1 = 0x80000000\n", r"\$2 = (prv3|3)\b",
        r"Breakpoint 1 at 0xffffffff8", r"Breakpoint 1, 0xffffffff8[0-9a-f]+ in start_kernel", r"\$3 = (prv1|1)\b",
        r"#0\s+0xffffffff8[0-9a-f]+ in start_kernel", r"<linux_banner>:\s+\"Linux version 6\.1",
        r"=> 0xffffffff8[0-9a-f]+ <start_kernel>:", r"\$4 = 0x[0-9a-f]+\n", r"exited normally"],
          r"fullsystem: \d+ passed, 0 failed" if system == "host" else r"selftest: \d+ passed, 0 failed")
elif mode == "attach-running":
    # --gdb-no-wait: the program runs at once; the server looks for a
    # debugger only between chunks of the run, so at least one chunk ran
    # before gdb-multiarch attaches (spins > 0); the harts stop where they
    # are, statistics are live, and `kill` ends the run.
    out, sim_out, code = run(accel_vp, ["--gdb-no-wait", "run", "--elf", elf, "--harts", "2"], elf, gdb, [
        "info threads", "p spins > 0", "monitor stats hart0.instructions", "kill"])
    patterns = [r"\* 1\s+Thread 1 \(hart 0 \(running\)\)", r"\$1 = 1\n",
                r"harts\.hart0\.instructions = [1-9]\d* instructions", r"\[Inferior 1 \(Remote target\) killed\]"]
    missing = [p for p in patterns if not re.search(p, out)]
    if missing or "killed by the debugger" not in sim_out:
        print("FAIL: missing", missing, "accel-vp exit", code)
        sys.exit(1)
elif mode == "packets":
    # Raw remote-protocol packets, malformed ones included: precise replies, no crash.
    # 12 harts: thread ids are hex ("a" is hart 9).
    sim = subprocess.Popen([accel_vp, "--no-progress", "-o", "gdb_test_packets", "--set", "platform.cores=3", "--gdb", "0",
                            "run", "--elf", elf, "--harts", "12"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    port = None
    for line in sim.stderr:
        m = re.search(r"127\.0\.0\.1:(\d+)", line)
        if m:
            port = int(m.group(1))
            break
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)

    def exchange(payload):
        frame = "$%s#%02x" % (payload, sum(payload.encode()) & 0xFF)
        sock.sendall(frame.encode())
        data = b""
        while not re.search(rb"\$([^#]*)#[0-9a-f]{2}", data):
            data += sock.recv(4096)
        sock.sendall(b"+")
        return re.search(rb"\$([^#]*)#", data).group(1).decode()

    expect = [("?", r"T05thread:1;"), ("qfThreadInfo", r"m1,2,3,4,5,6,7,8,9,a,b,c"), ("Hgc", r"OK"), ("qC", r"QCc"),
              ("qThreadExtraInfo,c", "68617274203131202872756e6e696e6729"), ("g", r"[0-9a-f]{528}"),
              ("m40000000,4", r"[0-9a-f]{8}"), ("m7fff00000000,4", r"E14"),
              ("Z2,zz,4", r"E01"), ("z2,1000,4", r"E01"), ("Z9,1000,4", r""), ("Z2,1000", r"E01"),
              ("Z2,40001000,8", r"OK"), ("z2,40001000,8", r"OK"), ("Z1,40000000,2", r"OK"),
              ("z1,40000000,2", r"OK"), ("Hgzz", r"E01"), ("pzz", r"E01"), ("P20=zz", r"E01"),
              ("Xbogus", r""), ("m0,40000000", r"E01"), ("M40000000,4:zz", r"E01"),
              ("M40000000,4:00", r"E01"), ("M40000000,1:97", r"OK")]
    bad = []
    for payload, reply in expect:
        got = exchange(payload)
        print(f"{payload!r} -> {got!r}")
        if not re.fullmatch(reply, got):
            bad.append((payload, got, reply))
    sock.sendall(b"$k#6b")
    sim.communicate(timeout=60)
    if bad or sim.returncode < 0:
        print("FAIL:", bad, "accel-vp exit", sim.returncode)
        sys.exit(1)
else:
    sys.exit("usage: run_gdb_test.py bare-metal|kernel|qemu-like|packets ACCEL_VP ELF GDB")
print("PASS")
