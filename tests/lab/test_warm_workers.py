"""A run starts one worker per strategy, whose template forks each lane's game process (not a worker per lane)."""

from __future__ import annotations

import sys

import pytest

import hostile
from amoeboid_edu.lab import score, tournament
from amoeboid_edu.sandbox import harness

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="a fork server is Linux's")


@pytest.fixture
def started(monkeypatch):
    """The workers started (``Sandbox._start`` calls) during the test."""
    calls: list[dict] = []
    original = harness.Sandbox._start

    def counting(self):
        calls.append(self.load)
        original(self)

    monkeypatch.setattr(harness.Sandbox, "_start", counting)
    return calls


def test_a_card_starts_one_worker_for_all_its_lanes(started):
    card = score(hostile.plays_fair, games=2, seed=3, opponents=["random", "greedy", "paper"], workers=1,
                 progress=False)
    assert len(card.records) == 6 and not any(record.forfeit_by for record in card.records)
    assert len(started) == 1  # six lanes (three opponents, two seats)


def test_a_tournament_starts_one_worker_per_entrant_and_plays_as_before(started):
    entrants = [hostile.plays_fair, hostile.counts_its_moves, "greedy"]
    result = tournament(entrants, games=4, seed=5, progress=False, batch_pairs=1)
    assert len(started) == 2  # twelve lanes in six batches; the bot needs no worker
    again = tournament(entrants, games=4, seed=5, progress=False, batch_pairs=1, executor="processes:2")
    assert [record.moves for record in result.records] == [record.moves for record in again.records]


@pytest.fixture
def calls(monkeypatch):
    """The order of the harness's steps during the test: a worker's process started, a worker loaded, a game
    process forked, a game process's import waited for."""
    seen: list[str] = []
    for step in ("_popen", "_start_and_load", "_send_game", "_new_game"):
        original = getattr(harness.Sandbox, step)

        def recording(self, *args, _step=step, _original=original):
            seen.append(_step)
            return _original(self, *args)

        monkeypatch.setattr(harness.Sandbox, step, recording)
    return seen


def test_a_serial_tournament_starts_every_entrants_worker_side_by_side(calls):
    entrants = [hostile.plays_fair, hostile.counts_its_moves, hostile.plays_fair, "greedy"]
    result = tournament(entrants, games=2, seed=5, progress=False)
    assert not any(record.forfeit_by for record in result.records)
    assert calls.count("_popen") == 3 and calls.index("_start_and_load") > max(
        i for i, step in enumerate(calls) if step == "_popen")  # all three started before the first is waited for


def test_the_lanes_of_a_pairing_fork_their_game_processes_before_either_import_is_waited_for(calls):
    card = score(hostile.plays_fair, games=2, seed=3, opponents=["greedy"], workers=1, progress=False)
    assert not any(record.forfeit_by for record in card.records)
    # the worker's start forks the first seat's game process and waits for its import (a broken strategy is known
    # at once); the second seat's is forked before that, its import waited for only when it is asked to move; and
    # no lane forks a game process it does not play
    started, second_seat = [i for i, step in enumerate(calls) if step == "_new_game"][:2]
    assert calls[started:second_seat].count("_send_game") == 2 and calls.count("_send_game") == 2
