"""Where the lab's batches run: the one executor abstraction of a score card and a tournament."""

from __future__ import annotations

import os
import signal
import time

import pytest

from amoeboid_edu.lab.executors import Executor, map_unordered, parse_executor


def report_then_sleep(batch: tuple[int, float], emit=None) -> int:
    """A batch: say which process runs it, take a while, hand back its number (shipped by reference)."""
    number, seconds = batch
    if emit is not None:
        emit(os.getpid())
    time.sleep(seconds)
    return number


def start_a_helper(batch: int, emit=None) -> int:
    """A batch that starts a process of its own, kept for the pool process's life and stopped as it exits (as the
    lab's warm sandbox workers are): say its pid."""
    import atexit
    import subprocess

    helper = subprocess.Popen(["sleep", "60"])
    atexit.register(lambda: (helper.kill(), helper.wait()))
    if emit is not None:
        emit(helper.pid)
    return batch


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_batch_whose_pool_process_is_killed_is_played_again_here():
    batches = [(number, 1.0) for number in range(4)]
    runners: dict[int, list[int]] = {}
    killed: list[int] = []

    def on_item(index: int, pid: int) -> None:
        runners.setdefault(index, []).append(pid)
        if not killed and pid != os.getpid():
            killed.append(pid)
            os.kill(pid, signal.SIGKILL)

    results = dict(map_unordered(report_then_sleep, batches, Executor("processes", 2), on_item=on_item))
    assert results == {index: number for index, (number, _) in enumerate(batches)}
    replayed = [index for index, pids in runners.items() if killed[0] in pids]
    assert len(replayed) == 1 and runners[replayed[0]] == [killed[0], os.getpid()]


def test_a_finished_pool_stops_its_processes_so_that_what_they_started_is_gone_when_the_run_returns():
    helpers: list[int] = []
    results = dict(map_unordered(start_a_helper, [0, 1], Executor("processes", 2),
                                 on_item=lambda index, pid: helpers.append(pid)))
    try:
        assert results == {0: 0, 1: 1} and len(helpers) == 2
        assert all(gone(pid) for pid in helpers)  # no later: each pool process stopped them before it exited
    finally:
        for pid in helpers:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_serial_batch_is_prepared_after_every_earlier_result_was_handed_over():
    handed: list[int] = []
    asked: list[tuple[int, int]] = []

    def prepare(index: int, batch: tuple[int, float]) -> tuple[int, float] | None:
        asked.append((index, len(handed)))
        return None if index == 2 else batch

    for index, result in map_unordered(report_then_sleep, [(n, 0.0) for n in range(4)], Executor("serial"),
                                       prepare=prepare):
        handed.append(index)
        assert result == (None if index == 2 else index)
    assert asked == [(0, 0), (1, 1), (2, 2), (3, 3)]


def test_leaving_a_parallel_run_early_stops_its_pool():
    pids: list[int] = []
    results = map_unordered(report_then_sleep, [(0, 60.0), (1, 0.0)], Executor("processes", 2),
                            on_item=lambda index, pid: pids.append(pid))
    assert next(results) == (1, 1)  # the other batch is still playing
    results.close()
    assert pids and all(gone(pid) for pid in pids)


@pytest.mark.parametrize("text, problem", [("processes:0", "whole number K >= 1"), ("threads:2", "expected serial"),
                                           ("dask:", "scheduler's address")])
def test_a_bad_executor_is_one_line_naming_it(text, problem):
    with pytest.raises(ValueError, match=problem):
        parse_executor(text)


def test_a_pool_process_imports_neither_numpy_nor_openspiel_to_play_games():
    """A processes:K pool process imports the lab to play its batches: NumPy (ratings) and OpenSpiel (``mcts``) load
    only where they are used, so each pool process starts a few tenths of a CPU-second sooner."""
    import subprocess
    import sys

    script = ("import sys; import amoeboid_edu.lab.executors, amoeboid_edu.lab.scoring; "
              "print(sorted(m for m in ('numpy', 'pyspiel', 'amoeboid_edu.players.openspiel') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
