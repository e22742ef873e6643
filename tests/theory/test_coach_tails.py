"""The coach's random tails (amoeboid_edu.theory._tails): the compiled and the pure-Python kernel agree, and both play the
engine's random player."""

from __future__ import annotations

import numpy as np
import pytest

from amoeboid_edu import Position, seeded_rng
from amoeboid_edu.theory import _tails
from amoeboid_edu.engine import game
from amoeboid_edu.engine.rules import Rules

POSITIONS = [
    "(3,0) . . / . . . / . . (0,3) A",
    "(2,1) . (0,3) / . (4,0) . / . . (0,2) B",
    "(40,22) . . / . (3,20) . / . . (0,9) A",  # big mixed amoebae: the split path (Splits' index arithmetic)
    "(1,0) . . . / . (7,5) . . / . . (0,30) . / . . . (2,2) A",
]


def _inputs(texts: list[str], count: int, seed: int | str = 0) -> tuple:
    positions = [Position.parse(text) for text in texts]
    a0 = np.array([[0 if c is None else c.a for c in p.cells] for p in positions], dtype=np.int64)
    b0 = np.array([[0 if c is None else c.b for c in p.cells] for p in positions], dtype=np.int64)
    to_move = np.array([p.to_move == "A" for p in positions])
    start_of = np.arange(count, dtype=np.int64) % len(positions)
    neighbours, degree = _tails.board_arrays(positions[0].board)
    return a0, b0, to_move, start_of, _tails.stream_seeds(seed, count), neighbours, degree, 6, 1000


@pytest.mark.parametrize("texts", [POSITIONS[:3], POSITIONS[3:]])
def test_the_compiled_kernel_gives_the_pure_kernels_scores(texts):
    kernel = _tails.compiled()
    if kernel is None:
        pytest.skip("Numba is not installed here: the coach uses the pure-Python kernel")
    inputs = _inputs(texts, 200)
    compiled = _tails.scores(*inputs)
    pure = _tails.scores_python(*inputs)
    assert compiled.tolist() == pure.tolist()
    assert 0.05 < compiled.mean() < 0.95 and len(set(compiled.tolist())) > 1


def test_the_split_index_is_the_rules_order():
    from amoeboid_edu.engine.rules import Splits

    for a, b, at_least in [(5, 3, 0), (5, 3, 4), (0, 6, 2), (7, 7, 14), (9, 2, 8)]:
        splits = Splits(a, b, at_least)
        assert _tails._count_splits(a, b, at_least) == len(splits)
        assert [_tails._split_at(a, b, at_least, i) for i in range(len(splits))] == list(splits)


def test_the_tails_play_the_engines_random_player():
    """On a 1x3 board with a two-sided die the random player's value is known to within 0.007 by enumeration
    (tests/test_coach.py's bounds): the tails' mean over 20,000 streams lies within four standard errors of it."""
    from test_coach import _random_children

    position = Position.parse("(3,0) . (0,2) A", Rules(die_sides=2))

    def bound(node, depth, mass, memo={}):  # noqa: B006 - a memo for this one position
        if node.is_over:
            score = {"A": 1.0, "tie": 0.5, "B": 0.0}[node.result]
            return score, score
        if depth >= 14 or mass < 1e-8:
            return 0.0, 1.0
        if (node, depth) not in memo:
            low = high = 0.0
            for roll in (1, 2):
                for share, child in _random_children(node, roll):
                    child_low, child_high = bound(child, depth + 1, mass * share / 2)
                    low, high = low + share * child_low / 2, high + share * child_high / 2
            memo[node, depth] = low, high
        return memo[node, depth]

    low, high = bound(position, 0, 1.0)
    assert high - low < 0.01
    count = 20_000
    neighbours, degree = _tails.board_arrays(position.board)
    scores = _tails.scores(np.array([[3, 0, 0]]), np.array([[0, 0, 2]]), np.array([True]),
                           np.zeros(count, dtype=np.int64), _tails.stream_seeds(11, count), neighbours, degree, 2, 1000)
    error = scores.std() / count**0.5
    assert low - 4 * error < scores.mean() < high + 4 * error
    assert _tails.WHOLE_MOVE_PROBABILITY == game.WHOLE_MOVE_PROBABILITY


def test_stream_seeds_come_from_seeded_rng_and_a_longer_draw_extends_a_shorter():
    _tails._SEEDS.clear()
    short = _tails.stream_seeds("s", 5).tolist()
    longer = _tails.stream_seeds("s", 50).tolist()
    assert longer[:5] == short
    first = seeded_rng("s", "coach").getrandbits(64)
    assert short[0] == first
    assert _tails.stream_seeds("t", 5).tolist() != short
