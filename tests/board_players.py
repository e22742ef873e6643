"""The test suite's own player for driving the board: independent of the widget and of the bots."""

from __future__ import annotations

import random

from amoeboid_edu import Position, Turn
from amoeboid_edu.players.strategy import advantage_after, candidate_turns


def choose(position: Position, roll: int, rng: random.Random) -> Turn:
    """The best one-ply (Delta, delta) among the meaningful turns, ties broken at random: games end quickly."""
    turns = list(candidate_turns(position, roll))
    best = max(advantage_after(position, turn)[::-1] for turn in turns)
    return rng.choice([turn for turn in turns if advantage_after(position, turn)[::-1] == best])
