"""The processes of a sandbox, seen through Linux's ``/proc`` and ``prctl``: find every descendant of a process,
kill them all, and tie a process's life to its parent's.

Used by both ends: the harness sweeps a worker's tree after a game process that would not stop, and the worker's
supervisor sweeps its own when the harness goes.  Standard library only.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from typing import Sequence

SWEEP_ROUNDS = 50
"""Times :func:`sweep` looks again for processes started while it was killing the others."""
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def descendants(root: int) -> list[int]:
    """Every living process below ``root`` (by parent links in ``/proc``), nearest first."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:
            continue
        if fields and fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(name))
    found, frontier = [], [root]
    while frontier:
        frontier = [child for parent in frontier for child in children.get(parent, [])]
        found += frontier
    return found


def sweep(root: int, keep: Sequence[int] = ()) -> None:
    """SIGKILL every descendant of ``root`` except ``keep`` (theirs die too), until none is left."""
    for _ in range(SWEEP_ROUNDS):
        targets = [pid for pid in descendants(root) if pid not in keep]
        if not targets:
            return
        for pid in targets:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.001)


def prctl(option: int, value: int) -> None:
    """``prctl(option, value)`` for this process; OSError if the kernel refuses."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))


def die_with(parent: int) -> None:
    """SIGKILL this process when ``parent`` dies; exit now if it already has."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def die_with_parent(parent: int) -> None:
    """SIGKILL this process when ``parent``, the process that started it, dies; exit now if it already has.

    For the lab's own helper processes (the parallel harnesses of ``workers=K``, the pool workers of
    ``processes:K``): a SIGKILLed scorer takes them down, and with them, through each supervisor's life pipe,
    every sandbox they started (without it they would be re-parented to PID 1 and keep playing).
    The signal follows the parent *thread* that started the process: the lab starts them from the thread that
    called it, which waits for them.  Linux only; elsewhere nothing happens.
    """
    if sys.platform == "linux":
        die_with(parent)

