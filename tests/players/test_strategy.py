"""Strategy helpers: the smallest splits are really the smallest, candidate turns are legal and meaningful."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from amoeboid_edu import Amoeba, Position, is_legal, legal_turns, random_playout, seeded_rng
from amoeboid_edu.players.strategy import (
    advantage_after,
    as_function,
    can_eat,
    candidate_turns,
    grown,
    half,
    smallest_capture,
    smallest_eat,
    smallest_neutralisation,
    strategy_name,
)

amoebae = st.builds(Amoeba, st.integers(0, 12), st.integers(0, 12)).filter(lambda x: x.size > 0)


def splits(source: Amoeba, target: Amoeba):
    """Every legal way to move units of ``source`` onto ``target``, smallest first."""
    options = [(x, y) for x in range(source.a + 1) for y in range(source.b + 1) if x + y >= max(1, target.size)]
    return sorted(options, key=lambda xy: (sum(xy), xy))


@settings(max_examples=300, deadline=None)
@given(amoebae, amoebae)
def test_smallest_neutralisation_is_minimal(source, target):
    neutral = [(x, y) for x, y in splits(source, target) if target.a + x == target.b + y]
    got = smallest_neutralisation(source, target)
    assert got == (min(neutral, key=sum) if neutral else None)


@settings(max_examples=300, deadline=None)
@given(amoebae, amoebae, st.sampled_from("AB"))
def test_smallest_capture_is_minimal_and_captures(source, target, mover):
    def owner_after(x, y):
        return Amoeba(target.a + x, target.b + y).owner

    capturing = [xy for xy in splits(source, target) if owner_after(*xy) == mover]
    got = smallest_capture(source, target, mover)
    if got is None:
        # no capture that uses only the mover's own units exists
        assert not [xy for xy in capturing if (xy[1] if mover == "A" else xy[0]) == 0]
    else:
        assert got in capturing and sum(got) == min(sum(xy) for xy in capturing)


@settings(max_examples=300, deadline=None)
@given(amoebae, amoebae, st.sampled_from("AB"))
def test_smallest_eat(source, target, mover):
    got = smallest_eat(source, target, mover)
    if source.size < target.size:
        assert got is None
    else:
        assert got in splits(source, target) and sum(got) == target.size
        own = got[0] if mover == "A" else got[1]
        assert own == min(target.size, source.a if mover == "A" else source.b)  # own units first


def test_half_is_the_papers_split_in_half():
    assert half(Amoeba(0, 8)) == (0, 4) and half(Amoeba(9, 0)) == (4, 0) and half(Amoeba(1, 0)) is None


def test_candidate_turns_are_legal_distinct_and_include_the_papers_moves():
    position = Position.parse(". . . / . (18,4) . / (0,3) . (0,7) A")
    turns = [str(t) for t in candidate_turns(position, 6)]
    assert len(turns) == len(set(turns)) and all(is_legal(position, t) for t in turns)
    assert "6 b2 b2-c3 7,0" in turns  # the exact neutralisation of (0,7)
    assert "6 b2 b2-c3 8,0" in turns  # the smallest capture
    assert "6 b2 b2-a3 24,4" in turns  # the whole amoeba
    assert "6 b2 b2-b1 12,2" in turns  # half of it
    assert len(turns) < position.count_legal_turns(6) / 10


def test_candidate_turns_on_random_positions_are_legal_and_never_empty():
    for seed in range(300):
        position = random_playout(Position.start(4), seeded_rng(seed, "candidates"), max_turns=seed % 25).final
        if position.is_over:
            continue
        roll = 1 + seed % 6
        candidates = list(candidate_turns(position, roll))
        legal = {str(t) for t in legal_turns(position, roll)}
        assert candidates and {str(t) for t in candidates} <= legal
        passes = [t for t in candidates if t.is_pass]
        assert all(str(t) in legal for t in passes)


def test_reading_helpers():
    position = Position.parse("(4,0) (0,3) . / . . . / . . (0,1) A")
    mid = grown(position, "a1", 2)
    assert mid["a1"] == Amoeba(6, 0) and mid.to_move == "A"
    assert can_eat(position, "a1", "b1") and not can_eat(position, "a1", "c3")
    assert advantage_after(position, "2 a1 a1-b1 6,0") == ((6 - 1) - (3 + 1 - 1), 9 - 1)  # sigma_A 5, sigma_B 3; A owns (6,3), B (0,1)
    assert advantage_after(position, "2 a1 a1-b1 6,0", "B") == (-2, -8)


def test_strategy_interface_accepts_functions_and_objects():
    def mine(position, roll, rng):
        return next(legal_turns(position, roll))

    class Chooser:
        name = "chooser"

        def choose(self, position, roll, rng):
            return mine(position, roll, rng)

    for strategy in (mine, Chooser()):
        turn = as_function(strategy)(Position.start(), 3, random.Random(0))
        assert is_legal(Position.start(), turn)
    assert strategy_name(mine) == "mine" and strategy_name(Chooser()) == "chooser"
