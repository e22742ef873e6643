"""Strategies a 17-year-old writes on the way through lesson 9, mistakes included (issue 25)."""

from __future__ import annotations

import amoeboid_edu
from amoeboid_edu.players.bots import greedy
from amoeboid_edu.players.strategy import advantage_after, candidate_turns


def best_delta(position, roll, rng):
    """Deterministic: the first candidate turn with the best (Delta, delta) after it."""
    return max(candidate_turns(position, roll), key=lambda turn: advantage_after(position, turn)[::-1])


def best_delta_but_rarely(position, roll, rng):
    """best_delta, except in a position that almost never occurs (a 9 on a1 with exactly 3 amoebae and a roll of 6)."""
    cell = position["a1"]
    if roll == 6 and cell is not None and cell.size == 9 and len(position.amoebae()) == 3:
        return next(iter(candidate_turns(position, roll)))
    return best_delta(position, roll, rng)


def first_turn(position, roll, rng):
    """The weakest sensible strategy: the first legal turn."""
    return next(amoeboid_edu.legal_turns(position, roll))


def forgets_return(position, roll, rng):
    """Chooses a turn and forgets to return it."""
    turn = greedy(position, roll, rng)
    turn = turn


def changes_the_position(position, roll, rng):
    """Tries to hand the move over by assigning to the position (a frozen dataclass)."""
    position.to_move = "B"
    return greedy(position, roll, rng)


def malformed_each_time_differently(position, roll, rng):
    """Returns notation that never parses, different every move."""
    return f"move {rng.randint(1, 10**6)}"


def loops_forever(position, roll, rng):
    """An endless loop: the per-move limit must stop it, and the card say where."""
    n = 0
    while n >= 0:
        n += 1
    return None


def prints_too_much(position, roll, rng):
    """Prints 100,000 lines a move: the printing itself takes the time."""
    for i in range(100_000):
        print("thinking about", i)
    return greedy(position, roll, rng)


def prints_a_little(position, roll, rng):
    """Prints a line a move and plays greedy: the prints are hidden, and the card says so."""
    print("my roll is", roll)
    return greedy(position, roll, rng)
