"""Games per second of a class tournament on each executor (prints figures, asserts nothing).

    .venv/bin/python bench/tournament.py [--students 4] [--games 100] [--batch 50] [--dask]

A folder of ``--students`` student files (the five-line ``wander`` strategy under
different names) plays a round robin of ``--games`` games per pairing, each
student in its own sandbox worker, serially, on ``processes:2``, and with
``--dask`` on a real Dask scheduler with two single-threaded workers started
here on 127.0.0.1 (and stopped afterwards).  Wall-clock seconds of the whole
``lab.tournament`` call, results file and leaderboard included.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from amoeboid_edu import lab
from amoeboid_edu.lab.contest import BATCH_PAIRS

STUDENT = '''
from amoeboid_edu import legal_move_pairs


def strategy(position, roll, rng):
    grow = rng.choice(position.owned())
    pairs = legal_move_pairs(position, roll, grow)
    return f"{roll} {grow} {'-'.join(rng.choice(pairs))}" if pairs else f"{roll} {grow} -"
'''


def start_dask(workers: int) -> tuple[str, list[subprocess.Popen]]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    dask = shutil.which("dask", path=str(Path(sys.executable).parent))
    address = f"tcp://127.0.0.1:{port}"
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    started = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                **quiet)]  # fmt: skip
    for _ in range(workers):
        started.append(subprocess.Popen([dask, "worker", address, "--nworkers", "1", "--nthreads", "1", "--host",
                                         "127.0.0.1", "--no-dashboard"], **quiet))  # fmt: skip
    from distributed import Client

    with Client(address, timeout=60) as client:
        client.wait_for_workers(workers, timeout=120)
    return address, started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--batch", type=int, default=BATCH_PAIRS)
    parser.add_argument("--dask", action="store_true", help="also a real Dask scheduler with 2 workers")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="amoeboid-bench-"))
    folder = work / "class"
    folder.mkdir()
    for number in range(args.students):
        (folder / f"student{number}.py").write_text(STUDENT)
    executors = ["serial", "processes:2"]
    started: list[subprocess.Popen] = []
    if args.dask:
        address, started = start_dask(2)
        executors.append(f"dask:{address}")
    games = args.students * (args.students - 1) // 2 * args.games
    print(f"{args.students} students, {games} games, batches of {2 * args.batch} games, {os.cpu_count()} cores")
    try:
        files = []
        for executor in executors:
            out = work / f"{executor.split(':')[0]}.csv"
            began = time.perf_counter()
            lab.tournament(folder, games=args.games, seed="bench", out=out, executor=executor, progress=False,
                           batch_pairs=args.batch)  # fmt: skip
            seconds = time.perf_counter() - began
            files.append(out.read_bytes())
            print(f"  {executor.split(':')[0] + (':2' if executor.startswith('dask') else ''):<12} "
                  f"{seconds:7.1f} s wall  {games / seconds:7.1f} games/s")  # fmt: skip
        print(f"  same rows on every executor: {all(f == files[0] for f in files)}")
    finally:
        for process in started:
            os.killpg(process.pid, signal.SIGTERM)
        for process in started:
            process.wait()
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
