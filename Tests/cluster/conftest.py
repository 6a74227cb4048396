"""A real one-node Slurm cluster on loopback for the sharded-build tests, started as
../shared/design/SCALE-OUT.md shows: its own munged (own key and socket), slurmctld and slurmd
on free ports, everything in a temporary folder and stopped by process id at the end.

Environment:
  CASCADE_BIN   the cascade binary (default: <repo>/.build/debug/cascade)

The tests skip, saying why, where Slurm cannot start: not installed (scripts/setup --tests
installs slurm-wlm and munge), not root (the daemons run as root here), or a daemon that does
not come up (the reason is in its log, quoted in the skip message).
"""
import atexit
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

# Every build keeps its catalog in a cache folder of the run's own.
_CACHE = tempfile.mkdtemp(prefix="cascade-cluster-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)


def binary():
    path = os.environ.get("CASCADE_BIN") or str(REPO / ".build" / "debug" / "cascade")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.fail(f"the cascade binary {path} is missing: run `swift build --product cascade` "
                    "or set CASCADE_BIN", pytrace=False)
    return os.path.abspath(path)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tail(path, lines=15):
    try:
        return "\n".join(pathlib.Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


class Cluster:
    """The running cluster: `run` runs a Slurm command with its configuration."""

    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.conf = self.root / "slurm.conf"
        self.env = dict(os.environ, SLURM_CONF=str(self.conf))
        self.pids = []

    def run(self, *command, check=True, timeout=600):
        result = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=timeout)
        if check and result.returncode != 0:
            raise AssertionError(f"{' '.join(command)} failed ({result.returncode}): {result.stderr}{result.stdout}")
        return result

    def queued(self, job):
        """Whether the job (or any task of it) is still pending or running."""
        return self.run("squeue", "-h", "-j", str(job), check=False).stdout.strip() != ""

    def stop(self):
        for pid in reversed(self.pids):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.time() + 10
        for pid in self.pids:
            while time.time() < deadline:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)


def read_pid(path, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            return int(pathlib.Path(path).read_text().strip())
        except (OSError, ValueError):
            time.sleep(0.1)
    return None


@pytest.fixture(scope="session")
def cluster():
    missing = [name for name in ("munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo")
               if shutil.which(name) is None and not os.path.exists(f"/usr/sbin/{name}")]
    if missing:
        pytest.skip(f"Slurm cannot start: {', '.join(missing)} not installed "
                    "(scripts/setup --tests installs slurm-wlm and munge)")
    if os.geteuid() != 0:
        pytest.skip("Slurm cannot start: its daemons run as root in these tests, and this is not root")
    root = pathlib.Path(tempfile.mkdtemp(prefix="cascade-slurm-"))
    os.chmod(root, 0o700)
    cluster = Cluster(root)
    for folder in ("state", "spool", "log", "munge"):
        (root / folder).mkdir()
    os.chmod(root / "munge", 0o700)
    sbin = lambda name: shutil.which(name) or f"/usr/sbin/{name}"  # noqa: E731
    try:
        key = root / "munge" / "munge.key"
        subprocess.run([sbin("mungekey"), "--create", f"--keyfile={key}"], check=True, capture_output=True)
        socket_path = root / "munge" / "munge.socket"
        munged = subprocess.run(
            [sbin("munged"), "--force", f"--socket={socket_path}", f"--key-file={key}",
             f"--pid-file={root / 'munge' / 'munged.pid'}", f"--log-file={root / 'log' / 'munged.log'}",
             f"--seed-file={root / 'munge' / 'munged.seed'}"],
            capture_output=True, text=True)
        if munged.returncode != 0:
            pytest.skip(f"Slurm cannot start: munged failed: {munged.stderr.strip()} {tail(root / 'log' / 'munged.log')}")
        pid = read_pid(root / "munge" / "munged.pid")
        if pid:
            cluster.pids.append(pid)
        host = socket.gethostname().split(".")[0]
        cpus = os.cpu_count() or 1
        cluster.conf.write_text(f"""ClusterName=cascadetest
SlurmctldHost={host}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={socket_path}
CredType=cred/munge
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={root}/log/ctld.log
SlurmdLogFile={root}/log/d.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP
""")
        for daemon, pid_file, log in (("slurmctld", "slurmctld.pid", "ctld.log"), ("slurmd", "slurmd.pid", "d.log")):
            arguments = [sbin(daemon), "-f", str(cluster.conf)] + (["-c"] if daemon == "slurmctld" else [])
            started = subprocess.run(arguments, env=cluster.env, capture_output=True, text=True)
            pid = read_pid(root / pid_file)
            if started.returncode != 0 or pid is None:
                pytest.skip(f"Slurm cannot start: {daemon} failed: {started.stderr.strip()}\n{tail(root / 'log' / log)}")
            cluster.pids.append(pid)
        deadline = time.time() + 60
        while True:
            state = cluster.run("sinfo", "-h", "-o", "%t", check=False).stdout.strip()
            if state in ("idle", "mix", "alloc"):
                break
            if time.time() > deadline:
                pytest.skip(f"Slurm cannot start: the node stays '{state}'\n{tail(root / 'log' / 'd.log')}\n{tail(root / 'log' / 'ctld.log')}")
            time.sleep(0.5)
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)
