"""A tournament on a Dask cluster that speaks TLS: only members with a certificate of the class's CA take part.

A plain ``tcp://`` scheduler lets anyone who reaches it attach a worker, whose results the teacher's process
unpickles (issue 23).  Certificates are made here with the ``openssl`` command.
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from amoeboid_edu.lab import executors
from amoeboid_edu.lab.executors import TLSFiles, map_unordered, parse_executor
from cli_runner import amoeboid
from test_tournament import SNOOPS

WANDER = """
def strategy(position, roll, rng):
    from amoeboid_edu import legal_move_pairs

    grow = rng.choice(position.owned())
    pairs = legal_move_pairs(position, roll, grow)
    return f"{roll} {grow} {'%s-%s' % rng.choice(pairs) if pairs else '-'}"
"""
FIRST_LEGAL = """
from amoeboid_edu import legal_turns


def strategy(position, roll, rng):
    return next(iter(legal_turns(position, roll)))
"""


def openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def authority(folder: Path, name: str) -> TLSFiles:
    """A certificate authority in ``folder`` and one member certificate it signed (for 127.0.0.1), as PEM files."""
    folder.mkdir()
    curve = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    openssl("req", "-x509", *curve, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", f"/CN={name} CA",
            cwd=folder)
    openssl("req", *curve, "-keyout", "member.key", "-out", "member.csr", "-subj", "/CN=127.0.0.1", cwd=folder)
    (folder / "san.txt").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "member.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "member.pem", "-days", "2", "-extfile", "san.txt", cwd=folder)
    return TLSFiles(str(folder / "ca.pem"), str(folder / "member.pem"), str(folder / "member.key"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory):
    """A TLS scheduler and one worker, separate processes on 127.0.0.1, with the class CA's certificates.

    Shared by the module's tests: none of them changes the cluster (a refused stranger never joins it)."""
    pytest.importorskip("distributed")
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command makes this test's certificates")
    tmp_path = tmp_path_factory.mktemp("tls-cluster")
    files = authority(tmp_path / "class-ca", "class")
    dask = shutil.which("dask", path=str(Path(sys.executable).parent))
    tls = ["--tls-ca-file", files.ca, "--tls-cert", files.cert, "--tls-key", files.key]
    port = free_port()
    address = f"tls://127.0.0.1:{port}"
    logs = open(tmp_path / "dask.log", "w")
    started = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--protocol", "tls",
                                 *tls, "--no-dashboard"], stdout=logs, stderr=logs, start_new_session=True)]
    try:
        started.append(subprocess.Popen([dask, "worker", address, *tls, "--nworkers", "1", "--nthreads", "1",
                                         "--host", "127.0.0.1", "--no-dashboard"],
                                        stdout=logs, stderr=logs, start_new_session=True))  # fmt: skip
        from distributed import Client

        with Client(address, timeout=60, security=files.security()) as client:
            client.wait_for_workers(1, timeout=120)
        yield address, files
    finally:
        for process in reversed(started):
            os.killpg(process.pid, signal.SIGTERM)
        for process in reversed(started):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        logs.close()


def run_cli(*args, timeout=300):
    """``amoeboid tournament ARGS`` in its own process: for a Dask client, which would outlive the call in this one
    (its event-loop thread).  A run or a refusal without a client runs in this process (:func:`amoeboid`)."""
    return subprocess.run([sys.executable, "-m", "amoeboid_edu", "tournament", *map(str, args)], capture_output=True,
                          text=True, timeout=timeout)


def test_a_tournament_on_a_tls_cluster_gives_the_serial_rows(tmp_path, tls_cluster):
    """The Dask executor plays the serial games (``test_tournament.py`` compares serial with ``processes:2``), and on
    a Dask worker too the dice stay out of a student's reach (the snooper)."""
    address, files = tls_cluster
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(WANDER)
    (folder / "bob.py").write_text(FIRST_LEGAL)
    (folder / "snoop.py").write_text(SNOOPS)
    common = ["--games", "6", "--batch", "2", "--seed", "7", "--opponents", "random", "-q"]
    serial = amoeboid("tournament", str(folder), *common, "--out", str(tmp_path / "serial.csv"))  # in this process
    assert serial.returncode == 0, serial.stderr.decode()
    done = run_cli(folder, *common, "--out", tmp_path / "tls.csv", "--executor", f"dask:{address}",
                   "--tls-ca", files.ca, "--tls-cert", files.cert, "--tls-key", files.key)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "tls.csv").read_bytes() == (tmp_path / "serial.csv").read_bytes()
    with open(tmp_path / "tls.csv", newline="") as rows:
        snooped = [row for row in csv.DictReader(rows) if "snoop" in (row["first"], row["second"])]
    assert len(snooped) == 3 * 6 and {row["value"] for row in snooped} == {"LookupError: no dice generator in reach"}

    # without certificates the command says what it needs, in one line, before anything is played
    bare = amoeboid("tournament", str(folder), *common, "--out", str(tmp_path / "bare.csv"), "--executor",
                    f"dask:{address}")
    refusal = bare.stderr.decode()
    assert bare.returncode == 2 and refusal.count("\n") == 1 and "--tls-ca" in refusal, refusal
    assert not (tmp_path / "bare.csv").exists()


def test_a_member_without_a_certificate_of_the_class_ca_is_refused(tmp_path, tls_cluster, monkeypatch):
    """What a stranger's worker would need to take part: a certificate the class's CA signed."""
    address, files = tls_cluster
    stranger = authority(tmp_path / "stranger-ca", "stranger")
    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", 5)
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler"):
        list(map_unordered(abs, [-1], parse_executor(f"dask:{address}", stranger)))
    assert list(map_unordered(abs, [-1, 2], parse_executor(f"dask:{address}", files))) in ([(0, 1), (1, 2)],
                                                                                          [(1, 2), (0, 1)])


def test_tls_settings_that_cannot_work_are_refused_in_one_line(tmp_path):
    (tmp_path / "ca.pem").write_text("not a certificate")
    files = TLSFiles(str(tmp_path / "ca.pem"), str(tmp_path / "missing.pem"))
    with pytest.raises(ValueError, match="needs this client's certificates"):
        parse_executor("dask:tls://127.0.0.1:8786")
    with pytest.raises(ValueError, match="not tls://ADDRESS"):
        parse_executor("dask:tcp://127.0.0.1:8786", files)
    with pytest.raises(ValueError, match="for a dask:tls://ADDRESS executor only"):
        parse_executor("processes:2", files)
    with pytest.raises(ValueError, match="missing.pem' is not a readable file"):
        parse_executor("dask:tls://127.0.0.1:8786", files)
