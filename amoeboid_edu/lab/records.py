"""A game as the lab keeps it: who played it, the seats and the dice pair, the result, the forfeit, the turns.

The driver (:mod:`.scoring`) makes these records, the cards (:mod:`.cards`) count them, and the tournament
(:mod:`.contest`) writes them to its results file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_PER_MOVE_LIMIT = 1.0
"""Seconds a strategy may take for one move unless told (``per_move_limit=``, ``--per-move-limit``)."""
FORFEIT_REASONS = ("exception", "illegal", "malformed", "timeout", "crash", "load")
"""Why a game was forfeited: the strategy raised; returned an illegal turn; returned something that is
not a turn; took longer than the per-move limit; killed its worker; could not be loaded at all."""
PAIRED_DICE = "twin games in lockstep"
"""What keeps the two games of a dice pair from leaking their rolls to each other, as the card says it
(:func:`amoeboid_edu.lab.scoring._may_ask`): the harness enforces it on every platform, whatever walls stood."""


@dataclass(frozen=True)
class GameRecord:
    """One game of a match, as the score card and the tournament table count it."""

    first: str  # the match is first vs second; the pair's two games swap their seats
    second: str
    pair: int
    first_seat: str  # "A" or "B"
    winner: str | None  # "first", "second" or None (tie, or capped)
    turns: int
    capped: bool = False
    forfeit_by: str | None = None  # "first" or "second"
    reason: str | None = None  # one of FORFEIT_REASONS
    value: str | None = None  # what the strategy returned (or the error), shortened
    message: str | None = None  # why that value was refused
    output: tuple[str, ...] = ()  # the last lines the forfeiting strategy printed
    printed: tuple[int, int] = (0, 0)  # characters printed by first and second
    isolation: str = ""  # the walls around the untrusted side(s), e.g. "process + seccomp + landlock"
    moves: str = ""  # the turns played, in notation, joined by MOVES_JOIN (one string: a card keeps thousands)
    table: tuple[str, ...] = ()  # where the dice came from (see .match): replaying the game needs it
    lines: tuple[int, int] = (0, 0)  # lines printed by first and second
    outputs: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # the last lines each side printed in the game
    # Time first and second spent on their moves, and the slowest move of each, by their worker's clock: measured,
    # so not part of what makes two records the same game (the same seed gives equal records on any executor).
    seconds: tuple[float, float] = field(default=(0.0, 0.0), compare=False)
    slowest: tuple[float, float] = field(default=(0.0, 0.0), compare=False)
    asked: tuple[int, int] = (0, 0)  # moves asked of each side's worker (0 for a trusted bot)
    # Seconds on the wall clock each side's moves took, round trips included (measured, like ``seconds``): a move
    # that sleeps or waits uses no CPU time, which is what the per-move limit counts.
    waited: tuple[float, float] = field(default=(0.0, 0.0), compare=False)

    def played(self) -> list[str]:
        """The turns played, in notation."""
        return self.moves.split(MOVES_JOIN) if self.moves else []


MOVES_JOIN = "; "


__all__ = ["DEFAULT_PER_MOVE_LIMIT", "FORFEIT_REASONS", "GameRecord", "MOVES_JOIN", "PAIRED_DICE"]
