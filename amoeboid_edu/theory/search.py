"""Generic game-tree search on Amoeboid positions: forced wins, a fixed line's outcomes, counter-lines.

Nothing here knows the paper: a *line* is any function ``(position, roll) -> Turn``
(a deterministic strategy), *options* and *replies* are any functions
``(position, roll) -> iterable of turns``.  :mod:`amoeboid_edu.theory.paper` builds its
verdicts from these searches; a student can point them at their own strategy.

- :class:`ForcedWinSearch`: AND-OR search, "does A force a win within k of its turns?"
- :class:`LineOutcomes`: exact expectimax, "the best chance B has against this line".
- :func:`line_counterexample`: depth-first, "a line of play on which B wins against this line".
- :func:`grid_symmetries`: the 8 symmetries of a square board, to search each position once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterable

from ..players.bots import can_end_at_once
from ..engine.rules import Amoeba, Board, Position, Turn, apply, legal_turns

Line = Callable[[Position, int], Turn | str]
"""A deterministic strategy: the turn to play in a position after a roll."""
Options = Callable[[Position, int], Iterable[Turn | str]]
"""The turns to consider in a position after a roll."""
Node = tuple[tuple[Amoeba | None, ...], str, int]
"""A memo key: the cells, the side to move and the turns left."""


class SearchBudgetExceeded(RuntimeError):
    """The search visited more nodes than it was allowed to: the answer is unknown, not negative."""


def grid_symmetries(board: Board) -> list[tuple[int, ...]]:
    """The 8 symmetries of a square grid as index permutations (king and rook moves are invariant); only the
    identity for any other board."""
    n = board.rows
    if n is None or n != board.cols:
        return [tuple(range(len(board)))]
    maps: list[Callable[[int, int], tuple[int, int]]] = [
            lambda r, c: (r, c), lambda r, c: (c, r), lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
            lambda r, c: (n - 1 - r, n - 1 - c), lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - c, r),
            lambda r, c: (n - 1 - c, n - 1 - r)]  # fmt: skip
    return [tuple(f(i // n, i % n)[0] * n + f(i // n, i % n)[1] for i in range(n * n)) for f in maps]


@dataclass
class ForcedWinSearch:
    """AND-OR search: can A force a win within ``a_turns`` of its turns, whatever the dice and B do?

    A to move at the root.  A's options for a roll are ``a_options(position, roll)``
    (an iterable, the paper's line first, so a line that works is found first; an
    immediate win is always tried before anything deeper).  B's replies are
    ``b_replies(position, roll)`` — every legal turn by default.  Results are
    memoised per (position, turns left), up to the board's symmetries when
    ``symmetric`` — sound when A's options are the same up to symmetry, as
    candidate turns are (the strategy lab's bots only play candidate turns); a
    fixed line (one option) is not, so search it with ``symmetric=False``.
    ``budget`` caps the B replies visited (:class:`SearchBudgetExceeded`).
    """

    a_options: Options
    b_replies: Options = legal_turns
    budget: int = 2_000_000
    symmetric: bool = True
    nodes: int = 0
    memo: dict[tuple[tuple[tuple[int, int], ...], str, int], bool] = field(default_factory=dict)
    symmetries: list[tuple[int, ...]] = field(default_factory=list, repr=False)  # permutations, from the first board

    def _key(self, position: Position, a_turns: int) -> tuple[tuple[tuple[int, int], ...], str, int]:
        board = position.board
        if not self.symmetries:
            use = self.symmetric and board.is_grid
            self.symmetries = grid_symmetries(board) if use else [tuple(range(len(board)))]
        cells = position.cells
        return min(tuple(cells[i] or (0, 0) for i in perm) for perm in self.symmetries), position.to_move, a_turns

    def wins(self, position: Position, a_turns: int) -> bool:
        """True if A (to move) wins within ``a_turns`` A turns against every roll and reply."""
        key = self._key(position, a_turns)
        known = self.memo.get(key)
        if known is not None:
            return known
        answer = all(self._some_option_wins(position, roll, a_turns) for roll, _ in position.dice_outcomes())
        self.memo[key] = answer
        return answer

    def _some_option_wins(self, position: Position, roll: int, a_turns: int) -> bool:
        if self._wins_at_once(position, roll):
            return True
        if a_turns == 1:
            return False
        for turn in self.a_options(position, roll):
            after = apply(position, turn)
            if not after.is_over and self._every_reply_loses(after, a_turns - 1):
                return True
        return False

    @staticmethod
    def _wins_at_once(position: Position, roll: int) -> bool:
        """Whether some legal A turn wins now (eating B's last amoeba): exact, without enumerating turns."""
        return can_end_at_once(position, roll, ties=False)

    def refutation(self, position: Position, a_turns: int) -> tuple[list[str], Position]:
        """After ``wins`` said False: one line of play on which A's *first* option never wins in time.

        Returns the rolls and turns in notation (``A 3 a1 a1-b2 ...``, ``B ...``)
        and the position where it ends (the game over, or A's turns used up).
        """
        path: list[str] = []
        while True:
            roll = next(r for r, _ in position.dice_outcomes() if not self._some_option_wins(position, r, a_turns))
            turn = next(iter(self.a_options(position, roll)))
            position = apply(position, turn)
            path.append(f"A {turn}")
            if position.is_over or a_turns == 1:
                return path, position
            a_turns -= 1
            reply: Turn | str | None = None
            for b_roll, _ in position.dice_outcomes():
                replies = self.b_replies(position, b_roll)
                reply = next((reply for reply in replies if self._survives(position, reply, a_turns)), None)
                if reply is not None:
                    break
            assert reply is not None, "A's first option does not force the win, so some roll has a reply that survives"
            position = apply(position, reply)
            path.append(f"B {reply}")
            if position.is_over:
                return path, position

    def _survives(self, position: Position, reply: Turn | str, a_turns: int) -> bool:
        after = apply(position, reply)
        return after.result != "A" and (after.is_over or not self.wins(after, a_turns))

    def _every_reply_loses(self, position: Position, a_turns: int) -> bool:
        for roll, _ in position.dice_outcomes():
            for reply in self.b_replies(position, roll):
                self.nodes += 1
                if self.nodes > self.budget:
                    raise SearchBudgetExceeded(f"more than {self.budget:,} B replies visited")
                after = apply(position, reply)
                if after.result == "A":
                    continue
                if after.is_over or not self.wins(after, a_turns):
                    return False
        return True


@dataclass
class LineOutcomes:
    """A plays a fixed line, B anything: the best B can do against it within a horizon.

    ``value(position, turns)`` is the largest probability, over every B
    strategy (B's replies from ``b_replies``, all legal turns by default), that
    ``goal`` holds when the game ends or the horizon of ``turns`` turns runs out
    (A's turn from ``a_line(position, roll)``, the dice averaged exactly).
    ``goal`` is ``"B wins"`` or ``"A has not won"``.  Memoised; ``budget`` caps B replies.
    """

    a_line: Line
    goal: str = "B wins"
    b_replies: Options = legal_turns
    budget: int = 2_000_000
    nodes: int = 0
    memo: dict[Node, Fraction] = field(default_factory=dict)
    reached: dict[str, set[tuple[Amoeba | None, ...]]] = field(default_factory=dict)
    """The results of the ended games found: ``{result: distinct positions}``."""

    def _score(self, position: Position) -> Fraction:
        if position.is_over:
            self.reached.setdefault(position.result, set()).add(position.cells)
        result = position.result
        return Fraction(int(result == "B" if self.goal == "B wins" else result != "A"))

    def value(self, position: Position, turns: int) -> Fraction:
        if position.is_over or turns == 0:
            return self._score(position)
        key = (position.cells, position.to_move, turns)
        known = self.memo.get(key)
        if known is not None:
            return known
        total = Fraction(0)
        for roll, p in position.dice_outcomes():
            if position.to_move == "A":
                total += p * self.value(apply(position, self.a_line(position, roll)), turns - 1)
                continue
            best = Fraction(0)
            for reply in self.b_replies(position, roll):
                self.nodes += 1
                if self.nodes > self.budget:
                    raise SearchBudgetExceeded(f"more than {self.budget:,} B replies visited")
                best = max(best, self.value(apply(position, reply), turns - 1))
                if best == 1:
                    break
            total += p * best
        self.memo[key] = total
        return total


def line_counterexample(position: Position, a_line: Line, turns: int,
                        b_replies: Options = legal_turns,
                        budget: int = 2_000_000) -> list[str] | None:  # fmt: skip
    """A line of play, within ``turns`` turns, on which B wins against ``a_line``; None if there is none.

    Depth-first over every roll and every B reply (A's turns from ``a_line``),
    stopping at the first B win, so a refutation is found fast and a None is
    an exhaustive check.  B's last turn is decided exactly without enumerating
    its replies (:func:`~amoeboid_edu.players.bots.can_end_at_once`), which is sound
    when ``b_replies`` gives every legal turn.  Memoised per (position, turns
    left).  ``budget`` caps the turns visited (:class:`SearchBudgetExceeded`).
    """
    no_win: set[Node] = set()
    visited = [0]
    exact_last_turn = b_replies is legal_turns

    def search(position: Position, turns: int) -> list[str] | None:
        if position.result == "B":
            return []
        if position.is_over or turns == 0 or (position.cells, position.to_move, turns) in no_win:
            return None
        last_b_turn = turns == 1 and position.to_move == "B"
        if last_b_turn and exact_last_turn and not can_end_at_once(position, ties=False):
            no_win.add((position.cells, position.to_move, turns))
            return None
        for roll, _ in position.dice_outcomes():
            if last_b_turn and exact_last_turn and not can_end_at_once(position, roll, ties=False):
                continue
            moves: Iterable[Turn | str]
            moves = [a_line(position, roll)] if position.to_move == "A" else b_replies(position, roll)
            for turn in moves:
                visited[0] += 1
                if visited[0] > budget:
                    raise SearchBudgetExceeded(f"more than {budget:,} turns visited")
                rest = search(apply(position, turn), turns - 1)
                if rest is not None:
                    return [f"{position.to_move} {turn}"] + rest
        no_win.add((position.cells, position.to_move, turns))
        return None

    return search(position, turns)


__all__ = ["ForcedWinSearch", "LineOutcomes", "SearchBudgetExceeded", "grid_symmetries", "line_counterexample"]
