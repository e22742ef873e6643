"""What a strategy author needs: the strategy interface and helpers to reason about a turn.

A *strategy* is any function ``strategy(position, roll, rng)`` that returns a
:class:`~amoeboid_edu.engine.rules.Turn` or its notation string.  ``position`` is an
immutable :class:`~amoeboid_edu.engine.rules.Position` (the side to move is you),
``roll`` is your die roll, ``rng`` is your own seeded ``random.Random``.  An
object with a ``choose(position, roll, rng)`` method works too.  Five lines are
enough::

    from amoeboid_edu import legal_turns

    def first_legal(position, roll, rng):
        return next(legal_turns(position, roll))

The helpers below answer the questions every strategy asks ("what can I eat?",
"what is the smallest split that neutralises that?") and enumerate the few
*meaningful* turns of a position without materialising every subset.
"""

from __future__ import annotations

from typing import Iterator

from ..engine.match import Strategy, StrategyFunction, TurnLike, as_function, strategy_name
from ..engine.rules import Amoeba, Position, Turn, apply, checked_grow, grown_cells

# --------------------------------------------------------------------------- reading a position


def neighbours(position: Position, cell: str) -> tuple[str, ...]:
    """The cells adjacent to ``cell``."""
    return position.board.neighbours_of(cell)


def owned_amoebae(position: Position, player: str | None = None) -> dict[str, Amoeba]:
    """``{cell: amoeba}`` for every amoeba ``player`` (default: the side to move) owns."""
    player = position.to_move if player is None else player
    return {cell: amoeba for cell, amoeba in position.amoebae().items() if amoeba.owner == player}


def grown(position: Position, grow: str, roll: int) -> Position:
    """The position in the middle of a turn: ``grow`` has received ``roll``, the move is still to come.

    The side to move does not change, so the helpers below apply to it.
    Raises :class:`~amoeboid_edu.engine.rules.IllegalTurnError` if ``grow`` is not the mover's.
    """
    index = checked_grow(position, grow)
    cells = grown_cells(position.cells, index, position.to_move, roll)
    return Position.unchecked(position.board, tuple(cells), position.to_move, position.rules)


def can_eat(position: Position, src: str, dst: str) -> bool:
    """Whether the mover's whole amoeba on ``src`` can eat the amoeba on ``dst`` right now.

    True when ``src`` is the mover's, ``dst`` is adjacent and holds an amoeba no
    bigger than ``src``.  (After a grow, ask ``can_eat(grown(...), src, dst)``.)
    """
    source, target = position[src], position[dst]
    return (
        source is not None
        and target is not None
        and source.owner == position.to_move
        and position.board.are_adjacent(src, dst)
        and target.size <= source.size
    )


def smallest_eat(source: Amoeba, target: Amoeba, mover: str) -> tuple[int, int] | None:
    """The smallest split of ``source`` that may eat ``target``, own units first.

    Size exactly ``target.size``; the mover's own units go first so the
    source keeps as much of the opponent's as possible out of its control.
    None if ``source`` is too small.
    """
    need = target.size
    if source.size < need:
        return None
    if mover == "A":
        x = min(source.a, need)
        return x, need - x
    y = min(source.b, need)
    return need - y, y


def smallest_capture(source: Amoeba, target: Amoeba, mover: str) -> tuple[int, int] | None:
    """The smallest split that eats ``target`` *and leaves the mover owning it* (paper, Case IV step 4)."""
    ta, tb = (target.a, target.b) if mover == "A" else (target.b, target.a)  # mine, theirs
    mine = source.a if mover == "A" else source.b
    move_mine = max(target.size, tb - ta + 1)
    if move_mine > mine:
        return None
    return (move_mine, 0) if mover == "A" else (0, move_mine)


def smallest_neutralisation(source: Amoeba, target: Amoeba) -> tuple[int, int] | None:
    """The smallest split that eats ``target`` and leaves it exactly neutral (paper, Case III).

    Moving ``(target.b, target.a)`` turns ``(ta, tb)`` into ``(ta+tb, ta+tb)``,
    and no smaller move does (it must be at least ``target.size``).
    """
    x, y = target.b, target.a
    if x > source.a or y > source.b:
        return None
    return x, y


def half(source: Amoeba) -> tuple[int, int] | None:
    """Half of each part, rounded down (the paper's "split in half"); None for size 1."""
    x, y = source.a // 2, source.b // 2
    return (x, y) if x + y >= 1 else None


# --------------------------------------------------------------------------- candidate turns


def candidate_turns(position: Position, roll: int) -> Iterator[Turn]:
    """The *meaningful* legal turns for ``roll``, in a fixed order, without enumerating subsets.

    For every grow and every legal (source, destination) pair: the whole
    amoeba, half of it, and when the destination holds an amoeba the smallest
    eat, the smallest capture and the exact neutralisation (each only when
    legal, duplicates dropped).  ``ROLL GROW -`` when a grow leaves no move.
    Every turn yielded is legal; there are O(cells x neighbours) of them.
    """
    if position.is_over:
        return
    mover = position.to_move
    for grow in position.owned():
        mid = grown(position, grow, roll)
        any_move = False
        for src, source in owned_amoebae(mid).items():
            for dst in neighbours(mid, src):
                target = mid[dst]
                if target is not None and target.size > source.size:
                    continue
                any_move = True
                options = [(source.a, source.b), half(source)]
                if target is not None:
                    options += [
                        smallest_eat(source, target, mover),
                        smallest_capture(source, target, mover),
                        smallest_neutralisation(source, target),
                    ]
                seen = set()
                for option in options:
                    if option is None or option in seen:
                        continue
                    seen.add(option)
                    if target is None or sum(option) >= target.size:
                        yield Turn(roll, grow, src, dst, *option)
        if not any_move:
            yield Turn(roll, grow)


def after(position: Position, turn: TurnLike) -> Position:
    """The position after ``turn`` (checked): handy for one-ply lookahead."""
    return apply(position, turn)


def advantage_after(position: Position, turn: TurnLike, player: str | None = None) -> tuple[int, int]:
    """``(delta, Delta)`` after ``turn``, from ``player``'s side (default: the mover): positive is good."""
    player = position.to_move if player is None else player
    result = apply(position, turn)
    sign = 1 if player == "A" else -1
    return sign * result.delta, sign * result.Delta


__all__ = [
    "Strategy",
    "StrategyFunction",
    "TurnLike",
    "advantage_after",
    "after",
    "as_function",
    "can_eat",
    "candidate_turns",
    "grown",
    "half",
    "neighbours",
    "owned_amoebae",
    "smallest_capture",
    "smallest_eat",
    "smallest_neutralisation",
    "strategy_name",
]
