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
