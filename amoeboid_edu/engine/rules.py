"""The rules of Amoeboid: boards, amoebae, positions, turns and their legality.

This module is pure: no I/O and no global random state.  Everything in it is an
immutable value, so a position can be shared with a student's strategy, used as
a dictionary key, or compared for equality without copying.

The text forms of cells, positions and turns (``../shared/spec/notation.md``)
live here too, because they are the identity of these values: ``str()`` is the
canonical notation and ``Position.parse(str(p)) == p`` for every grid position.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from math import isqrt
from typing import Any, Iterator, Mapping, NamedTuple, Sequence, overload

_new_object = object.__new__

PLAYERS = ("A", "B")
MAX_GRID_SIDE = 26  # columns are the letters a..z
ECHO_LIMIT = 200  # characters of user input an error message repeats
MAX_DIGITS = 4300  # Python's own limit for int(str); longer numbers are refused before converting
BLANKS = " \t\n\r\f\v"  # white space between tokens: spaces, tabs and the other ASCII blanks (never Unicode ones)
BOM = "\ufeff"  # a byte-order mark at the start of a text is ignored


def abbreviate(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, ending ``… (N more)``.

    Every error that repeats user input goes through this, so that a 100 MB
    token gives a one-line message, not a 100 MB one.
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more)"


# --------------------------------------------------------------------------- errors


class NotationError(ValueError):
    """Text that is not well-formed notation (a position, a turn, a record)."""


class InvalidPositionError(NotationError):
    """A position text or value that does not describe a position."""


class InvalidTurnError(NotationError):
    """A turn text that is not of the form ``ROLL GROW SRC-DST A,B``."""


class IllegalTurnError(ValueError):
    """A well-formed turn that the rules forbid in the position it was played in.

    ``reason`` is a short code for the rule broken (``"not-adjacent"``,
    ``"move-compulsory"``, ... see :data:`ILLEGAL_REASONS`), so that callers
    never take the message apart; ``rule`` is the sentence explaining it;
    ``str()`` adds the turn and the position when they are known.
    """

    def __init__(self, rule: str, reason: str = "illegal", turn: str | None = None, position: str | None = None) -> None:
        self.rule, self.reason, self.turn, self.position = rule, reason, turn, position
        if turn is None:
            message = rule
        elif position is None:
            message = f"illegal turn '{abbreviate(turn)}': {rule}"
        else:
            message = f"illegal turn '{abbreviate(turn)}' in position {abbreviate(position)}: {rule}"
        super().__init__(message)

    def __reduce__(self) -> tuple[type[IllegalTurnError], tuple[str, str, str | None, str | None]]:
        return (IllegalTurnError, (self.rule, self.reason, self.turn, self.position))


ILLEGAL_REASONS = (
    "roll",  # the roll is not a face of the die
    "game-over",  # the game has ended
    "no-cell",  # a cell name that is not on the board
    "grow-not-owned",  # the grown amoeba is not the mover's
    "move-compulsory",  # "ROLL GROW -" while a move exists
    "source-not-owned",  # the moved amoeba is not the mover's after the grow
    "not-adjacent",  # the destination does not neighbour the source
    "counts",  # more units than the source holds
    "empty-move",  # a move of zero units
    "too-big",  # the destination is bigger than the moving amoeba
    "wrong-roll",  # a game's turn that does not use the die it rolled
)


def whole_number(text: str, what: str) -> int:
    """``int(text)`` for ASCII digits only; anything else is a :class:`NotationError` naming ``what``.

    Python's ``int`` also reads Arabic-Indic or full-width digits, signs,
    underscores and spaces; the notation does not.
    """
    if not (text.isascii() and text.isdigit()):
        raise NotationError(f"{what} must be a whole number written with the digits 0-9, not {abbreviate(text)!r}")
    if len(text) > MAX_DIGITS:
        raise NotationError(f"{what} has {len(text)} digits; at most {MAX_DIGITS} are read")
    return int(text)


def _is_digits(text: str) -> bool:
    """Whether :func:`whole_number` reads ``text`` without an error."""
    return text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS


def is_cell_name(text: str) -> bool:
    """Whether ``text`` may name a cell or a graph node: ASCII letters, digits and ``_``."""
    return text.isascii() and (text.replace("_", "a").isalnum())


_TO_SPACE = str.maketrans({blank: " " for blank in BLANKS})


def blank_fields(text: str) -> list[str]:
    """``text`` split at runs of spaces and tabs (:data:`BLANKS`); a leading byte-order mark is dropped.

    Unlike ``str.split()``, Unicode spaces (a no-break space pasted from a
    slide) stay inside a field, so the error names them.
    """
    return [part for part in text.removeprefix(BOM).translate(_TO_SPACE).split(" ") if part]


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class Rules:
    """Options for variant lessons; the defaults are the paper's game.

    adjacency: ``"king"`` (the 8 surrounding cells, as the paper's example game
    needs) or ``"rook"`` (the 4 orthogonal cells).  Graph boards bring their own
    adjacency and ignore this field.
    die_sides: the die rolls 1..die_sides with equal probability.
    """

    adjacency: str = "king"
    die_sides: int = 6

    def __post_init__(self) -> None:
        if self.adjacency not in ("king", "rook"):
            raise ValueError(f"adjacency must be 'king' or 'rook', not {self.adjacency!r}")
        if not isinstance(self.die_sides, int) or self.die_sides < 1:
            raise ValueError(f"die_sides must be a positive integer, not {self.die_sides!r}")

    def dice_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """Every roll with its exact probability (the game's chance node)."""
        p = Fraction(1, self.die_sides)
        return tuple((roll, p) for roll in range(1, self.die_sides + 1))


DEFAULT_RULES = Rules()


def dice_outcomes(rules: Rules = DEFAULT_RULES) -> tuple[tuple[int, Fraction], ...]:
    """``((1, 1/6), (2, 1/6), ...)``: the die as an explicit chance node."""
    return rules.dice_outcomes()


# --------------------------------------------------------------------------- boards

@dataclass(frozen=True)
class Board:
    """Cells and who neighbours whom.  Cells are named; internally they are indices.

    Build one with :meth:`grid` (the paper's n x n board, any rectangle up to
    26 x 26) or :meth:`graph` ("this game can be played on any graph").
    """

    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    start_cells: tuple[int, int]
    rows: int | None = None
    cols: int | None = None
    adjacency: str = "graph"
    index: Mapping[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {name: i for i, name in enumerate(self.names)})

    @staticmethod
    def grid(rows: int, cols: int | None = None, adjacency: str = "king") -> Board:
        """A rows x cols grid; A starts top-left (``a1``), B in the opposite corner."""
        return _grid(rows, rows if cols is None else cols, adjacency)

    @staticmethod
    def graph(adjacency: Mapping[Any, Any] | Any, start: tuple[object, object]) -> Board:
        """A board from ``{node: [neighbours...]}`` or a networkx graph.

        Edges are made symmetric; node names are ``str(node)`` and must be
        identifiers (letters, digits, ``_``) so that turns stay readable.
        ``start`` gives A's and B's start nodes.
        """
        if hasattr(adjacency, "adj"):  # a networkx graph
            graph: Any = adjacency
            adjacency = {node: list(graph.adj[node]) for node in graph.nodes}
        if not isinstance(adjacency, Mapping):
            raise InvalidPositionError("a graph board needs a mapping {node: [neighbours]} or a networkx graph")
        names = [str(node) for node in adjacency]
        for name in names:
            if not is_cell_name(name):
                raise InvalidPositionError(f"graph node name {abbreviate(name)!r} must use only letters, digits and _")
        if len(set(names)) != len(names):
            raise InvalidPositionError("graph node names must be distinct after str()")
        index = {name: i for i, name in enumerate(names)}
        linked: list[set[int]] = [set() for _ in names]
        for node, adjacent in adjacency.items():
            i = index[str(node)]
            for other in adjacent:
                j = index.get(str(other))
                if j is None:
                    raise InvalidPositionError(
                        f"edge {abbreviate(str(node))}-{abbreviate(str(other))}: {abbreviate(str(other))} is not a node of the graph"
                    )
                if i != j:
                    linked[i].add(j)
                    linked[j].add(i)
        try:
            starts = (index[str(start[0])], index[str(start[1])])
        except (KeyError, IndexError, TypeError):
            raise InvalidPositionError(f"start {abbreviate(repr(start))} must name two nodes of the graph") from None
        if starts[0] == starts[1]:
            raise InvalidPositionError("A and B must start on different nodes")
        return Board(tuple(names), tuple(tuple(sorted(n)) for n in linked), starts)

    @property
    def is_grid(self) -> bool:
        return self.rows is not None

    @property
    def shape(self) -> str:
        """``"3x3"`` (rows x columns) for grids, ``"graph"`` otherwise."""
        return f"{self.rows}x{self.cols}" if self.is_grid else "graph"

    def __len__(self) -> int:
        return len(self.names)

    def cell_index(self, name: str) -> int:
        try:
            return self.index[name]
        except (KeyError, TypeError):
            raise KeyError(f"no cell {abbreviate(str(name))!r} on this {self.shape} board") from None

    def neighbours_of(self, name: str) -> tuple[str, ...]:
        """The cells adjacent to ``name``, in board order."""
        return tuple(self.names[j] for j in self.neighbours[self.cell_index(name)])

    def are_adjacent(self, first: str, second: str) -> bool:
        return self.cell_index(second) in self.neighbours[self.cell_index(first)]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: what a graph board is saved as."""
        if self.is_grid:
            return {"rows": self.rows, "cols": self.cols, "adjacency": self.adjacency}
        return {
            "graph": {name: [self.names[j] for j in self.neighbours[i]] for i, name in enumerate(self.names)},
            "start": [self.names[self.start_cells[0]], self.names[self.start_cells[1]]],
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Board:
        if "graph" in data:
            return Board.graph(data["graph"], tuple(data["start"]))
        return Board.grid(int(data["rows"]), int(data["cols"]), data.get("adjacency", "king"))


def grid_cell_name(row: int, col: int) -> str:
    """``grid_cell_name(0, 0) == "a1"``: columns are letters, rows count from the top."""
    return f"{chr(ord('a') + col)}{row + 1}"


@lru_cache(maxsize=None)
def _grid(rows: int, cols: int, adjacency: str) -> Board:
    if not (isinstance(rows, int) and isinstance(cols, int)):
        raise InvalidPositionError(f"board size must be whole numbers, not {rows!r} x {cols!r}")
    if not (1 <= rows <= MAX_GRID_SIDE and 1 <= cols <= MAX_GRID_SIDE) or rows * cols < 2:
        raise InvalidPositionError(f"a grid board is 1..26 x 1..26 with at least 2 cells, not {rows}x{cols}")
    if adjacency not in ("king", "rook"):
        raise ValueError(f"adjacency must be 'king' or 'rook', not {adjacency!r}")
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    if adjacency == "rook":
        steps = [(dr, dc) for dr, dc in steps if dr == 0 or dc == 0]
    names = tuple(grid_cell_name(r, c) for r in range(rows) for c in range(cols))
    neighbours = tuple(
        tuple(sorted((r + dr) * cols + (c + dc) for dr, dc in steps if 0 <= r + dr < rows and 0 <= c + dc < cols))
        for r in range(rows)
        for c in range(cols)
    )
    return Board(names, neighbours, (0, rows * cols - 1), rows, cols, adjacency)


# --------------------------------------------------------------------------- amoebae


class Amoeba(NamedTuple):
    """A piece: ``a`` units of player A's control and ``b`` of player B's."""

    a: int
    b: int

    @property
    def size(self) -> int:
        return self.a + self.b

    @property
    def owner(self) -> str | None:
        """The player with strictly more control; ``None`` for a neutral amoeba."""
        if self.a > self.b:
            return "A"
        if self.b > self.a:
            return "B"
        return None

    @property
    def is_neutral(self) -> bool:
        return self.a == self.b

    def __str__(self) -> str:
        return f"({self.a},{self.b})"


def other(player: str) -> str:
    """The opponent of ``player``."""
    return "B" if player == "A" else "A"


# --------------------------------------------------------------------------- turns

@dataclass(frozen=True)
class Turn:
    """One turn: the roll, the amoeba it grows, then a move (or ``-`` when none exists).

    ``a``/``b`` are how many of A's and B's units move from ``src`` to ``dst``;
    ``None`` means "the whole amoeba" (the spec lets a record omit the counts).
    ``str(turn)`` is the notation, e.g. ``3 a1 a1-b1 4,0`` or ``5 c3 -``.
    """

    roll: int
    grow: str
    src: str | None = None
    dst: str | None = None
    a: int | None = None
    b: int | None = None

    def __post_init__(self) -> None:
        if (self.src is None) != (self.dst is None):
            raise InvalidTurnError("a move needs both a source and a destination cell")
        if self.src is None and (self.a is not None or self.b is not None):
            raise InvalidTurnError("a turn without a move cannot move units")
        if (self.a is None) != (self.b is None):
            raise InvalidTurnError("give both counts A,B or neither")

    @staticmethod
    def unchecked(roll: int, grow: str, src: str | None = None, dst: str | None = None, a: int | None = None,
                  b: int | None = None) -> Turn:
        """A turn the engine or a bot knows to be well formed, built without ``__post_init__``'s checks.

        The hot path of the turn generators (about three times faster than ``Turn(...)``); the result is an
        ordinary, equal :class:`Turn`.  Everything that reads outside input uses the checked constructor.
        """
        turn: Turn = _new_object(Turn)
        turn.__dict__.update(roll=roll, grow=grow, src=src, dst=dst, a=a, b=b)
        return turn

    @property
    def is_pass(self) -> bool:
        """True for ``ROLL GROW -``: the mover had no legal move after growing."""
        return self.src is None

    @staticmethod
    def parse(text: str) -> Turn:
        """Read ``ROLL GROW SRC-DST [A,B]`` or ``ROLL GROW -`` (any runs of spaces or tabs between fields)."""
        if type(text) is str:  # what str(turn) writes, one space between fields, is read at once (the referee
            fields = text.split(" ")  # reads every answer); anything else field by field, naming what is wrong
            if 3 <= len(fields) <= 4 and _is_digits(fields[0]) and is_cell_name(fields[1]):
                roll, grow, move = int(fields[0]), fields[1], fields[2]
                if move == "-":
                    if len(fields) == 3:
                        return Turn(roll, grow)
                else:
                    src, dash, dst = move.partition("-")
                    if dash and is_cell_name(src) and is_cell_name(dst):
                        if len(fields) == 3:
                            return Turn(roll, grow, src, dst)
                        a, comma, b = fields[3].partition(",")
                        if comma and _is_digits(a) and _is_digits(b):
                            return Turn(roll, grow, src, dst, int(a), int(b))
        return Turn._parse_fields(text)

    @staticmethod
    def _parse_fields(text: str) -> Turn:
        """:meth:`parse` field by field, naming what is wrong."""
        if not isinstance(text, str):
            raise InvalidTurnError(f"a turn is text like '3 a1 a1-b1 4,0', not {type(text).__name__}")
        fields = blank_fields(text)
        shown = abbreviate(" ".join(fields)) or "(empty)"
        if len(fields) not in (3, 4):
            raise InvalidTurnError(f"turn {shown!r}: expected 'ROLL GROW SRC-DST A,B' or 'ROLL GROW -'")
        roll_text, grow, move = fields[:3]
        try:
            roll = whole_number(roll_text, "the roll")
        except NotationError as error:
            raise InvalidTurnError(f"turn {shown!r}: {error}") from None
        if not is_cell_name(grow):
            raise InvalidTurnError(f"turn {shown!r}: {abbreviate(grow)!r} is not a cell name")
        if move == "-":
            if len(fields) == 4:
                raise InvalidTurnError(f"turn {shown!r}: a turn without a move has no counts")
            return Turn(roll, grow)
        src, dash, dst = move.partition("-")
        if not (dash and is_cell_name(src) and is_cell_name(dst)):
            raise InvalidTurnError(f"turn {shown!r}: the move {abbreviate(move)!r} is not SRC-DST")
        if len(fields) == 3:
            return Turn(roll, grow, src, dst)
        a_text, comma, b_text = fields[3].partition(",")
        try:
            if not comma:
                raise NotationError("no comma")
            a, b = whole_number(a_text, "A"), whole_number(b_text, "B")
        except NotationError:
            raise InvalidTurnError(
                f"turn {shown!r}: the counts {abbreviate(fields[3])!r} are not A,B (two whole numbers, digits 0-9)"
            ) from None
        return Turn(roll, grow, src, dst, a, b)

    def __str__(self) -> str:
        if self.src is None:
            return f"{self.roll} {self.grow} -"
        counts = "" if self.a is None else f" {self.a},{self.b}"
        return f"{self.roll} {self.grow} {self.src}-{self.dst}{counts}"

    def __repr__(self) -> str:
        return f"Turn.parse({str(self)!r})"


# --------------------------------------------------------------------------- positions

def _parse_row(text: str, row: int) -> list[Amoeba | None]:
    """One row of a position: ``.`` or ``(a,b)`` tokens, with free white space inside the brackets.

    Linear: the row is split at spaces once, and the pieces of a bracketed
    amoeba written with spaces (``( 1 , 0 )``) are joined once.
    """
    pieces = text.split(" ")
    cells: list[Amoeba | None] = []
    i, count = 0, len(pieces)
    while i < count:
        token = pieces[i]
        i += 1
        if not token:
            continue
        if token.startswith("(") and ")" not in token:
            parts = [token]
            while i < count and ")" not in pieces[i]:
                parts.append(pieces[i])
                i += 1
            if i < count:
                parts.append(pieces[i])
                i += 1
            token = "".join(parts)
        cells.append(_parse_cell(token, row, len(cells) + 1))
    if not cells:
        raise InvalidPositionError(f"row {row} is empty")
    return cells


def _parse_cell(token: str, row: int, column: int) -> Amoeba | None:
    if token == ".":
        return None
    where = f"row {row}, column {column}"
    a_text, comma, b_text = token[1:-1].partition(",")
    if not (token.startswith("(") and token.endswith(")") and comma):
        raise InvalidPositionError(f"{where}: {abbreviate(token)!r} is neither '.' nor an amoeba '(a,b)'")
    try:
        amoeba = Amoeba(whole_number(a_text, "A's count"), whole_number(b_text, "B's count"))
    except NotationError as error:
        raise InvalidPositionError(f"{where}: {abbreviate(token)!r} is neither '.' nor an amoeba '(a,b)': {error}") from None
    if amoeba.size == 0:
        raise InvalidPositionError(f"{where}: (0,0) is not an amoeba (write '.' for an empty cell)")
    return amoeba


@dataclass(frozen=True)
class Position:
    """Where every amoeba is and whose turn it is: an immutable value.

    >>> p = Position.parse("(1,0) . . / . . . / . . (0,1) A")
    >>> p["a1"], p.to_move, p.delta
    (Amoeba(a=1, b=0), 'A', 0)
    """

    board: Board
    cells: tuple[Amoeba | None, ...]
    to_move: str = "A"
    rules: Rules = DEFAULT_RULES

    def __post_init__(self) -> None:
        if not isinstance(self.board, Board):
            raise InvalidPositionError("board must be a Board")
        if self.to_move not in PLAYERS:
            raise InvalidPositionError(f"the side to move is 'A' or 'B', not {abbreviate(repr(self.to_move))}")
        cells = tuple(self.cells)
        if len(cells) != len(self.board):
            raise InvalidPositionError(f"{len(cells)} cells given for a board of {len(self.board)}")
        normal: list[Amoeba | None] = []
        for name, cell in zip(self.board.names, cells):
            if cell is None:
                normal.append(None)
                continue
            try:
                a, b = cell
            except (TypeError, ValueError):
                raise InvalidPositionError(f"cell {name}: {abbreviate(repr(cell))} is not an amoeba (a,b)") from None
            if not (type(a) is int and type(b) is int) or a < 0 or b < 0:
                raise InvalidPositionError(
                    f"cell {name}: control numbers must be whole numbers >= 0, not {abbreviate(repr(cell))}"
                )
            if a + b == 0:
                raise InvalidPositionError(f"cell {name}: an amoeba has size >= 1 (write '.' for an empty cell)")
            normal.append(cell if type(cell) is Amoeba else Amoeba(a, b))
        object.__setattr__(self, "cells", tuple(normal))

    # -- construction ----------------------------------------------------------------

    @staticmethod
    def start(rows: int | Board = 3, cols: int | None = None, rules: Rules = DEFAULT_RULES) -> Position:
        """The standard start: (1,0) top-left, (0,1) in the opposite corner, A to move.

        ``Position.start(board)`` does the same on any :class:`Board` (graphs too).
        """
        board = rows if isinstance(rows, Board) else Board.grid(rows, cols, rules.adjacency)
        cells: list[Amoeba | None] = [None] * len(board)
        cells[board.start_cells[0]] = Amoeba(1, 0)
        cells[board.start_cells[1]] = Amoeba(0, 1)
        return Position(board, tuple(cells), "A", rules)

    @staticmethod
    def unchecked(board: Board, cells: tuple[Amoeba | None, ...], to_move: str, rules: Rules = DEFAULT_RULES) -> Position:
        """A position from cells the engine itself computed, skipping the validation (the hot path of ``apply``).

        ``cells`` must be a tuple of :class:`Amoeba` or ``None``, one per cell,
        and ``to_move`` ``"A"`` or ``"B"``; anything else makes a broken value.
        Everything that reads outside input uses the checked constructor.
        """
        position = object.__new__(Position)
        position.__dict__.update(board=board, cells=cells, to_move=to_move, rules=rules)
        return position

    @staticmethod
    def parse(text: str, rules: Rules = DEFAULT_RULES) -> Position:
        """Read a grid position: rows top to bottom separated by ``/``, then ``A`` or ``B``.

        White space (runs of spaces and tabs) around tokens is free:
        ``(1,0) . . / . . . / . ( 0 , 1 ) A``.  The reading is linear in the
        length of the text, whatever the text.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(f"a position is text, not {type(text).__name__}")
        body = text.removeprefix(BOM).translate(_TO_SPACE).strip(" ")
        if not body:
            raise InvalidPositionError("empty position: expected rows like '(1,0) . . / . . . / . . (0,1) A'")
        cut = body.rfind(" ")
        side = body[cut + 1 :]
        if cut < 0 or side not in PLAYERS:
            raise InvalidPositionError(f"a position ends with the side to move, A or B, not {abbreviate(side)!r}")
        grid = [_parse_row(row_text, r) for r, row_text in enumerate(body[:cut].split("/"), start=1)]
        widths = {len(row) for row in grid}
        if len(widths) != 1:
            lengths = [len(row) for row in grid]
            raise InvalidPositionError(f"rows have different lengths: {abbreviate(str(lengths))}")
        board = Board.grid(len(grid), widths.pop(), rules.adjacency)
        return Position(board, tuple(cell for row in grid for cell in row), side, rules)

    # -- text -------------------------------------------------------------------------

    def __str__(self) -> str:
        rows_count, cols = self.board.rows, self.board.cols
        if rows_count is None or cols is None:
            return self.to_json()
        cells = [("." if cell is None else f"({cell.a},{cell.b})") for cell in self.cells]
        rows = (" ".join(cells[r * cols : (r + 1) * cols]) for r in range(rows_count))
        return " / ".join(rows) + " " + self.to_move

    def __repr__(self) -> str:
        if not self.board.is_grid:
            return f"Position.from_json({self.to_json()!r})"
        rules = "" if self.rules == DEFAULT_RULES else f", rules={self.rules!r}"
        return f"Position.parse({str(self)!r}{rules})"

    def to_json(self) -> str:
        """The JSON form, for any board (graph boards have no grid notation)."""
        amoebae = {name: [cell.a, cell.b] for name, cell in zip(self.board.names, self.cells) if cell is not None}
        data: dict[str, Any] = {"board": self.board.to_dict(), "amoebae": amoebae, "to_move": self.to_move}
        if self.rules.die_sides != DEFAULT_RULES.die_sides:
            data["die_sides"] = self.rules.die_sides
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @staticmethod
    def from_json(text: str) -> Position:
        """The position saved by :meth:`to_json`; :class:`InvalidPositionError` for anything else."""
        try:
            data = json.loads(text)
            board = Board.from_dict(data["board"])
            rules = Rules(adjacency=board.adjacency if board.is_grid else "king", die_sides=data.get("die_sides", 6))
            cells: list[Amoeba | None] = [None] * len(board)
            for name, (a, b) in data["amoebae"].items():
                cells[board.cell_index(name)] = Amoeba(a, b)
            return Position(board, tuple(cells), data["to_move"], rules)
        except InvalidPositionError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise InvalidPositionError(f"not a position in JSON form: {abbreviate(str(error))}") from None

    def _repr_svg_(self) -> str:
        from ..ui.render import position_svg  # drawing is optional: imported only in notebooks

        return position_svg(self)

    # -- reading ----------------------------------------------------------------------

    def __getitem__(self, cell: str) -> Amoeba | None:
        """``position["b2"]``: the amoeba on a cell, or None when it is empty."""
        return self.cells[self.board.cell_index(cell)]

    def amoebae(self) -> dict[str, Amoeba]:
        """Every amoeba by cell name, in board order."""
        return {name: cell for name, cell in zip(self.board.names, self.cells) if cell is not None}

    def owned(self, player: str | None = None) -> list[str]:
        """The cells whose amoeba ``player`` (default: the side to move) owns, in board order."""
        player = self.to_move if player is None else player
        return [name for name, cell in zip(self.board.names, self.cells) if cell is not None and cell.owner == player]

    def owned_indices(self, player: str) -> list[int]:
        """The indices of the cells whose amoeba ``player`` owns, in board order (for engine code)."""
        if player == "A":
            return [i for i, cell in enumerate(self.cells) if cell is not None and cell.a > cell.b]
        return [i for i, cell in enumerate(self.cells) if cell is not None and cell.b > cell.a]

    # -- the paper's quantities (units are conserved: only rolls create them) -------------

    @property
    def sigma_A(self) -> int:
        """Sum of A's rolls so far: A's units on the board minus the one A started with."""
        return sum(cell.a for cell in self.cells if cell is not None) - 1

    @property
    def sigma_B(self) -> int:
        return sum(cell.b for cell in self.cells if cell is not None) - 1

    @property
    def delta(self) -> int:
        """Advantage 1: sigma_A - sigma_B."""
        return self.sigma_A - self.sigma_B

    @property
    def Sigma_A(self) -> int:  # noqa: N802 - the paper's name
        """Total size of the amoebae A owns."""
        return sum(cell.a + cell.b for cell in self.cells if cell is not None and cell.a > cell.b)

    @property
    def Sigma_B(self) -> int:  # noqa: N802
        return sum(cell.a + cell.b for cell in self.cells if cell is not None and cell.b > cell.a)

    @property
    def Delta(self) -> int:  # noqa: N802
        """Advantage 2: Sigma_A - Sigma_B."""
        return self.Sigma_A - self.Sigma_B

    # -- the end of the game ------------------------------------------------------------

    @cached_property
    def result(self) -> str:
        """``"A"``, ``"B"``, ``"tie"`` or ``"ongoing"``.

        The game is over as soon as one player owns no amoeba; whoever owns any
        wins, and if nobody does it is a tie.  Computed once per position (a
        position never changes), since every turn's checks ask for it.
        """
        owns_a = owns_b = False
        for cell in self.cells:
            if cell is not None:
                if cell.a > cell.b:
                    owns_a = True
                elif cell.b > cell.a:
                    owns_b = True
        if owns_a and owns_b:
            return "ongoing"
        if owns_a:
            return "A"
        if owns_b:
            return "B"
        return "tie"

    @property
    def is_over(self) -> bool:
        return self.result != "ongoing"

    # -- playing (thin wrappers over the module functions) --------------------------------

    def legal_turns(self, roll: int) -> Iterator[Turn]:
        return legal_turns(self, roll)

    def count_legal_turns(self, roll: int) -> int:
        return count_legal_turns(self, roll)

    def is_legal(self, turn: Turn | str) -> bool:
        return is_legal(self, turn)

    def apply(self, turn: Turn | str) -> Position:
        return apply(self, turn)

    def dice_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        return self.rules.dice_outcomes()


# --------------------------------------------------------------------------- legality


def _check_roll(position: Position, roll: object) -> None:
    if type(roll) is not int or not 1 <= roll <= position.rules.die_sides:
        raise IllegalTurnError(
            f"a roll is a whole number from 1 to {position.rules.die_sides}, not {abbreviate(repr(roll))}", "roll"
        )


def _check_not_over(position: Position) -> None:
    result = position.result
    if result != "ongoing":
        winner = "a tie" if result == "tie" else f"won by {result}"
        raise IllegalTurnError(f"the game is over ({winner}) in position {abbreviate(str(position))}", "game-over")


def count_splits(a: int, b: int, at_least: int) -> int:
    """How many (x, y) with 0 <= x <= a, 0 <= y <= b and x + y >= max(1, at_least).

    Counted by inclusion-exclusion, never by enumeration: an amoeba of size
    1000 has about 250,000 such splits.
    """
    threshold = max(1, at_least)

    def under_diagonal(k: int) -> int:  # lattice points x, y >= 0 with x + y <= k
        return (k + 1) * (k + 2) // 2 if k >= 0 else 0

    s = threshold - 1
    below = under_diagonal(s) - under_diagonal(s - a - 1) - under_diagonal(s - b - 1) + under_diagonal(s - a - b - 2)
    return (a + 1) * (b + 1) - below


class Splits(Sequence[tuple[int, int]]):
    """The legal counts (x, y) for one move, ordered by x then y, without materialising them.

    Indexing is O(1) (``rng.choice(Splits(...))`` draws uniformly at once),
    iterating is O(1) per split, and both work for amoebae of any size.

    The rows x < threshold start at y = threshold - x, so their widths grow by
    one per row (an arithmetic series, inverted with an integer square root);
    the rows x >= threshold all hold b + 1 splits.
    """

    def __init__(self, a: int, b: int, at_least: int) -> None:
        self.a, self.b, self.threshold = a, b, max(1, at_least)
        self._len = count_splits(a, b, at_least)
        self._first_x = max(0, self.threshold - b)
        self._sloped_rows = max(0, min(a + 1, self.threshold) - self._first_x)  # rows x < threshold
        self._first_width = b - self.threshold + self._first_x + 1
        rows = self._sloped_rows
        self._sloped_count = rows * self._first_width + rows * (rows - 1) // 2

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, int]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, int] | Sequence[tuple[int, int]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("split index out of range")
        if index >= self._sloped_count:  # a full row: y runs 0..b
            row, y = divmod(index - self._sloped_count, self.b + 1)
            return self._first_x + self._sloped_rows + row, y
        # the largest row j with j * w0 + j (j - 1) / 2 <= index
        twice_w0_less_1 = 2 * self._first_width - 1
        row = (isqrt(twice_w0_less_1 * twice_w0_less_1 + 8 * index) - twice_w0_less_1) // 2
        offset = index - (row * self._first_width + row * (row - 1) // 2)
        x = self._first_x + row
        return x, self.threshold - x + offset

    def __iter__(self) -> Iterator[tuple[int, int]]:
        b, threshold = self.b, self.threshold
        for x in range(self._first_x, self.a + 1):
            for y in range(threshold - x if x < threshold else 0, b + 1):
                yield x, y

    def __contains__(self, split: object) -> bool:
        if not (isinstance(split, tuple) and len(split) == 2):
            return False
        x, y = split
        return bool(0 <= x <= self.a and 0 <= y <= self.b and x + y >= self.threshold)


def grown_cells(cells: Sequence[Amoeba | None], index: int, player: str, roll: int) -> list[Amoeba | None]:
    """A copy of ``cells`` with ``player``'s roll added to the amoeba on ``index`` (the first half of a turn)."""
    grown = list(cells)
    cell = cells[index]
    assert cell is not None, "only an amoeba grows"
    grown[index] = Amoeba(cell.a + roll, cell.b) if player == "A" else Amoeba(cell.a, cell.b + roll)
    return grown


def move_pairs(cells: Sequence[Amoeba | None], neighbours: Sequence[Sequence[int]], owned: Sequence[int]) -> list[tuple[int, int]]:
    """(src, dst) index pairs where moving the whole source is legal, in board order.

    ``owned`` is the mover's cells (:meth:`Position.owned_indices`) and
    ``cells`` the board after the grow (:func:`grown_cells`).
    """
    pairs = []
    for src in owned:
        source = cells[src]
        assert source is not None, "the mover owns an amoeba on every owned cell"
        size = source.a + source.b
        for dst in neighbours[src]:
            target = cells[dst]
            if target is None or target.a + target.b <= size:
                pairs.append((src, dst))
    return pairs


def legal_turns(position: Position, roll: int) -> Iterator[Turn]:
    """Every legal turn for ``roll``, lazily, in a fixed order, in O(1) amortised time per turn.

    Order: grow cell, then source, then destination (each in board order,
    ``a1 b1 c1 a2 ...`` on grids), then A-count ascending, then B-count ascending.
    When a grow leaves no legal move, that grow yields the single turn
    ``ROLL GROW -``.  Nothing is yielded when the game is over.
    """
    _check_roll(position, roll)
    if position.result != "ongoing":
        return
    board, cells = position.board, position.cells
    names, neighbours = board.names, board.neighbours
    mover_is_a = position.to_move == "A"
    if mover_is_a:
        owned = [i for i, cell in enumerate(cells) if cell is not None and cell.a > cell.b]
    else:
        owned = [i for i, cell in enumerate(cells) if cell is not None and cell.b > cell.a]
    sizes = [0 if cell is None else cell.a + cell.b for cell in cells]
    new = _new_object
    for grow in owned:
        grow_name = names[grow]
        sizes[grow] += roll
        moved = False
        for src in owned:
            limit = sizes[src]
            source = cells[src]
            assert source is not None
            sa, sb = source
            if src == grow:
                sa, sb = (sa + roll, sb) if mover_is_a else (sa, sb + roll)
            src_name = names[src]
            for dst in neighbours[src]:
                need = sizes[dst]
                if need > limit:
                    continue
                moved = True
                fixed = {"roll": roll, "grow": grow_name, "src": src_name, "dst": names[dst]}
                threshold = need if need > 1 else 1
                for x in range(threshold - sb if threshold > sb else 0, sa + 1):  # the order of Splits, inlined
                    for y in range(threshold - x if x < threshold else 0, sb + 1):
                        turn = new(Turn)  # Turn.unchecked inlined: building the turns is most of the enumeration
                        fields = turn.__dict__
                        fields.update(fixed)
                        fields["a"] = x
                        fields["b"] = y
                        yield turn
        sizes[grow] -= roll
        if not moved:
            yield Turn.unchecked(roll, grow_name)


def count_legal_turns(position: Position, roll: int) -> int:
    """``len(list(legal_turns(position, roll)))`` without enumerating a single turn."""
    _check_roll(position, roll)
    if position.is_over:
        return 0
    mover, neighbours = position.to_move, position.board.neighbours
    owned = position.owned_indices(mover)
    total = 0
    for grow in owned:
        grown = grown_cells(position.cells, grow, mover, roll)
        pairs = move_pairs(grown, neighbours, owned)
        if not pairs:
            total += 1
        for src, dst in pairs:
            source, target = grown[src], grown[dst]
            assert source is not None
            total += count_splits(source.a, source.b, 0 if target is None else target.size)
    return total


def legal_move_pairs(position: Position, roll: int, grow: str) -> list[tuple[str, str]]:
    """After growing ``grow`` by ``roll``: the (source, destination) cells with a legal move.

    If any count is legal for a pair, moving the whole source is.  Raises
    :class:`IllegalTurnError` if the grow itself is illegal.
    """
    _check_roll(position, roll)
    _check_not_over(position)
    index = checked_grow(position, grow)
    grown = grown_cells(position.cells, index, position.to_move, roll)
    names = position.board.names
    pairs = move_pairs(grown, position.board.neighbours, position.owned_indices(position.to_move))
    return [(names[s], names[d]) for s, d in pairs]


def checked_grow(position: Position, grow: str) -> int:
    """The index of ``grow`` if the side to move may grow it; :class:`IllegalTurnError` naming the rule otherwise."""
    index = position.board.index.get(grow)
    if index is None:
        raise IllegalTurnError(f"there is no cell {abbreviate(str(grow))} on this {position.board.shape} board", "no-cell")
    cell = position.cells[index]
    if cell is None or cell.owner != position.to_move:
        what = "is empty" if cell is None else (f"holds {cell}, which " + ("is neutral" if cell.owner is None else f"{cell.owner} owns"))
        raise IllegalTurnError(f"{position.to_move} must grow an amoeba they own, and {grow} {what}", "grow-not-owned")
    return index


def _resolve(position: Position, turn: Turn | str) -> tuple[Turn, list[Amoeba | None]]:
    """Check ``turn`` fully; return it with counts filled in and the cells after it.

    Raises :class:`IllegalTurnError` naming the rule broken; never changes anything.
    """
    if isinstance(turn, str):
        turn = Turn.parse(turn)
    elif not isinstance(turn, Turn):
        raise InvalidTurnError(f"a turn is a Turn or its notation, not {type(turn).__name__}")
    played = _played_move(position, turn)
    return _resolve_checked(position, turn) if played is None else played


def _played_move(position: Position, turn: Turn) -> tuple[Turn, list[Amoeba | None]] | None:
    """:func:`_resolve` of a turn that moves, when every rule holds; None when any does not.

    The referee's hot path (a strategy's answer is almost always legal): the same tests as
    :func:`_resolve_checked`, on plain fields, with no message prepared.  A turn it refuses goes to the checked
    path, which names the rule broken; ``tests/engine/test_rules.py`` checks the two agree on every turn.
    """
    roll, src_name, dst_name = turn.roll, turn.src, turn.dst
    if type(roll) is not int or not 1 <= roll <= position.rules.die_sides or position.result != "ongoing":
        return None
    if src_name is None or dst_name is None:
        return None
    board = position.board
    index = board.index
    grow, src, dst = index.get(turn.grow), index.get(src_name), index.get(dst_name)
    if grow is None or src is None or dst is None or dst not in board.neighbours[src]:
        return None
    cells = list(position.cells)
    grown = cells[grow]
    mover_is_a = position.to_move == "A"
    if grown is None or (grown.a <= grown.b if mover_is_a else grown.b <= grown.a):
        return None
    cells[grow] = Amoeba(grown.a + roll, grown.b) if mover_is_a else Amoeba(grown.a, grown.b + roll)
    source = cells[src]
    if source is None or (source.a <= source.b if mover_is_a else source.b <= source.a):
        return None
    a, b = (source.a, source.b) if turn.a is None or turn.b is None else (turn.a, turn.b)
    if not (0 <= a <= source.a and 0 <= b <= source.b) or a + b < 1:
        return None
    target = cells[dst]
    if target is not None and target.a + target.b > a + b:
        return None
    _move(cells, src, dst, a, b)
    return Turn.unchecked(roll, turn.grow, turn.src, turn.dst, a, b), cells


def _resolve_checked(position: Position, turn: Turn) -> tuple[Turn, list[Amoeba | None]]:
    """:func:`_resolve` rule by rule: the first rule broken raises :class:`IllegalTurnError` naming it."""
    try:
        _check_not_over(position)
        _check_roll(position, turn.roll)
        mover = position.to_move
        grow = checked_grow(position, turn.grow)
        cells = grown_cells(position.cells, grow, mover, turn.roll)
        board = position.board
        if turn.src is None or turn.dst is None:
            pairs = move_pairs(cells, board.neighbours, position.owned_indices(mover))
            if pairs:
                src, dst = pairs[0]
                raise IllegalTurnError(
                    f"a move is compulsory when one exists (for example {board.names[src]}-{board.names[dst]})",
                    "move-compulsory",
                )
            return turn, cells
        src_index, dst_index = board.index.get(turn.src), board.index.get(turn.dst)
        for name, index in ((turn.src, src_index), (turn.dst, dst_index)):
            if index is None:
                raise IllegalTurnError(f"there is no cell {abbreviate(name)} on this {board.shape} board", "no-cell")
        assert src_index is not None and dst_index is not None
        src, dst = src_index, dst_index
        source = cells[src]
        if source is None or source.owner != mover:
            what = "is empty" if source is None else f"holds {source}"
            raise IllegalTurnError(
                f"{mover} must move from an amoeba they own, and {turn.src} {what} after the grow", "source-not-owned"
            )
        if dst not in board.neighbours[src]:
            raise IllegalTurnError(f"{turn.dst} is not adjacent to {turn.src} ({board.adjacency} adjacency)", "not-adjacent")
        a, b = (source.a, source.b) if turn.a is None or turn.b is None else (turn.a, turn.b)
        if not (0 <= a <= source.a and 0 <= b <= source.b):
            raise IllegalTurnError(
                f"cannot move {abbreviate(f'{a},{b}')} units out of {turn.src}, which holds {source} after the grow",
                "counts",
            )
        if a + b < 1:
            raise IllegalTurnError("a move takes at least one unit", "empty-move")
        target = cells[dst]
        if target is not None and target.size > a + b:
            raise IllegalTurnError(
                f"{turn.dst} holds {target} of size {target.size}; a move of size {a + b} can only eat size <= {a + b}",
                "too-big",
            )
    except IllegalTurnError as error:
        raise IllegalTurnError(error.rule, error.reason, str(turn), str(position)) from None
    _move(cells, src, dst, a, b)
    return Turn.unchecked(turn.roll, turn.grow, turn.src, turn.dst, a, b), cells


def _move(cells: list[Amoeba | None], src: int, dst: int, a: int, b: int) -> None:
    """Move ``a``,``b`` units from ``src`` onto ``dst`` in place; an emptied source leaves the board."""
    source, target = cells[src], cells[dst]
    assert source is not None
    rest = Amoeba(source.a - a, source.b - b)
    cells[src] = rest if rest.a + rest.b else None
    cells[dst] = Amoeba(a, b) if target is None else Amoeba(target.a + a, target.b + b)


def cells_after_legal(position: Position, turn: Turn) -> list[Amoeba | None]:
    """The cells after ``turn`` *without any check*: for search code whose turns come from the generators.

    Bots evaluate thousands of candidate turns and need no Position per turn;
    a turn that is not legal gives a meaningless result.
    """
    index = position.board.index
    cells = grown_cells(position.cells, index[turn.grow], position.to_move, turn.roll)
    if turn.src is not None and turn.dst is not None:
        src = index[turn.src]
        source = cells[src]
        assert source is not None
        a, b = (source.a, source.b) if turn.a is None or turn.b is None else (turn.a, turn.b)
        _move(cells, src, index[turn.dst], a, b)
    return cells


def is_legal(position: Position, turn: Turn | str) -> bool:
    """Whether ``turn`` may be played in ``position`` (malformed text is simply not legal)."""
    try:
        _resolve(position, turn)
    except ValueError:
        return False
    return True


def resolve(position: Position, turn: Turn | str) -> Turn:
    """``turn`` checked and with omitted counts filled in (the whole amoeba), as records print it."""
    return _resolve(position, turn)[0]


def play_turn(position: Position, turn: Turn | str) -> tuple[Turn, Position]:
    """``(resolve(position, turn), apply(position, turn))``, checking the turn once."""
    played, cells = _resolve(position, turn)
    return played, Position.unchecked(position.board, tuple(cells), other(position.to_move), position.rules)


def apply(position: Position, turn: Turn | str) -> Position:
    """The position after ``turn``; raises :class:`IllegalTurnError` if the rules forbid it.

    A string is parsed first (:class:`InvalidTurnError` if malformed).  The
    given position is never changed: positions are immutable.
    """
    return play_turn(position, turn)[1]


__all__ = [
    "ECHO_LIMIT",
    "ILLEGAL_REASONS",
    "Amoeba",
    "Board",
    "IllegalTurnError",
    "InvalidPositionError",
    "InvalidTurnError",
    "NotationError",
    "Position",
    "Rules",
    "Splits",
    "Turn",
    "abbreviate",
    "apply",
    "cells_after_legal",
    "checked_grow",
    "count_legal_turns",
    "count_splits",
    "dice_outcomes",
    "grown_cells",
    "is_legal",
    "legal_move_pairs",
    "legal_turns",
    "move_pairs",
    "other",
    "play_turn",
    "resolve",
    "whole_number",
]
