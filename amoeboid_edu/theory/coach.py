"""The coach: a win chance for any position, hints for the turn at hand, and a review of a whole game.

**What a win chance means here.**  ``win_chance(position)`` is the chance that A
wins (a tie counting half) *if, from here, both sides play like the greedy bot
(:func:`~amoeboid_edu.players.bots.greedy`) for the next two turns and then like the
engine's random player* (:func:`~amoeboid_edu.engine.game.random_turn`) to the end: an
estimate of how the game goes on under that stated policy, not a game-theoretic
value.  The two greedy turns see every immediate threat (a reply that eats, the
answer to it); the random tail values what is left.  (Greedy to the end was the
first choice, but its rollouts cost 1-2 s per position in a crowded mid-game,
ten times the budget.)

How it is computed: the first turn is enumerated, every roll (weight 1/6) and
every turn greedy ties on (weight 1/ties), and each position after it is valued
with the one greedy turn left, then random: exactly when every line ends within
that turn (a finished game, a win next turn, a capture that cannot be answered),
else by :func:`stratified_estimate`: ``ROLLOUTS`` = 385 random tails spread evenly
over that greedy turn's rolls and ties (stratified sampling, the same quantity as
plain rollouts with less variance), each tail the engine's random player on a
numbered dice stream (:mod:`amoeboid_edu.theory._tails`, compiled with Numba when it is
installed, else pure Python with the same numbers).  So its 95% interval is at
most ±5 points whatever the value (a score in [0, 1] has variance at most 1/4,
1.96 * 0.5 / sqrt(385) < 0.05, and a mean of estimates is no wider than they are).
Estimates are cached by (position, greedy turns, seed, rollouts).  Tail j of the
greedy turn's k-th roll (of ``sides``) is played on stream j * sides + k of the
seed (the stream's number indexes the 64-bit words of ``seeded_rng(seed,
"coach")``) whatever the position: common random numbers, so two turns are
compared on the same dice, roll by roll (:func:`difference` pairs their tails),
and an estimate with more tails extends one with fewer.

**One turn of a review**, from position P, mover M, roll r, every number valued
with the same policy, aligned on that turn (M's chances; ``A_`` columns are A's):

- *before* = ``win_chance(P)``: two greedy turns, then random;
- *after the roll* = ``roll_chance(P, r)``: the policy's own turn still to play,
  the mean over greedy's tied turns for r of the win chance after them (the reply
  greedy, then random).  *before* is exactly the mean of *after the roll* over the
  six rolls, so **luck** = after the roll - before has mean zero under the policy:
  a roll is lucky only if it is better than the average roll;
- *after* = the win chance after the turn played, *best* = after the best turn
  found (the turn played or one of greedy's ``REVIEW_CANDIDATES`` most promising),
  both with the same horizon (the reply greedy, then random); **choice** = after -
  after the roll (zero on average when the mover plays like greedy);
- *next* = ``win_chance`` after the turn: the start of the next turn, valued with
  a fresh two-turn window (the result if the game is over).  **horizon** = next -
  after is neither luck nor choice: the same position, valued with one more greedy
  turn (M's next one), which favours M by a few points on average.  The review's
  curve is *before* at every turn, then the end; each step is luck + choice + horizon.

**Review classes** (lichess classifies by win-percentage loss the same way): the
*drop* is best - after.  best: drop < 2 points (the turn played is the best found,
or as good as the estimates can tell); good: < 5 points; inaccuracy: < 10; mistake:
< 20; blunder: 20 or more.  "forced": every legal turn is a pass, or there is only
one legal turn; never a mistake.  So that a class does not hang on the rollouts'
seed, each candidate's gain over the turn played gets a standard error from the
paired tails (both played on the same dice, the error of a difference is about
0.7 times that of two independent estimates); while a class line lies within
``CLEAR_Z`` = 2 such errors of a gain (and no candidate is surely above it), the
turn played and the candidates near that line are valued with twice as many tails,
up to 16 times ``ROLLOUTS`` (the earlier tails kept).  A turn whose class is
already clear costs no more tails.  The class comes from the last values.  Two seeds
then give the same class on about 94% of turns (``bench/coach.py``); what still
differs is a drop within a point or so of a line.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..players.bots import _ranked, greedy_choices
from ..engine.game import TURN_CAP, Game, random_playout
from ..engine.seeding import seeded_rng
from ..engine.rules import Board, Position, Turn, apply, cells_after_legal, count_legal_turns, other
from ..players.strategy import candidate_turns

if TYPE_CHECKING:  # imported where they are used: pandas takes a while to import, the drawing is the ui layer's
    import pandas as pd

    from ..ui.render import Svg

POLICY = "greedy for two turns, then random"
"""The policy, both sides: ``bots.greedy`` for ``GREEDY_PLIES`` turns, then ``game.random_turn``."""
ROLLOUTS = 385
"""Rollouts per estimate: the smallest n with 1.96 * 0.5 / sqrt(n) <= 0.05 (a ±5-point 95% interval)."""
Z95 = 1.96
GREEDY_PLIES = 2
"""Rollouts play greedy for this many turns (the reply to a turn and the answer to it), then the random player."""
MAX_ROLLOUT_TURNS = TURN_CAP
"""A rollout's random part still going after this many turns counts as a tie: the one turn cap, as in a game."""
EXACT_NODE_BUDGET = 30
"""Positions of the greedy tree the exact evaluation may visit before rollouts take over."""
HINT_CANDIDATES = 5
"""Hints estimate greedy's 5 most promising candidate turns (``strategy.candidate_turns``) for the roll."""
REVIEW_CANDIDATES = 3
"""A review looks for a better turn among greedy's 3 most promising candidates (and the turn played)."""
CLASSES = (("best", 0.02), ("good", 0.05), ("inaccuracy", 0.10), ("mistake", 0.20), ("blunder", math.inf))
"""Drop in the mover's win chance (from the best turn found) below which a turn gets each class."""
LINES = tuple(limit for _, limit in CLASSES[:-1])
"""The class lines: a review refines a turn's estimates until its drop is clearly on one side of each."""
REFINE_FACTOR = 2
REFINE_LEVELS = 5
"""A review values the turn played and the candidates with ``ROLLOUTS`` tails, then 2, 4, 8 and 16 times as many
(only the new tails are played) while a class line is within ``CLEAR_Z`` standard errors of a gain over the turn
played (see :func:`_refined`)."""
CLEAR_Z = 2.0
MISTAKES = ("inaccuracy", "mistake", "blunder")
COLUMNS = (
    "turn", "player", "roll", "played", "class", "best", "best_win", "win_before", "win_after_roll", "win_after",
    "win_next", "drop", "luck", "choice", "horizon", "accuracy", "A_before", "A_after_roll", "A_after", "A_next",
)
"""The review frame's columns (see :func:`review`)."""


@dataclass(frozen=True)
class Estimate:
    """A's win chance (a tie counts half) under the coach's policy (greedy turns, then random), with its 95%
    interval (``rollouts`` is 0 when it is exact)."""

    value: float
    half_width: float
    rollouts: int  # 0 when exact
    spread: float | None = field(default=None, compare=False, repr=False)
    """The standard error measured from the tails' own scores (None: not measured, use ``half_width / 1.96``)."""
    tails: tuple[np.ndarray, ...] | None = field(default=None, compare=False, repr=False)
    """A :func:`stratified_estimate`'s tails, roll by roll: twice each tail's score (uint8), stream order."""
    ties: tuple[int, ...] | None = field(default=None, compare=False, repr=False)
    """With ``tails``: the number of greedy's tied turns for each roll (tail j of a roll went to tie j % ties)."""

    @property
    def std_error(self) -> float:
        """The measured standard error, or the bound behind ``half_width`` when none was measured."""
        return self.half_width / Z95 if self.spread is None else self.spread

    @property
    def exact(self) -> bool:
        return self.rollouts == 0

    @property
    def interval(self) -> tuple[float, float]:
        return max(0.0, self.value - self.half_width), min(1.0, self.value + self.half_width)

    def for_player(self, player: str) -> float:
        """The win chance of ``player`` ("A" or "B")."""
        return self.value if player == "A" else 1.0 - self.value

    def __str__(self) -> str:
        if self.exact:
            return f"{self.value:.1%} (exact)"
        return f"{self.value:.1%} ± {self.half_width * 100:.1f} points ({self.rollouts} rollouts)"


# --------------------------------------------------------------------------- the policy, cached


_CHOICES: dict[tuple[Position, int], tuple[Position, ...]] = {}
_CHOICES_LIMIT = 200_000


def _policy_choices(position: Position, roll: int) -> tuple[Position, ...]:
    """The positions greedy's tied best turns lead to (greedy picks one uniformly): cached."""
    key = (position, roll)
    choices = _CHOICES.get(key)
    if choices is None:
        if len(_CHOICES) >= _CHOICES_LIMIT:
            _CHOICES.clear()
        board, mover, rules = position.board, other(position.to_move), position.rules
        choices = _CHOICES[key] = tuple(  # greedy's turns are legal: the cells need no second check
            Position.unchecked(board, tuple(cells_after_legal(position, turn)), mover, rules)
            for turn in greedy_choices(position, roll)
        )
    return choices


def _score(position: Position) -> float:
    """A's score in a finished game: 1 won, 1/2 tie, 0 lost."""
    return {"A": 1.0, "tie": 0.5, "B": 0.0}[position.result]


def rollout(
    position: Position, rng: random.Random, max_turns: int = MAX_ROLLOUT_TURNS, greedy_turns: int = GREEDY_PLIES
) -> float:
    """A's score after ``greedy_turns`` turns of greedy, then the engine's random player, dice and choices from ``rng``.

    The same game, draw for draw, as ``greedy(position, roll, rng)`` for the first
    turns and then :func:`~amoeboid_edu.engine.game.random_playout` with the same generator.
    A game still going after ``max_turns`` random turns counts as a tie.
    """
    sides = position.rules.die_sides
    for _ in range(greedy_turns):
        if position.is_over:
            return _score(position)
        choices = _policy_choices(position, rng.randint(1, sides))
        position = choices[0] if len(choices) == 1 else rng.choice(choices)
    final = random_playout(position, rng, max_turns).final
    return _score(final) if final.is_over else 0.5


@lru_cache(maxsize=8)
def _dice_states(seed: int | str, rollouts: int) -> tuple[tuple[Any, ...], ...]:
    return tuple(seeded_rng(seed, "coach", i).getstate() for i in range(rollouts))


class _TooBig(Exception):
    pass


def exact_value(
    position: Position, node_budget: int = EXACT_NODE_BUDGET, greedy_turns: int = GREEDY_PLIES
) -> float | None:
    """A's exact score under the policy when every line ends within its ``greedy_turns`` greedy turns, else None.

    Every roll weighted by its probability, every tied greedy turn by 1/ties:
    an expectimax over chance and the policy's choices (at most ``node_budget``
    positions).  Exact for finished games, wins next turn and unanswerable captures.
    """
    visited = 0

    def value(node: Position, depth: int) -> Fraction:
        nonlocal visited
        if node.is_over:
            return Fraction(_score(node))
        visited += 1
        if visited > node_budget or depth >= greedy_turns:
            raise _TooBig
        total = Fraction(0)
        for roll, probability in node.dice_outcomes():
            choices = _policy_choices(node, roll)
            total += probability * sum((value(child, depth + 1) for child in choices), Fraction(0)) / len(choices)
        return total

    try:
        return float(value(position, 0))
    except _TooBig:
        return None


def rollout_estimate(
    position: Position, *, rollouts: int = ROLLOUTS, seed: int | str = 0, greedy_turns: int = GREEDY_PLIES
) -> Estimate:
    """The mean of ``rollouts`` seeded rollouts (rollout i on ``seeded_rng(seed, "coach", i)``): see :func:`rollout`.

    Plain Monte Carlo over the whole policy (no roll enumerated, no exact shortcut).
    """
    if rollouts < 1:
        raise ValueError(f"rollouts must be at least 1, not {rollouts}")
    rng = random.Random()
    total = 0.0
    for state in _dice_states(seed, rollouts):
        rng.setstate(state)
        total += rollout(position, rng, greedy_turns=greedy_turns)
    return Estimate(total / rollouts, Z95 * 0.5 / math.sqrt(rollouts), rollouts)


def stratified_estimate(
    position: Position, *, rollouts: int = ROLLOUTS, seed: int | str = 0, base: Estimate | None = None
) -> Estimate:
    """A's win chance when the side to move plays its one greedy turn, then both play random: ``rollouts`` random
    tails spread evenly over the rolls and, within a roll, over greedy's tied turns (stratified sampling).

    The value is the mean over the rolls (each 1/sides) of the mean over the tied turns (each 1/ties) of the
    mean score of the tails played from the position after that turn: the same quantity as the plain Monte
    Carlo mean of :func:`rollout` with one greedy turn, with the roll and the tie no longer left to chance (a
    smaller variance).  A turn that ends the game counts its result, with no tail.  Roll k (0-based, of
    ``sides``) gets ``rollouts // sides`` tails, one more for the first ``rollouts % sides`` rolls, and at least
    one per tied turn; its j-th tail goes to tie ``j % ties`` and is played on stream ``j * sides + k``.  The
    tails are the engine's random player on those numbered dice streams (:mod:`amoeboid_edu.theory._tails`:
    compiled with Numba when it is installed, else pure Python, the same numbers), so

    - positions compared are played on the same dice, roll by roll (common random numbers: :func:`difference`
      measures the error of their difference from the paired tails);
    - an estimate with more tails extends one with fewer: given ``base`` (an estimate of the same position and
      seed with fewer tails), only the new tails are played.

    The half-width is 1.96 times the largest standard error the allocation allows (each tail's variance at
    most 1/4); with every stratum filled in proportion it is at most 1.96 * 0.5 / sqrt(rollouts), the plain
    mean's.  The measured standard error (``Estimate.spread``) comes from the tails' own scores.
    """
    from . import _tails

    if rollouts < 1:
        raise ValueError(f"rollouts must be at least 1, not {rollouts}")
    sides = position.rules.die_sides
    plan: list[tuple[tuple[Position, ...], int, int]] = []  # per roll: (greedy's tied turns' positions, old, new count)
    tails: list[np.ndarray] = []  # per roll: twice each tail's score (0, 1 or 2), stream order
    starts: dict[Position, int] = {}
    jobs: list[tuple[int, np.ndarray, int]] = []  # new tails from live positions: (roll index, js, start index)
    for index, (roll, _) in enumerate(position.dice_outcomes()):
        choices = _policy_choices(position, roll)
        ties = len(choices)
        old = 0 if base is None or base.tails is None else len(base.tails[index])
        count = max(old, ties, rollouts // sides + (index < rollouts % sides))
        plan.append((choices, old, count))
        halves = np.empty(count, dtype=np.uint8)
        if old:
            assert base is not None and base.tails is not None
            halves[:old] = base.tails[index]
        for tie, child in enumerate(choices):
            js = np.arange(old + (tie - old) % ties, count, ties, dtype=np.int64)
            if child.is_over:
                halves[js] = round(2 * _score(child))
            elif len(js):
                jobs.append((index, js, starts.setdefault(child, len(starts))))
        tails.append(halves)
    if jobs:
        a0 = np.array([[0 if c is None else c.a for c in child.cells] for child in starts], dtype=np.int64)
        b0 = np.array([[0 if c is None else c.b for c in child.cells] for child in starts], dtype=np.int64)
        a_to_move = np.array([child.to_move == "A" for child in starts], dtype=np.bool_)
        start_of = np.concatenate([np.full(len(js), start, dtype=np.int64) for _, js, start in jobs])
        streams = np.concatenate([js * sides + k for k, js, _ in jobs])  # tail j of roll k: stream j * sides + k
        seeds = _tails.stream_seeds(seed, int(streams.max()) + 1)[streams]
        neighbours, degree = _board_arrays(position.board)
        scores = _tails.scores(a0, b0, a_to_move, start_of, seeds, neighbours, degree, sides, MAX_ROLLOUT_TURNS)
        doubled = np.rint(2 * scores).astype(np.uint8)
        at = 0
        for k, js, _ in jobs:
            tails[k][js] = doubled[at:at + len(js)]
            at += len(js)
    value = variance = measured = 0.0
    for (choices, _, _), halves in zip(plan, tails):
        ties = len(choices)
        weight = 1.0 / (sides * ties)
        for tie in range(ties):
            _, half, whole = np.bincount(halves[tie::ties], minlength=3).tolist()  # tails scoring 0, 1/2, 1
            used = len(halves[tie::ties])
            mean = (half / 2 + whole) / used
            value += weight * mean
            variance += weight * weight * 0.25 / used
            # one pseudo-tail of variance 1/4 beside the tails' own: a run of equal scores never claims certainty
            squares = half / 4 + whole - used * mean * mean  # the sum of the squared deviations from the mean
            measured += weight * weight * (max(0.0, squares) + 0.25) / used / used
    total = sum(count for _, _, count in plan)
    return Estimate(value, Z95 * math.sqrt(variance), total, math.sqrt(measured), tuple(tails),
                    tuple(len(choices) for choices, _, _ in plan))


def difference(first: Estimate, second: Estimate) -> tuple[float, float]:
    """``first.value - second.value`` and its standard error, the tails paired stream by stream where both are
    :func:`stratified_estimate`\\ s of the same seed and rules (common dice make the difference's error smaller:
    about 0.7 times the unpaired one for two turns from one position); otherwise the two errors as if independent.

    Within roll k each stream j (of the first n both estimates played) contributes ``n / (sides * ties *
    tails of its tie)`` times its score, so the roll's part of an estimate is the mean of these over the
    streams; the difference's variance is the sum over the rolls of the variance of the paired differences'
    mean (ties treated as if drawn at random: never smaller than the stratified variance), with the same
    pseudo-tail as :func:`stratified_estimate`.  An exact estimate pairs with anything: its error is zero.
    """
    value = first.value - second.value
    if first.exact or second.exact:
        return value, math.hypot(first.std_error, second.std_error)
    if first.tails is None or second.tails is None or len(first.tails) != len(second.tails) or first.ties is None \
            or second.ties is None:
        return value, math.hypot(first.std_error, second.std_error)
    sides = len(first.tails)
    variance = 0.0
    for k in range(sides):
        n = min(len(first.tails[k]), len(second.tails[k]))
        paired = _contributions(first.tails[k], first.ties[k], n, sides) - _contributions(
            second.tails[k], second.ties[k], n, sides)
        variance += (float(((paired - paired.mean()) ** 2).sum()) + 0.25 / sides / sides) / n / n
    return value, math.sqrt(variance)


def _contributions(halves: np.ndarray, ties: int, n: int, sides: int) -> np.ndarray:
    """Each of the first ``n`` streams' share of its roll's part of the estimate, times n (their mean is the part)."""
    scores = halves[:n].astype(np.float64) / 2
    if ties == 1:
        return scores / sides
    per_tie = np.array([n // ties + (t < n % ties) for t in range(ties)], dtype=np.float64)
    return scores * n / (sides * ties * per_tie[np.arange(n) % ties])


@lru_cache(maxsize=16)
def _board_arrays(board: Board) -> tuple[np.ndarray, np.ndarray]:
    from . import _tails

    return _tails.board_arrays(board)


def _mean(estimates: list[Estimate]) -> Estimate:
    """The equally weighted mean of estimates, with a 95% half-width that bounds the mean's.

    The standard deviation of a mean of (correlated) estimators is at most the mean
    of their standard deviations (Minkowski), so the half-widths average too.
    """
    count = len(estimates)
    value = math.fsum(e.value for e in estimates) / count
    half_width = math.fsum(e.half_width for e in estimates) / count
    spread = math.fsum(e.std_error for e in estimates) / count
    return Estimate(value, half_width, max(e.rollouts for e in estimates), spread)


_ESTIMATES: dict[tuple[Position, int, int | str, int], Estimate] = {}
_ESTIMATES_LIMIT = 20_000
"""Estimates cached at most (then the cache starts afresh, as ``_CHOICES`` does): an estimate keeps its tails (a
byte each, about 1 KB for ``ROLLOUTS``), so the cache stays within a few tens of MB; a 100-turn review makes about
1,500."""


def win_chance(
    position: Position | str, *, rollouts: int = ROLLOUTS, seed: int | str = 0, greedy_turns: int = GREEDY_PLIES
) -> Estimate:
    """A's win chance (tie = half) from ``position`` under the policy: ``greedy_turns`` turns of greedy, then random.

    With two greedy turns or more (the default), the first turn is enumerated:
    the mean over every roll of :func:`roll_chance`, so the win chance before a
    roll is *exactly* the roll-weighted mean of the win chances after it.  With
    one greedy turn (the last): exact when every line ends within it, else the
    mean of ``rollouts`` seeded rollouts (:func:`rollout_estimate`).

    >>> win_chance("(1,0) . . / . (7,0) . / . . (0,1) B")  # B cannot eat (7,0); A eats c3 on its next turn
    Estimate(value=1.0, half_width=0.0, rollouts=0)
    """
    if isinstance(position, str):
        position = Position.parse(position)
    key = (position, greedy_turns, seed, rollouts)
    estimate = _ESTIMATES.get(key)
    if estimate is None:
        if position.is_over:
            estimate = Estimate(_score(position), 0.0, 0)
        elif greedy_turns >= 2:
            estimate = _mean([
                roll_chance(position, roll, rollouts=rollouts, seed=seed, greedy_turns=greedy_turns)
                for roll, _ in position.dice_outcomes()  # every roll equally likely: a plain mean
            ])
        else:
            exact = exact_value(position, greedy_turns=greedy_turns)
            if exact is not None:
                estimate = Estimate(exact, 0.0, 0)
            elif greedy_turns == 1:
                estimate = stratified_estimate(position, rollouts=rollouts, seed=seed)
            else:
                estimate = rollout_estimate(position, rollouts=rollouts, seed=seed, greedy_turns=greedy_turns)
        if len(_ESTIMATES) >= _ESTIMATES_LIMIT:
            _ESTIMATES.clear()
        _ESTIMATES[key] = estimate
    return estimate


def roll_chance(
    position: Position | str, roll: int, *, rollouts: int = ROLLOUTS, seed: int | str = 0,
    greedy_turns: int = GREEDY_PLIES,
) -> Estimate:
    """A's win chance after ``roll`` and before the move, under the policy: the mean over greedy's tied turns for
    the roll of the :func:`win_chance` after them (with one greedy turn fewer: the same policy, one turn on)."""
    if isinstance(position, str):
        position = Position.parse(position)
    if greedy_turns < 1:
        raise ValueError(f"after a roll the policy has its greedy turn to play: greedy_turns >= 1, not {greedy_turns}")
    return _mean([
        win_chance(child, rollouts=rollouts, seed=seed, greedy_turns=greedy_turns - 1)
        for child in _policy_choices(position, roll)
    ])


# --------------------------------------------------------------------------- hints


@dataclass(frozen=True)
class Hint:
    """One suggested turn: the mover's win chance after it, its gain over the policy's turn, Delta after it."""

    turn: Turn
    win: float  # the mover's win chance after the turn (the reply still greedy, as a review's win_after)
    change: float  # win minus the mover's win chance after the roll under the policy (greedy's turn): the choice
    Delta: int  # noqa: N815 - the paper's Advantage 2 after the turn, from the mover's side
    estimate: Estimate

    def as_dict(self) -> dict[str, object]:
        """What the board's JavaScript draws: an arrow from src to dst and a clickable line."""
        turn = self.turn
        return {
            "turn": str(turn),
            "grow": turn.grow,
            "src": turn.src,
            "dst": turn.dst,
            "win": round(self.win, 4),
            "change": round(self.change, 4),
            "Delta": self.Delta,
        }


def _candidates(position: Position, roll: int, limit: int, grow: str | None = None) -> list[Turn]:
    """Greedy's ``limit`` most promising candidate turns for ``roll`` (optionally only those growing ``grow``)."""
    if grow is None:
        return _ranked(position, roll, limit)
    ranked = _ranked(position, roll, 10**9)
    return [turn for turn in ranked if turn.grow == grow][:limit]


def hints(
    position: Position | str, roll: int, *, top: int = 3, grow: str | None = None, seed: int | str = 0,
    rollouts: int = ROLLOUTS,
) -> list[Hint]:
    """The ``top`` turns for the side to move with this ``roll``, best first, by the win chance after them.

    Only greedy's ``HINT_CANDIDATES`` most promising candidate turns are estimated
    (with ``grow``, only turns growing that cell: the student has already grown).
    Each is valued as a review values the turn played: :func:`win_chance` with the
    one greedy turn left (the reply), then random; ``change`` compares it with
    :func:`roll_chance`, what the policy itself (greedy) gets from this roll.
    """
    if isinstance(position, str):
        position = Position.parse(position)
    if position.is_over:
        raise ValueError(f"the game is over ({position.result}): there is nothing to hint")
    mover = position.to_move
    policy = roll_chance(position, roll, rollouts=rollouts, seed=seed).for_player(mover)
    found = []
    for index, turn in enumerate(_candidates(position, roll, HINT_CANDIDATES, grow)):
        after = apply(position, turn)
        estimate = win_chance(after, greedy_turns=GREEDY_PLIES - 1, rollouts=rollouts, seed=seed)
        win = estimate.for_player(mover)
        sign = 1 if mover == "A" else -1
        found.append((-win, index, Hint(turn, win, win - policy, sign * after.Delta, estimate)))
    found.sort(key=lambda item: item[:2])
    return [hint for _, _, hint in found[:top]]


# --------------------------------------------------------------------------- review


def classify(drop: float, *, forced: bool = False) -> str:
    """The class of a turn from the drop in the mover's win chance (see the module's docstring)."""
    if forced:
        return "forced"
    return next(name for name, limit in CLASSES if drop < limit)


def move_accuracy(drop: float) -> float:
    """Lichess's accuracy of one move, from its drop in win percentage: 100 for no drop, about 0 for a 100-point drop."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * max(0.0, drop) * 100) - 3.1669))


def _is_forced(position: Position, roll: int) -> bool:
    """Only one legal turn, or every legal turn a pass (no grow leaves a move)."""
    if count_legal_turns(position, roll) == 1:
        return True
    return all(turn.is_pass for turn in candidate_turns(position, roll))


@dataclass
class Review:
    """A reviewed game: ``frame`` (one row per turn), ``accuracy`` per side, ``chart()``;
    :func:`amoeboid_edu.ui.widget.explore` walks it on a board."""

    game: Game
    frame: pd.DataFrame
    start: Estimate
    seed: int | str
    rollouts: int

    @property
    def accuracy(self) -> dict[str, float | None]:
        """Each side's accuracy: the mean of :func:`move_accuracy` over its turns that were not forced."""
        result: dict[str, float | None] = {}
        for player in ("A", "B"):
            rows = self.frame[(self.frame["player"] == player) & (self.frame["class"] != "forced")]
            result[player] = None if rows.empty else round(float(rows["accuracy"].mean()), 1)
        return result

    def mistakes(self) -> pd.DataFrame:
        """The rows classed inaccuracy, mistake or blunder."""
        return self.frame[self.frame["class"].isin(MISTAKES)]

    @property
    def end(self) -> float:
        """A's score at the end of the record: the result if the game is over, else A's win chance there."""
        return float(self.frame["A_next"].iloc[-1]) if len(self.frame) else self.start.value

    def summary(self) -> str:
        """The review as text: one line per turn, then the accuracies (what ``amoeboid review`` prints)."""
        lines = [
            f"win chances: A's, if both sides played {POLICY} from there ({self.rollouts} rollouts, "
            f"±{Z95 * 50 / math.sqrt(self.rollouts):.1f} points, seed {self.seed}); "
            "each turn: before the roll -> after the roll -> after the turn (the reply still greedy)",
            f"start: A {self.start.value:.0%}",
        ]
        if self.frame.empty:
            lines.append("no turns: the record has none to review")
        for row in self.frame.to_dict("records"):
            better = ("" if row["class"] in ("best", "forced") else  # best_win is the mover's chance, named so
                      f"  better: {row['best']} ({row['player']}'s chance {row['best_win']:.0%})")
            lines.append(
                f"{row['turn']:>3} {row['player']} {row['played']:<18} A {row['A_before']:.0%} -> roll "
                f"{row['A_after_roll']:.0%} -> {row['A_after']:.0%}  {row['class']}{better}"
            )
        accuracy = self.accuracy
        lines.append("accuracy: " + ", ".join(f"{side} {'-' if value is None else value}" for side, value in accuracy.items()))
        return "\n".join(lines)

    def __repr__(self) -> str:
        counts = self.frame["class"].value_counts()
        marks = ", ".join(f"{counts[name]} {name}" for name in MISTAKES if name in counts) or "no mistakes"
        return f"<Review: {len(self.frame)} turns, {marks}; accuracy A {self.accuracy['A']}, B {self.accuracy['B']}>"

    def curve(self) -> pd.DataFrame:
        """A's win chance at the start of every turn (``turn`` = turns played so far: 0 is the start), then at the
        end: the result if the game is over.  Each step is the turn's luck + choice + horizon (A's side)."""
        import pandas as pd

        start = pd.DataFrame([{"turn": 0, "A": self.start.value, "player": "", "played": "(start)", "class": ""}])
        after = self.frame[["turn", "A_next", "player", "played", "class"]].rename(columns={"A_next": "A"})
        return pd.concat([start, after], ignore_index=True)

    PARTS = ("dice (luck)", "choice (skill)", "horizon (neither)")
    """The parts of a turn's swing in :meth:`swings`."""

    def swings(self) -> pd.DataFrame:
        """Long frame of each turn's swing in A's win chance, from the roll (luck), from the choice (skill), and from
        valuing the position after the turn with a fresh two-turn window (neither): the three parts of each step of
        :meth:`chart`."""
        import pandas as pd

        frame = self.frame
        base = frame[["turn", "player", "played"]]
        dice, choice, horizon = self.PARTS
        return pd.concat([
            base.assign(part=dice, swing=frame["A_after_roll"] - frame["A_before"]),
            base.assign(part=choice, swing=frame["A_after"] - frame["A_after_roll"]),
            base.assign(part=horizon, swing=frame["A_next"] - frame["A_after"]),
        ], ignore_index=True)

    def chart(self, title: str = "A's win chance over the game", picked: int = -1) -> Svg:
        """A's win chance at the start of every turn and at the end, each step split into the dice's swing, the
        choice's and the estimate's horizon (:meth:`swings`), with big dots at inaccuracies, mistakes and blunders,
        the turn ``picked`` ringed: the board's own drawing (:func:`amoeboid_edu.ui.render.review_chart_svg`), with
        ``title`` above it and a legend below, which a notebook shows as a picture.  To see a position, use
        :func:`amoeboid_edu.ui.widget.explore`."""
        from ..ui.render import review_chart_svg  # drawing on demand, python-chess's way: only where it is shown

        return review_chart_svg(self.frame.to_dict("records"), picked, title=title, legend=True)


class ReviewCancelled(Exception):
    """Raised by :func:`review` when its ``cancel`` event is set between two turns."""


def _with_tails(position: Position, estimate: Estimate, rollouts: int, seed: int | str) -> Estimate:
    """``estimate`` (:func:`win_chance` with the one greedy turn) extended to ``rollouts`` tails: only the new
    tails are played (an exact estimate stays as it is); cached as :func:`win_chance` caches."""
    if estimate.exact or estimate.tails is None:
        return estimate
    key = (position, GREEDY_PLIES - 1, seed, rollouts)
    found = _ESTIMATES.get(key)
    if found is None:
        found = stratified_estimate(position, rollouts=rollouts, seed=seed, base=estimate)
        if len(_ESTIMATES) >= _ESTIMATES_LIMIT:
            _ESTIMATES.clear()
        _ESTIMATES[key] = found
    return found


def _refined(
    before: Position, turn: Turn, after: Position, candidates: list[Turn], seed: int | str, rollouts: int
) -> tuple[Turn, Estimate, Estimate, int]:
    """The turn played and the best turn found, valued with more tails until the drop's class is clear.

    Each contender c (a candidate) has a gain d_c over the turn played (the mover's side) with a standard
    error from the paired tails (:func:`difference`).  The drop is max(0, max d_c).  A class line L is *settled*
    when some contender is above it by ``CLEAR_Z`` errors (the drop is surely at least L) or every contender
    is below it by ``CLEAR_Z`` errors (the drop is surely under L).  While a line is not settled, the tails of
    the turn played and of the contenders whose interval holds such a line are doubled (level k uses
    ``rollouts * REFINE_FACTOR**k`` tails; the earlier tails are kept: the streams are numbered), up to
    ``REFINE_LEVELS - 1`` times; the last level's values are used whatever they are.
    Returns ``(best turn, best estimate, played estimate, level)``.
    """
    mover = before.to_move
    sign = 1.0 if mover == "A" else -1.0
    played = win_chance(after, rollouts=rollouts, seed=seed, greedy_turns=GREEDY_PLIES - 1)
    contenders: dict[Position, tuple[Turn, Estimate]] = {}
    for candidate in candidates:
        position = apply(before, candidate)
        if position != after and position not in contenders:
            estimate = win_chance(position, rollouts=rollouts, seed=seed, greedy_turns=GREEDY_PLIES - 1)
            contenders[position] = (candidate, estimate)
    level = 0
    while True:
        gains = {position: difference(estimate, played) for position, (_, estimate) in contenders.items()}
        gains = {position: (sign * gain, error) for position, (gain, error) in gains.items()}
        lowest = max((gain - CLEAR_Z * error for gain, error in gains.values()), default=0.0)
        open_lines = [line for line in LINES
                      if lowest < line and any(gain + CLEAR_Z * error >= line for gain, error in gains.values())]
        if not open_lines or level >= REFINE_LEVELS - 1:
            break
        level += 1
        count = rollouts * REFINE_FACTOR**level
        played = _with_tails(after, played, count, seed)
        for position, (gain, error) in gains.items():
            if any(gain - CLEAR_Z * error < line <= gain + CLEAR_Z * error for line in open_lines):
                candidate, estimate = contenders[position]
                contenders[position] = (candidate, _with_tails(position, estimate, count, seed))
    best_turn, best = turn, played
    for candidate, estimate in contenders.values():
        if estimate.for_player(mover) > best.for_player(mover):
            best_turn, best = candidate, estimate
    return best_turn, best, played, level


def review_turn(
    number: int, before: Position, turn: Turn, after: Position, *, seed: int | str = 0, rollouts: int = ROLLOUTS,
    candidates: int = REVIEW_CANDIDATES,
) -> dict[str, object]:
    """One row of :func:`review`'s frame: the turn ``number`` played from ``before`` to ``after``."""
    mover = before.to_move
    before_roll = win_chance(before, rollouts=rollouts, seed=seed)
    rolled = roll_chance(before, turn.roll, rollouts=rollouts, seed=seed)
    following = win_chance(after, rollouts=rollouts, seed=seed)
    forced = _is_forced(before, turn.roll)
    found = [] if forced else [c for c in _candidates(before, turn.roll, candidates) if apply(before, c) != after]
    best_turn, best, played, _ = _refined(before, turn, after, found, seed, rollouts)
    win_before, win_after_roll, best_win, win_after, win_next = (
        e.for_player(mover) for e in (before_roll, rolled, best, played, following)
    )
    drop = best_win - win_after
    return {
        "turn": number,
        "player": mover,
        "roll": turn.roll,
        "played": str(turn),
        "class": classify(drop, forced=forced),
        "best": str(best_turn),
        "best_win": best_win,
        "win_before": win_before,
        "win_after_roll": win_after_roll,
        "win_after": win_after,
        "win_next": win_next,
        "drop": drop,
        "luck": win_after_roll - win_before,
        "choice": win_after - win_after_roll,
        "horizon": win_next - win_after,
        "accuracy": move_accuracy(drop),
        "A_before": before_roll.value,
        "A_after_roll": rolled.value,
        "A_after": played.value,
        "A_next": following.value,
    }


def review(
    game: Game | str, *, seed: int | str = 0, rollouts: int = ROLLOUTS, candidates: int = REVIEW_CANDIDATES,
    progress: bool = False, on_turn: Callable[[int, int], object] | None = None,
    cancel: threading.Event | None = None,
) -> Review:
    """Review every turn of ``game``: the mover's win chance before the roll, after the roll and after the turn; the
    best turn found; the class of the turn played; the luck (the roll's swing) and the choice's swing.

    Win chances are the mover's unless the column starts with ``A_`` (then A's), all
    under the policy of the module's docstring, aligned on one turn:

    - ``win_before``: :func:`win_chance` of the position (two greedy turns, then random);
    - ``win_after_roll``: :func:`roll_chance` for the roll (the policy's own turn
      still to play: the mean over greedy's tied turns of the win chance after them);
    - ``win_after``, ``best_win``: :func:`win_chance` after the turn played, after
      the best turn found, both with the one greedy turn that is left (the reply),
      with more tails where the class is not yet clear (see :func:`classify`);
    - ``luck`` = after the roll - before, ``choice`` = after - after the roll,
      ``drop`` = best - after (the class), ``accuracy`` (lichess's, from the drop);
    - ``win_next``: the win chance at the start of the next turn (a fresh two-turn
      window) or the result if the game ended; ``horizon`` = next - after is
      neither luck nor choice: the same position valued with one more greedy turn.

    The best turn is the best of the turn played and greedy's ``candidates`` most
    promising turns.  A record without turns gives an empty review.  ``on_turn(done,
    total)`` is called after every turn (a progress display); when ``cancel`` (a
    ``threading.Event``) is set, the review stops before the next turn with
    :class:`ReviewCancelled`.
    """
    import pandas as pd

    if isinstance(game, str):
        game = Game.parse(game)
    if rollouts < 1:
        raise ValueError(f"rollouts must be at least 1, not {rollouts}")
    steps = list(zip(game.turns, game.positions, game.positions[1:]))
    start = win_chance(game.start, rollouts=rollouts, seed=seed)
    rows = []
    bar: Iterable[tuple[Turn, Position, Position]] = steps
    if progress:  # tqdm only when asked for: it takes a while to import
        from tqdm.auto import tqdm

        bar = tqdm(steps, desc="review", unit="turn", leave=False)
    for number, (turn, before, after) in enumerate(bar, start=1):
        if cancel is not None and cancel.is_set():
            raise ReviewCancelled(f"the review was cancelled after {number - 1} of {len(steps)} turns")
        rows.append(review_turn(number, before, turn, after, seed=seed, rollouts=rollouts, candidates=candidates))
        if on_turn is not None:
            on_turn(number, len(steps))
    frame = pd.DataFrame(rows, columns=COLUMNS)
    return Review(game, frame, start, seed, rollouts)
