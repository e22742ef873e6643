"""Game records: the spec's plain-text format for a whole game.

::

    # a comment
    board 3x3
    start (1,0) . . / . . . / . . (0,1) A
    3 a1 a1-b1 4,0
    2 c3 c3-b3

Header lines (optional, before the first turn) set the board and the start
position; then one turn per line, sides alternating from the start's side to
move.  Fields are separated by any run of spaces or tabs, and a byte-order
mark at the start is ignored.  Cells, positions and turns themselves are read
and written by :mod:`amoeboid_edu.engine.rules` (``Position.parse``, ``Turn.parse``,
``str()``).

A record is read line by line (:func:`read_record`) and replayed turn by
turn (:func:`replay_turns`), so replaying a long record needs memory for one
position, not for the whole game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from .rules import (
    BOM,
    DEFAULT_RULES,
    Board,
    IllegalTurnError,
    InvalidPositionError,
    InvalidTurnError,
    NotationError,
    Position,
    Rules,
    Turn,
    abbreviate,
    blank_fields,
    play_turn,
    whole_number,
)

HEADERS = ("board", "start")


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


def _content(line: str) -> str:
    """A line without its comment and surrounding blanks."""
    return line.partition("#")[0].strip(" \t\n\r\f\v")


def _board(fields: list[str], number: int, rules: Rules) -> Board:
    shape = fields[1] if len(fields) == 2 else ""
    rows_text, x, cols_text = shape.partition("x")
    try:
        if not x:
            raise NotationError("no x")
        rows, cols = whole_number(rows_text, "rows"), whole_number(cols_text, "columns")
    except NotationError:
        shown = abbreviate(" ".join(fields))
        raise InvalidRecordError(
            f"expected 'board RxC' (rows x columns, digits 0-9), got {shown!r}", line=number
        ) from None
    try:
        return Board.grid(rows, cols, rules.adjacency)
    except InvalidPositionError as error:
        raise InvalidRecordError(str(error), line=number) from None


def read_record(lines: Iterable[str], rules: Rules = DEFAULT_RULES) -> tuple[Position, Iterator[tuple[int, Turn]]]:
    """Read the headers now; return the start and a lazy iterator of ``(line number, turn)``.

    Syntax only: legality is checked when the turns are replayed
    (:func:`replay_turns`).  Each header may appear once; an error names the
    line it is on.
    """
    numbered = enumerate(lines, start=1)
    board: Board | None = None
    start: Position | None = None
    seen: dict[str, int] = {}
    first_turn: tuple[int, str] | None = None
    for number, raw in numbered:
        line = _content(raw.removeprefix(BOM) if number == 1 else raw)
        if not line:
            continue
        fields = blank_fields(line)
        keyword = fields[0]
        if keyword not in HEADERS:
            first_turn = (number, line)
            break
        if keyword in seen:
            raise InvalidRecordError(f"a second '{keyword}' header (the first is on line {seen[keyword]})", line=number)
        seen[keyword] = number
        if keyword == "board":
            board = _board(fields, number, rules)
        else:
            try:
                start = Position.parse(line[len(keyword) :], rules)
            except InvalidPositionError as error:
                raise InvalidRecordError(f"start position: {error}", line=number) from None
        if board is not None and start is not None and board != start.board:
            raise InvalidRecordError(
                f"the start position is {start.board.shape} but the header says board {board.shape}", line=number
            )
    if start is None:
        start = Position.start(board or Board.grid(3, 3, rules.adjacency), rules=rules)
    return start, _turns(first_turn, numbered)


def _turns(first: tuple[int, str] | None, numbered: Iterator[tuple[int, str]]) -> Iterator[tuple[int, Turn]]:
    if first is None:
        return
    count = 0

    def parsed(number: int, line: str) -> tuple[int, Turn]:
        try:
            return number, Turn.parse(line)
        except InvalidTurnError as error:
            raise InvalidRecordError(str(error), line=number, turn_number=count) from None

    count += 1
    yield parsed(*first)
    for number, raw in numbered:
        line = _content(raw)
        if not line:
            continue
        keyword = blank_fields(line)[0]
        if keyword in HEADERS:
            raise InvalidRecordError(f"'{keyword}' must come before the first turn", line=number)
        count += 1
        yield parsed(number, line)


def replay_turns(start: Position, turns: Iterable[tuple[int, Turn]]) -> Iterator[tuple[Turn, Position]]:
    """Play ``(line number, turn)`` pairs from ``start``; yield each turn (counts filled in) with the position after it.

    Raises :class:`InvalidRecordError` (``turn N: reason``) at the first illegal turn.
    """
    position = start
    for count, (number, turn) in enumerate(turns, start=1):
        try:
            played, position = play_turn(position, turn)
        except IllegalTurnError as error:
            raise InvalidRecordError(str(error), line=number, turn_number=count) from None
        yield played, position


def parse_record(text: str, rules: Rules = DEFAULT_RULES) -> Record:
    """Read a record's syntax; legality is checked when the turns are replayed."""
    start, numbered = read_record(text.splitlines(), rules)
    pairs = list(numbered)
    return Record(start, tuple(turn for _, turn in pairs), tuple(number for number, _ in pairs))


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


__all__ = ["InvalidRecordError", "Record", "format_record", "parse_record", "read_record", "replay_turns"]
