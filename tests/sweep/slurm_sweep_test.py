#!/usr/bin/env python3
"""`accel-vp sweep --slurm` through a real single-node Slurm cluster.

Writes a minimal slurm.conf into a temporary directory (auth/none, this host
as the only node, state and logs in the directory, free ports), starts
slurmctld and slurmd, submits a sweep as a job array with `accel-vp sweep
--slurm`, waits (bounded) until the array has left the queue, tabulates by
running the sweep again, and checks the table equals a local run of the same
sweep. The daemons are stopped in every case (they also die with this
process). Exit code 77 (skipped) when the Slurm binaries are not installed.
"""
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77
TIMEOUT_S = 150


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def die_with_parent():
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def slurm_conf(d, user, host):
    return f"""ClusterName=accelvp
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser={user}
SlurmdUser={user}
AuthType=auth/none
CredType=cred/none
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool/%n
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=avpnode NodeHostname={host} NodeAddr=127.0.0.1 CPUs={os.cpu_count()} State=UNKNOWN
PartitionName=debug Nodes=avpnode Default=YES MaxTime=INFINITE State=UP
"""


def wait_for(what, predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.5)
    raise RuntimeError(f"timed out after {timeout} s waiting for {what}")


def main():
    accel_vp = os.path.abspath(sys.argv[1])
    tools = ["slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scancel"]
    missing = [t for t in tools if not shutil.which(t) and not os.path.exists("/usr/sbin/" + t)]
    if missing:
        print("skipped: Slurm is not installed (missing " + ", ".join(missing) + ")")
        return SKIP
    sbin = lambda t: shutil.which(t) or "/usr/sbin/" + t
    d = tempfile.mkdtemp(prefix="avp-slurm-")
    os.makedirs(d + "/state")
    os.makedirs(d + "/spool")
    user = subprocess.run(["id", "-un"], capture_output=True, text=True, check=True).stdout.strip()
    host = socket.gethostname().split(".")[0]
    conf = d + "/slurm.conf"
    with open(conf, "w") as f:
        f.write(slurm_conf(d, user, host))
    env = dict(os.environ, SLURM_CONF=conf)
    daemons = []
    job = None
    try:
        daemons.append(subprocess.Popen([sbin("slurmctld"), "-D", "-c", "-f", conf], env=env, preexec_fn=die_with_parent,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))
        daemons.append(subprocess.Popen([sbin("slurmd"), "-D", "-N", "avpnode", "-f", conf], env=env,
                                        preexec_fn=die_with_parent, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))

        def node_idle():
            for p in daemons:
                if p.poll() is not None:
                    raise RuntimeError(f"{p.args[0]} exited with {p.returncode}")
            r = subprocess.run(["sinfo", "-h", "-N", "-o", "%t"], env=env, capture_output=True, text=True)
            return r.returncode == 0 and r.stdout.strip() == "idle"

        wait_for("the node to become idle", node_idle, 60)

        sweep = ["sweep", "--workload", "memcheck", "--param", "dram.read_latency=10ns,40ns,100ns",
                 "--param", "platform.seed=1,2", "--metrics", "simulated_time_ns,dram.reads.value,bus.dram.bytes.value"]
        out = d + "/cluster"
        r = subprocess.run([accel_vp, "--no-progress", "-o", out] + sweep + ["--slurm"], env=env, capture_output=True,
                           text=True)
        print(r.stdout + r.stderr)
        if r.returncode != 0 or "Submitted batch job" not in r.stdout:
            raise RuntimeError("accel-vp sweep --slurm did not submit the job array")
        job = r.stdout.split("Submitted batch job")[1].split()[0]

        def array_done():
            q = subprocess.run(["squeue", "-h", "-j", job, "-o", "%i %T"], env=env, capture_output=True, text=True)
            return q.returncode == 0 and q.stdout.strip() == ""

        wait_for(f"job array {job} to finish", array_done, TIMEOUT_S)
        job = None
        tasks = sorted(f for f in os.listdir(out) if f.startswith("slurm-"))
        if len(tasks) != 6:
            raise RuntimeError(f"expected 6 array task logs, found {tasks}")

        r = subprocess.run([accel_vp, "--no-progress", "-o", out] + sweep, env=env, capture_output=True, text=True)
        print(r.stdout + r.stderr)
        if r.returncode != 0 or "6 points, 6 already done, 0 run, 0 failed" not in r.stderr:
            raise RuntimeError("tabulating the Slurm sweep ran points again or failed")
        local = d + "/local"
        r = subprocess.run([accel_vp, "--no-progress", "-o", local] + sweep, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("the local sweep failed:\n" + r.stdout + r.stderr)
        cluster_csv, local_csv = (open(p + "/results.csv").read() for p in (out, local))
        if cluster_csv != local_csv:
            raise RuntimeError(f"Slurm and local tables differ:\n{cluster_csv}\n---\n{local_csv}")
        print(cluster_csv)
        print("Slurm job array and local sweep agree")
        return 0
    except Exception as e:  # the daemons' logs explain most failures
        print(f"FAILED: {e}")
        for log in ("slurmctld.log", "slurmd.log"):
            if os.path.exists(f"{d}/{log}"):
                print(f"--- {log} (last lines)\n" + "".join(open(f"{d}/{log}").readlines()[-25:]))
        return 1
    finally:
        if job:
            subprocess.run(["scancel", job], env=env, capture_output=True)
        for p in reversed(daemons):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
