"""The compiled random tails: :func:`amoeboid_edu.theory._tails.scores_python`'s algorithm on uint64 arithmetic (Numba).

Imported only by :func:`amoeboid_edu.theory._tails.compiled`; importing it without Numba raises ImportError, and the coach
then uses the pure-Python kernel, which gives the same numbers.  ``cache=True`` keeps the machine code beside this
file (``__pycache__``), so only the first use on a machine pays the compilation (a few seconds).
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from ._tails import GOLDEN, MIX1, MIX2, WHOLE_MOVE_PROBABILITY

_GOLDEN, _MIX1, _MIX2 = np.uint64(GOLDEN), np.uint64(MIX1), np.uint64(MIX2)
_S30, _S27, _S31, _S11, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11), np.uint64(32)
_UNIT = 1.0 / 9007199254740992.0
_WHOLE = WHOLE_MOVE_PROBABILITY


@numba.njit(cache=True, nogil=True)
def _draw(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return state, z ^ (z >> _S31)


@numba.njit(cache=True, nogil=True)
def _below(word: np.uint64, n: int) -> Any:  # an int64 in compiled code
    return np.int64(((word >> _S32) * np.uint64(n)) >> _S32)


@numba.njit(cache=True, nogil=True)
def _under(k: int) -> int:
    return (k + 1) * (k + 2) // 2 if k >= 0 else 0


@numba.njit(cache=True, nogil=True)
def _isqrt(v: int) -> Any:  # an int64 in compiled code
    r = np.int64(math.sqrt(float(v)))
    while r * r > v:
        r -= 1
    while (r + 1) * (r + 1) <= v:
        r += 1
    return r


@numba.njit(cache=True, nogil=True)
def kernel(a0: NDArray[np.int64], b0: NDArray[np.int64], a_to_move: NDArray[np.bool_], start_of: NDArray[np.int64],
           seeds: NDArray[np.uint64], neighbours: NDArray[np.int64], degree: NDArray[np.int64], sides: int,
           max_turns: int) -> NDArray[np.float64]:
    """A's score of rollout i from start ``start_of[i]``: see :func:`amoeboid_edu.theory._tails.scores_python`."""
    cells = a0.shape[1]
    out = np.empty(start_of.shape[0], dtype=np.float64)
    a = np.empty(cells, dtype=np.int64)
    b = np.empty(cells, dtype=np.int64)
    owned = np.empty(cells, dtype=np.int64)
    pair_src = np.empty(cells * neighbours.shape[1] + 1, dtype=np.int64)
    pair_dst = np.empty(cells * neighbours.shape[1] + 1, dtype=np.int64)
    for i in range(start_of.shape[0]):
        k = start_of[i]
        for c in range(cells):
            a[c] = a0[k, c]
            b[c] = b0[k, c]
        state = seeds[i]
        mover_a = a_to_move[k]
        turns = 0
        score = 0.5
        while True:
            count_a = 0
            count_b = 0
            n_owned = 0  # the mover's cells, in index order
            for c in range(cells):
                if a[c] > b[c]:
                    count_a += 1
                    if mover_a:
                        owned[n_owned] = c
                        n_owned += 1
                elif b[c] > a[c]:
                    count_b += 1
                    if not mover_a:
                        owned[n_owned] = c
                        n_owned += 1
            if count_a == 0 or count_b == 0:
                score = 1.0 if count_a else (0.0 if count_b else 0.5)
                break
            if turns >= max_turns:
                score = 0.5
                break
            state, z = _draw(state)
            roll = _below(z, sides) + 1
            state, z = _draw(state)
            grow = owned[_below(z, n_owned)]
            if mover_a:
                a[grow] += roll
            else:
                b[grow] += roll
            n_pairs = 0
            for j in range(n_owned):
                src = owned[j]
                limit = a[src] + b[src]
                for m in range(degree[src]):
                    dst = neighbours[src, m]
                    if a[dst] + b[dst] <= limit:
                        pair_src[n_pairs] = src
                        pair_dst[n_pairs] = dst
                        n_pairs += 1
            if n_pairs:
                state, z = _draw(state)
                j = _below(z, n_pairs)
                src = pair_src[j]
                dst = pair_dst[j]
                state, z = _draw(state)
                if np.float64(z >> _S11) * _UNIT < _WHOLE:
                    x = a[src]
                    y = b[src]
                else:
                    sa = a[src]
                    sb = b[src]
                    threshold = max(1, a[dst] + b[dst])
                    s = threshold - 1
                    total = (sa + 1) * (sb + 1) - (_under(s) - _under(s - sa - 1) - _under(s - sb - 1)
                                                   + _under(s - sa - sb - 2))
                    state, z = _draw(state)
                    index = _below(z, total)
                    first_x = max(0, threshold - sb)
                    sloped_rows = max(0, min(sa + 1, threshold) - first_x)
                    first_width = sb - threshold + first_x + 1
                    sloped_count = sloped_rows * first_width + sloped_rows * (sloped_rows - 1) // 2
                    if index >= sloped_count:
                        row = (index - sloped_count) // (sb + 1)
                        x = first_x + sloped_rows + row
                        y = (index - sloped_count) - row * (sb + 1)
                    else:
                        w = 2 * first_width - 1
                        row = (_isqrt(w * w + 8 * index) - w) // 2
                        offset = index - (row * first_width + row * (row - 1) // 2)
                        x = first_x + row
                        y = threshold - x + offset
                a[src] -= x
                b[src] -= y
                a[dst] += x
                b[dst] += y
            turns += 1
            mover_a = not mover_a
        out[i] = score
    return out
