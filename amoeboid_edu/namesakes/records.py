"""What both namesakes' notations share: the error families and reading a game record line by line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar


class NotationError(ValueError):
    """Text that is not well-formed notation of one of the namesakes (a position, a move, a record)."""


class InvalidMoveError(ValueError):
    """A move object built in code that names no move of its game (a point off the board, a pyramid of 4 pips)."""


class RuleError(ValueError):
    """A well-formed move that the rules forbid where it was played; ``rule`` names the rule it breaks."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


class _Playable(Protocol):
    def play(self, move: str) -> object: ...


G = TypeVar("G", bound=_Playable)


def read_record(
    text: str, new_game: Callable[[], G], headers: dict[str, Callable[[str], G]], error: type[NotationError]
) -> G:
    """Play a record: header lines (``keyword rest``) before the first move, then one move per line.

    ``#`` starts a comment and blank lines are skipped; any failure is raised
    as ``error`` naming the line, so a typo in a long record is easy to find.
    """
    game: G | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#")[0].strip()
        if not line:
            continue
        try:
            keyword, _, rest = line.partition(" ")
            if keyword in headers:
                if game is not None:
                    raise error(f"'{keyword}' must come before the first move")
                game = headers[keyword](rest.strip())
                continue
            game = game if game is not None else new_game()
            game.play(line)
        except ValueError as failure:
            raise error(f"line {number}: {failure}") from None
    return game if game is not None else new_game()


__all__ = ["InvalidMoveError", "NotationError", "RuleError", "read_record"]
