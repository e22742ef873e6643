"""Game records: the spec's plain-text format for a whole game.

::

    # a comment
    board 3x3
    start (1,0) . . / . . . / . . (0,1) A
    3 a1 a1-b1 4,0
    2 c3 c3-b3

Header lines (optional, before the first turn) set the board and the start
position; then one turn per line, sides alternating from the start's side to
move.  Cells, positions and turns themselves are read and written by
:mod:`amoeboid_edu.rules` (``Position.parse``, ``Turn.parse``, ``str()``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .rules import DEFAULT_RULES, Board, InvalidPositionError, InvalidTurnError, NotationError, Position, Rules, Turn

_BOARD = re.compile(r"(\d+)x(\d+)\Z")


class InvalidRecordError(NotationError):
    """A game record that cannot be read or replayed.

    ``str(error)`` is ``turn N: reason`` for a bad turn (N counts turns from 1)
    or ``line L: reason`` for a bad header line.
    """

    def __init__(self, reason: str, *, line: int | None = None, turn_number: int | None = None) -> None:
        self.reason, self.line, self.turn_number = reason, line, turn_number
        where = f"turn {turn_number}" if turn_number is not None else f"line {line}"
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True)
class Record:
    """A parsed record, not yet replayed: the start and the turns with their line numbers."""

    start: Position
    turns: tuple[Turn, ...]
    lines: tuple[int, ...]


def parse_record(text: str, rules: Rules = DEFAULT_RULES) -> Record:
    """Read a record's syntax; legality is checked when the turns are replayed."""
    board: Board | None = None
    start: Position | None = None
    turns: list[Turn] = []
    lines: list[int] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("board", "start"):
            if turns:
                raise InvalidRecordError(f"'{keyword}' must come before the first turn", line=number)
            if keyword == "board":
                match = _BOARD.match(rest.strip())
                if not match:
                    raise InvalidRecordError(f"expected 'board RxC' (rows x columns), got {line!r}", line=number)
                try:
                    board = Board.grid(int(match[1]), int(match[2]), rules.adjacency)
                except InvalidPositionError as error:
                    raise InvalidRecordError(str(error), line=number) from None
            else:
                try:
                    start = Position.parse(rest, rules)
                except InvalidPositionError as error:
                    raise InvalidRecordError(f"start position: {error}", line=number) from None
            continue
        try:
            turns.append(Turn.parse(line))
        except InvalidTurnError as error:
            raise InvalidRecordError(str(error), line=number, turn_number=len(turns) + 1) from None
        lines.append(number)
    if start is None:
        start = Position.start(board or Board.grid(3, 3, rules.adjacency), rules=rules)
    elif board is not None and board != start.board:
        raise InvalidRecordError(
            f"the start position is {start.board.shape} but the header says board {board.shape}", line=1
        )
    return Record(start, tuple(turns), tuple(lines))


def format_record(start: Position, turns: list[Turn] | tuple[Turn, ...], result: str | None = None) -> str:
    """Write a record: ``board`` always, ``start`` only when it is not the standard start."""
    if not start.board.is_grid:
        raise NotationError("game records cover grid boards only; save graph games with Game.to_json()")
    lines = [f"board {start.board.shape}"]
    if start != Position.start(start.board, rules=start.rules):
        lines.append(f"start {start}")
    lines.extend(str(turn) for turn in turns)
    if result is not None and result != "ongoing":
        lines.append(f"# result: {result}")
    return "\n".join(lines) + "\n"


__all__ = ["InvalidRecordError", "Record", "format_record", "parse_record"]
