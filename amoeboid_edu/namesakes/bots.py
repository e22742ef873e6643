"""Bots for the namesakes: random, greedy (one ply) and a search bot per game.

Every bot is a function ``(position, rng) -> move``: the rng is the only
source of randomness (ties are broken with it), so a seeded game replays.

* Nakajima: :func:`nakajima_search` is alpha-beta (negamax) to a fixed depth;
  a won position scores +-WIN (sooner is better), other leaves score the
  difference in controlled stacks, the designer's own tie-break.  Repetition
  is not seen by the search.
* Oosterwal: :func:`oosterwal_search` is **max-n** (Luckhardt and Irani, 1986)
  to a fixed depth in turns: each player, at its turn, picks the child whose
  score vector is best for itself; leaves are the score vectors.  To stay
  quick it looks at the ``width`` best-scoring placements at each node, with
  every chip spot (a chip changes what the next players can score), except on
  the last ply, where a chip cannot change the leaf's scores and one spot
  stands for all.  A player's utility is its score minus the best rival's
  (with two players this is zero-sum, and max-n is minimax).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from . import nakajima, oosterwal

WIN = 10_000

# ---------------------------------------------------------------------------- Nakajima


def _stack_lead(position: nakajima.Position) -> int:
    """Controlled stacks of the side to move minus the other side's."""
    counts = nakajima.stack_counts(position)
    return counts[position.to_move] - counts[nakajima.other(position.to_move)]


def nakajima_random(position: nakajima.Position, rng: random.Random) -> nakajima.Move:
    return nakajima.random_move(position, rng)


Choice = TypeVar("Choice")


def _best(scored: Sequence[tuple[float, Choice]], rng: random.Random) -> Choice:
    """One of the best-scored choices, drawn with ``rng`` among equals."""
    top = max(score for score, _ in scored)
    return rng.choice([move for score, move in scored if score == top])


def nakajima_greedy(position: nakajima.Position, rng: random.Random) -> nakajima.Move:
    """One ply: a winning move if there is one, else the move leaving the biggest lead in controlled stacks."""
    scored = []
    for move in nakajima.legal_moves(position):
        after = nakajima.apply(position, move)
        scored.append((WIN if after.result == position.to_move else -_stack_lead(after), move))
    return _best(scored, rng)


def _negamax(position: nakajima.Position, depth: int, alpha: float, beta: float) -> float:
    if position.result != "ongoing":
        return WIN + depth if position.result == position.to_move else -WIN - depth
    if depth == 0:
        return _stack_lead(position)
    best = -float("inf")
    for move in nakajima.legal_moves(position):
        value = -_negamax(nakajima.apply(position, move), depth - 1, -beta, -alpha)
        best = max(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best


def nakajima_search(depth: int = 2) -> Callable[[nakajima.Position, random.Random], nakajima.Move]:
    """An alpha-beta bot looking ``depth`` plies ahead; equal moves are chosen between with the rng."""

    def search(position: nakajima.Position, rng: random.Random) -> nakajima.Move:
        scored = [
            (-_negamax(nakajima.apply(position, move), depth - 1, -float("inf"), float("inf")), move)
            for move in nakajima.legal_moves(position)
        ]
        return _best(scored, rng)

    search.__name__ = f"alphabeta{depth}"
    return search


# ---------------------------------------------------------------------------- Oosterwal


def oosterwal_random(position: oosterwal.Position, rng: random.Random) -> oosterwal.Turn:
    return oosterwal.random_turn(position, rng)


def oosterwal_greedy(position: oosterwal.Position, rng: random.Random) -> oosterwal.Turn:
    """One ply: the highest-scoring placement (ties at random); the chip goes to a random legal spot."""
    cell, pips, _ = _best([(score, (cell, pips, score)) for cell, pips, score in oosterwal.placements(position)], rng)
    return oosterwal.Turn(cell, pips, rng.choice(position.chip_spots()))


def _candidates(position: oosterwal.Position, width: int, last_ply: bool) -> list[oosterwal.Turn]:
    ranked = sorted(oosterwal.placements(position), key=lambda item: -item[2])[:width]
    spots = position.chip_spots()
    spots = spots[:1] if last_ply else spots
    return [oosterwal.Turn(cell, pips, spot) for cell, pips, _ in ranked for spot in spots]


def _lead(scores: tuple[int, ...], player: int) -> int:
    """A player's utility: its score minus the best rival's."""
    return scores[player] - max(score for other, score in enumerate(scores) if other != player)


def _maxn(position: oosterwal.Position, depth: int, width: int) -> tuple[int, ...]:
    """The score vector reached when every player, in turn, picks the child best for its own lead."""
    if depth == 0 or position.is_over:
        return position.scores
    mover = position.to_move
    children = (
        _maxn(oosterwal.apply(position, turn), depth - 1, width) for turn in _candidates(position, width, depth == 1)
    )
    return max(children, key=lambda scores: _lead(scores, mover))


def oosterwal_search(depth: int = 2, width: int = 4) -> Callable[[oosterwal.Position, random.Random], oosterwal.Turn]:
    """A max-n bot ``depth`` turns deep: every player, itself and each rival, maximises its own lead."""

    def search(position: oosterwal.Position, rng: random.Random) -> oosterwal.Turn:
        mover = position.to_move
        scored = [
            (_lead(_maxn(oosterwal.apply(position, turn), depth - 1, width), mover), turn)
            for turn in _candidates(position, width, depth == 1)
        ]
        return _best(scored, rng)

    search.__name__ = f"maxn{depth}"
    return search


NAKAJIMA_BOTS = {"random": nakajima_random, "greedy": nakajima_greedy, "alphabeta": nakajima_search(2)}
OOSTERWAL_BOTS = {"random": oosterwal_random, "greedy": oosterwal_greedy, "maxn": oosterwal_search(2)}

__all__ = [
    "NAKAJIMA_BOTS", "OOSTERWAL_BOTS", "nakajima_greedy", "nakajima_random", "nakajima_search",
    "oosterwal_greedy", "oosterwal_random", "oosterwal_search",
]  # fmt: skip
