"""The coach's random tails, many at once: the engine's random player from many positions, each rollout on its own
numbered dice stream.

A rollout ``i`` starts from one of the given positions and plays the engine's random player
(:func:`~amoeboid_edu.engine.game.random_turn`'s rules: a grow uniform over the mover's cells, a (source, destination)
pair uniform over those with a legal move, the whole source with probability 0.9, else a split uniform over
:class:`~amoeboid_edu.engine.rules.Splits`) until one side owns nothing, or ``max_turns`` turns (a tie).  Its draws come
from SplitMix64 started at ``seeds[i]``: a generator two implementations compute bit for bit alike, so the compiled
kernel (Numba, when it is installed) and the pure-Python one give the same scores for the same seeds, and the
coach's numbers do not depend on which one ran.  The seeds themselves come from ``game.seeded_rng`` (see
:func:`stream_seeds`), the project's one seeding scheme.

Why a second implementation of the random player: the coach's estimates are the mean of hundreds of random games
per position, and a review values a dozen positions per turn; ``game.random_playout`` (Python's Mersenne Twister,
checked draw for draw against ``random_turn``) costs about 100 us a game, the compiled kernel a few.
"""

from __future__ import annotations

import math
import os
from typing import Callable

import numpy as np

from ..engine.seeding import seeded_rng
from ..engine.rules import Board

Kernel = Callable[..., np.ndarray]
"""A compiled :func:`scores_python`: the same arguments as arrays and int64 scalars, the same scores."""

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
WHOLE_MOVE_PROBABILITY = 0.9  # the engine's (game.WHOLE_MOVE_PROBABILITY); tests check they are equal
PURE_ENV = "AMOEBOID_PURE_PYTHON"
"""Set this environment variable to 1 to use the pure-Python kernel even where Numba is installed."""


_SEEDS: dict[str, np.ndarray] = {}
_SEEDS_KEPT = 16


def stream_seeds(seed: int | str, count: int) -> np.ndarray:
    """Rollout i's dice stream for i < count: the i-th 64-bit word drawn from ``seeded_rng(seed, "coach")``.

    Rollout i has the same stream in every estimate made with ``seed`` (common random numbers: two positions
    compared are played on the same dice), and an estimate with more rollouts extends one with fewer.  The words
    come from one ``getrandbits`` call, least significant first (CPython's order), so the first words of a longer
    draw are the words of a shorter one; the longest draw so far is kept per seed.
    """
    key = str(seed)
    kept = _SEEDS.get(key)
    if kept is None or len(kept) < count:
        size = max(count, 2 * len(kept) if kept is not None else count)
        bits = seeded_rng(seed, "coach").getrandbits(64 * size)
        kept = np.frombuffer(bits.to_bytes(8 * size, "little"), dtype="<u8").astype(np.uint64)
        kept.setflags(write=False)
        if len(_SEEDS) >= _SEEDS_KEPT:
            _SEEDS.clear()
        _SEEDS[key] = kept
    return kept[:count]


def board_arrays(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """The board's neighbours as a padded int64 matrix (-1 past each cell's degree) and the degrees."""
    neighbours = board.neighbours
    width = max((len(row) for row in neighbours), default=0)
    matrix = np.full((len(neighbours), max(1, width)), -1, dtype=np.int64)
    for i, row in enumerate(neighbours):
        matrix[i, : len(row)] = row
    return matrix, np.array([len(row) for row in neighbours], dtype=np.int64)


# --------------------------------------------------------------------------- the pure-Python kernel


def _below(word: int, n: int) -> int:
    """A draw uniform over range(n) (n < 2**32) from a 64-bit word: its high 32 bits times n, shifted down 32 bits.

    A multiplication where ``word % n`` would divide (a division costs the compiled kernel several times as much);
    the bias, at most n / 2**32 per value, is far below what the coach's estimates can see.
    """
    return ((word >> 32) * n) >> 32


def _split_at(a: int, b: int, at_least: int, index: int) -> tuple[int, int]:
    """``Splits(a, b, at_least)[index]`` (the rules' order: x, then y), by the same arithmetic the kernel uses."""
    threshold = max(1, at_least)
    first_x = max(0, threshold - b)
    sloped_rows = max(0, min(a + 1, threshold) - first_x)
    first_width = b - threshold + first_x + 1
    sloped_count = sloped_rows * first_width + sloped_rows * (sloped_rows - 1) // 2
    if index >= sloped_count:
        row, y = divmod(index - sloped_count, b + 1)
        return first_x + sloped_rows + row, y
    w = 2 * first_width - 1
    row = (math.isqrt(w * w + 8 * index) - w) // 2
    offset = index - (row * first_width + row * (row - 1) // 2)
    x = first_x + row
    return x, threshold - x + offset


def _count_splits(a: int, b: int, at_least: int) -> int:
    s = max(1, at_least) - 1

    def under(k: int) -> int:
        return (k + 1) * (k + 2) // 2 if k >= 0 else 0

    return (a + 1) * (b + 1) - (under(s) - under(s - a - 1) - under(s - b - 1) + under(s - a - b - 2))


def scores_python(
    a0: np.ndarray, b0: np.ndarray, a_to_move: np.ndarray, start_of: np.ndarray, seeds: np.ndarray,
    neighbours: np.ndarray, degree: np.ndarray, sides: int, max_turns: int,
) -> np.ndarray:
    """A's score (1, 1/2 for a tie or a game past ``max_turns``, 0) of rollout i from start ``start_of[i]``."""
    cells = a0.shape[1]
    nbrs = [list(map(int, row[: int(d)])) for row, d in zip(neighbours, degree)]
    out = np.empty(len(start_of), dtype=np.float64)
    for i in range(len(start_of)):
        k = int(start_of[i])
        a = [int(x) for x in a0[k]]
        b = [int(x) for x in b0[k]]
        state = int(seeds[i])
        mover_a = bool(a_to_move[k])
        turns = 0
        score = 0.5
        while True:
            owned_a = [c for c in range(cells) if a[c] > b[c]]
            owned_b = [c for c in range(cells) if b[c] > a[c]]
            if not owned_a or not owned_b:
                score = 1.0 if owned_a else (0.0 if owned_b else 0.5)
                break
            if turns >= max_turns:
                score = 0.5
                break
            owned = owned_a if mover_a else owned_b
            state = (state + GOLDEN) & MASK
            z = state
            z = ((z ^ (z >> 30)) * MIX1) & MASK
            z = ((z ^ (z >> 27)) * MIX2) & MASK
            roll = _below(z ^ (z >> 31), sides) + 1
            state = (state + GOLDEN) & MASK
            z = state
            z = ((z ^ (z >> 30)) * MIX1) & MASK
            z = ((z ^ (z >> 27)) * MIX2) & MASK
            grow = owned[_below(z ^ (z >> 31), len(owned))]
            if mover_a:
                a[grow] += roll
            else:
                b[grow] += roll
            pairs = []
            for src in owned:
                limit = a[src] + b[src]
                for dst in nbrs[src]:
                    if a[dst] + b[dst] <= limit:
                        pairs.append((src, dst))
            if pairs:
                state = (state + GOLDEN) & MASK
                z = state
                z = ((z ^ (z >> 30)) * MIX1) & MASK
                z = ((z ^ (z >> 27)) * MIX2) & MASK
                src, dst = pairs[_below(z ^ (z >> 31), len(pairs))]
                state = (state + GOLDEN) & MASK
                z = state
                z = ((z ^ (z >> 30)) * MIX1) & MASK
                z = ((z ^ (z >> 27)) * MIX2) & MASK
                if ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0) < WHOLE_MOVE_PROBABILITY:
                    x, y = a[src], b[src]
                else:
                    need = a[dst] + b[dst]
                    state = (state + GOLDEN) & MASK
                    z = state
                    z = ((z ^ (z >> 30)) * MIX1) & MASK
                    z = ((z ^ (z >> 27)) * MIX2) & MASK
                    x, y = _split_at(a[src], b[src], need, _below(z ^ (z >> 31), _count_splits(a[src], b[src], need)))
                a[src] -= x
                b[src] -= y
                a[dst] += x
                b[dst] += y
            turns += 1
            mover_a = not mover_a
        out[i] = score
    return out


# --------------------------------------------------------------------------- the compiled kernel


def _compile() -> Kernel | None:
    """The Numba kernel (:mod:`amoeboid_edu.theory._tails_numba`), or None without Numba or with ``AMOEBOID_PURE_PYTHON=1``."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    try:
        from ._tails_numba import kernel
    except ImportError:
        return None
    return kernel


_KERNEL: Kernel | None = None
_KERNEL_TRIED = False


def compiled() -> Kernel | None:
    """The compiled kernel (compiled, or loaded from Numba's cache, at first use), or None when Numba is missing."""
    global _KERNEL, _KERNEL_TRIED
    if not _KERNEL_TRIED:
        _KERNEL_TRIED = True
        _KERNEL = _compile()
    return _KERNEL


def scores(
    a0: np.ndarray, b0: np.ndarray, a_to_move: np.ndarray, start_of: np.ndarray, seeds: np.ndarray,
    neighbours: np.ndarray, degree: np.ndarray, sides: int, max_turns: int,
) -> np.ndarray:
    """:func:`scores_python`'s scores, computed by the compiled kernel when there is one (the same numbers)."""
    kernel = compiled()
    if kernel is None:
        return scores_python(a0, b0, a_to_move, start_of, seeds, neighbours, degree, sides, max_turns)
    # one signature (writable, contiguous, fixed dtypes), so Numba compiles and caches the kernel once
    arrays = [np.array(x, dtype=t, order="C") for x, t in ((a0, np.int64), (b0, np.int64), (a_to_move, np.bool_),
                                                            (start_of, np.int64), (seeds, np.uint64),
                                                            (neighbours, np.int64), (degree, np.int64))]
    return kernel(*arrays, np.int64(sides), np.int64(max_turns))


def warm() -> str:
    """Compile the kernel for the one signature :func:`scores` uses (or load it from Numba's cache), so the first
    estimate does not pay it (about 2 s to compile, 0.3 s to load); returns :func:`implementation`.

    ``python -m amoeboid_edu.theory._tails`` calls it: run it once after installing (Binder's ``postBuild``,
    ``./dev.sh course``), where the package's folder is writable, to leave the compiled kernel in Numba's cache.
    """
    cells = np.array([[1, 0]], dtype=np.int64)  # a two-cell board, A's amoeba beside B's: one turn ends it
    scores(cells, cells[:, ::-1].copy(), np.array([True]), np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.uint64),
           np.array([[1], [0]], dtype=np.int64), np.array([1, 1], dtype=np.int64), 6, 1)
    return implementation()


def implementation() -> str:
    """``"numba"`` or ``"python"``: which kernel :func:`scores` uses here."""
    return "python" if compiled() is None else "numba"


if __name__ == "__main__":
    print(f"the coach's random tails: {warm()}")
