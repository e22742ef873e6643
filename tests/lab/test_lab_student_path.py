"""What a fresh student tripped on in lesson 9 and the class tournament (issue 25, second pass): each found the way a
student found it, through ``score``, ``hand_in``, ``tournament`` and ``amoeboid``."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from amoeboid_edu import legal_turns
from amoeboid_edu.lab import score

# --------------------------------------------------------------------------- the per-move limit counts CPU time

LIMIT = 0.5


def _busy_once(cpu_seconds: float):
    """A strategy whose first move computes for ``cpu_seconds`` of CPU time; the others play at once."""
    busy = [cpu_seconds]

    def strategy(position, roll, rng):
        if busy:
            start = time.process_time()
            while time.process_time() - start < busy[0]:
                pass
            busy.clear()
        return next(legal_turns(position, roll))

    return strategy


@pytest.fixture
def a_busy_core():
    """This process and its future workers on one core, beside three processes that keep that core busy: a move
    gets a quarter of the core or less, as on a class's machine at load 7."""
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("needs sched_setaffinity (Linux)")
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        os.sched_setaffinity(0, before)


def test_a_move_that_computes_within_the_limit_is_not_forfeited_on_a_loaded_machine(a_busy_core):
    card = score(_busy_once(0.6 * LIMIT), games=2, seed=4, opponents=["random"], progress=False,
                 per_move_limit=LIMIT, workers=1)
    assert card.forfeits().empty, card.forfeits()[["reason", "value"]].to_string()


def test_a_move_that_computes_for_three_times_the_limit_is_forfeited():
    card = score(_busy_once(3 * LIMIT), games=2, seed=4, opponents=["random"], progress=False,
                 per_move_limit=LIMIT, workers=1)
    forfeits = card.forfeits()
    assert list(forfeits["reason"]) == ["timeout"], forfeits
    assert f"{LIMIT:g} s of CPU time" in forfeits["value"].iloc[0]


def test_a_move_that_waits_is_stopped_by_the_wall_clock_and_told_so():
    def waits(position, roll, rng):
        time.sleep(60)

    card = score(waits, games=2, seed=4, opponents=["random"], progress=False, per_move_limit=0.1, workers=1)
    forfeits = card.forfeits()
    assert list(forfeits["reason"]) == ["timeout"], forfeits
    assert "waited 1 s without using the CPU" in forfeits["value"].iloc[0]
