"""The rules of Amoeboid: boards, amoebae, positions, turns and their legality.

This module is pure: no I/O and no global random state.  Everything in it is an
immutable value, so a position can be shared with a student's strategy, used as
a dictionary key, or compared for equality without copying.

The text forms of cells, positions and turns (``../shared/spec/notation.md``)
live here too, because they are the identity of these values: ``str()`` is the
canonical notation and ``Position.parse(str(p)) == p`` for every grid position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Iterator, Mapping, NamedTuple, Sequence

PLAYERS = ("A", "B")
MAX_GRID_SIDE = 26  # columns are the letters a..z


# --------------------------------------------------------------------------- errors


class NotationError(ValueError):
    """Text that is not well-formed notation (a position, a turn, a record)."""


class InvalidPositionError(NotationError):
    """A position text or value that does not describe a position."""


class InvalidTurnError(NotationError):
    """A turn text that is not of the form ``ROLL GROW SRC-DST A,B``."""


class IllegalTurnError(ValueError):
    """A well-formed turn that the rules forbid in the position it was played in."""


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

_NODE_NAME = re.compile(r"[A-Za-z0-9_]+\Z")


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
    def graph(adjacency: Mapping | object, start: tuple[object, object]) -> Board:
        """A board from ``{node: [neighbours...]}`` or a networkx graph.

        Edges are made symmetric; node names are ``str(node)`` and must be
        identifiers (letters, digits, ``_``) so that turns stay readable.
        ``start`` gives A's and B's start nodes.
        """
        if hasattr(adjacency, "adj"):  # a networkx graph
            adjacency = {node: list(adjacency.adj[node]) for node in adjacency.nodes}
        if not isinstance(adjacency, Mapping):
            raise InvalidPositionError("a graph board needs a mapping {node: [neighbours]} or a networkx graph")
        names = [str(node) for node in adjacency]
        for name in names:
            if not _NODE_NAME.match(name):
                raise InvalidPositionError(f"graph node name {name!r} must use only letters, digits and _")
        if len(set(names)) != len(names):
            raise InvalidPositionError("graph node names must be distinct after str()")
        index = {name: i for i, name in enumerate(names)}
        linked: list[set[int]] = [set() for _ in names]
        for node, adjacent in adjacency.items():
            i = index[str(node)]
            for other in adjacent:
                j = index.get(str(other))
                if j is None:
                    raise InvalidPositionError(f"edge {node}-{other}: {other} is not a node of the graph")
                if i != j:
                    linked[i].add(j)
                    linked[j].add(i)
        try:
            starts = (index[str(start[0])], index[str(start[1])])
        except (KeyError, IndexError, TypeError):
            raise InvalidPositionError(f"start {start!r} must name two nodes of the graph") from None
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
            raise KeyError(f"no cell {name!r} on this {self.shape} board") from None

    def neighbours_of(self, name: str) -> tuple[str, ...]:
        """The cells adjacent to ``name``, in board order."""
        return tuple(self.names[j] for j in self.neighbours[self.cell_index(name)])

    def are_adjacent(self, first: str, second: str) -> bool:
        return self.cell_index(second) in self.neighbours[self.cell_index(first)]

    def to_dict(self) -> dict:
        """The JSON form: what a graph board is saved as."""
        if self.is_grid:
            return {"rows": self.rows, "cols": self.cols, "adjacency": self.adjacency}
        return {
            "graph": {name: [self.names[j] for j in self.neighbours[i]] for i, name in enumerate(self.names)},
            "start": [self.names[self.start_cells[0]], self.names[self.start_cells[1]]],
        }

    @staticmethod
    def from_dict(data: Mapping) -> Board:
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

_TURN_MOVE = re.compile(r"([A-Za-z0-9_]+)-([A-Za-z0-9_]+)\Z")
_COUNTS = re.compile(r"(\d+),(\d+)\Z")
_CELL = re.compile(r"[A-Za-z0-9_]+\Z")


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

    @property
    def is_pass(self) -> bool:
        """True for ``ROLL GROW -``: the mover had no legal move after growing."""
        return self.src is None

    @staticmethod
    def parse(text: str) -> Turn:
        """Read ``ROLL GROW SRC-DST [A,B]`` or ``ROLL GROW -`` (any white space)."""
        if not isinstance(text, str):
            raise InvalidTurnError(f"a turn is text like '3 a1 a1-b1 4,0', not {type(text).__name__}")
        fields = text.split()
        shown = " ".join(fields) or "(empty)"
        if len(fields) not in (3, 4):
            raise InvalidTurnError(f"turn {shown!r}: expected 'ROLL GROW SRC-DST A,B' or 'ROLL GROW -'")
        roll_text, grow, move = fields[:3]
        if not roll_text.isdigit() or not roll_text.isascii():
            raise InvalidTurnError(f"turn {shown!r}: the roll {roll_text!r} is not a whole number")
        if not _CELL.match(grow):
            raise InvalidTurnError(f"turn {shown!r}: {grow!r} is not a cell name")
        if move == "-":
            if len(fields) == 4:
                raise InvalidTurnError(f"turn {shown!r}: a turn without a move has no counts")
            return Turn(int(roll_text), grow)
        match = _TURN_MOVE.match(move)
        if not match:
            raise InvalidTurnError(f"turn {shown!r}: the move {move!r} is not SRC-DST")
        a = b = None
        if len(fields) == 4:
            counts = _COUNTS.match(fields[3])
            if not counts:
                raise InvalidTurnError(f"turn {shown!r}: the counts {fields[3]!r} are not A,B")
            a, b = int(counts[1]), int(counts[2])
        return Turn(int(roll_text), grow, match[1], match[2], a, b)

    def __str__(self) -> str:
        if self.src is None:
            return f"{self.roll} {self.grow} -"
        counts = "" if self.a is None else f" {self.a},{self.b}"
        return f"{self.roll} {self.grow} {self.src}-{self.dst}{counts}"

    def __repr__(self) -> str:
        return f"Turn.parse({str(self)!r})"


# --------------------------------------------------------------------------- positions

_AMOEBA = re.compile(r"\((\d+),(\d+)\)\Z")


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
            raise InvalidPositionError(f"the side to move is 'A' or 'B', not {self.to_move!r}")
        cells = tuple(self.cells)
        if len(cells) != len(self.board):
            raise InvalidPositionError(f"{len(cells)} cells given for a board of {len(self.board)}")
        normal = []
        for name, cell in zip(self.board.names, cells):
            if cell is None:
                normal.append(None)
                continue
            try:
                a, b = cell
            except (TypeError, ValueError):
                raise InvalidPositionError(f"cell {name}: {cell!r} is not an amoeba (a,b)") from None
            if not (type(a) is int and type(b) is int) or a < 0 or b < 0:
                raise InvalidPositionError(f"cell {name}: control numbers must be whole numbers >= 0, not {cell!r}")
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
    def parse(text: str, rules: Rules = DEFAULT_RULES) -> Position:
        """Read a grid position: rows top to bottom separated by ``/``, then ``A`` or ``B``.

        White space around tokens is free: ``(1,0) . . / . . . / . . (0,1) A``.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(f"a position is text, not {type(text).__name__}")
        body = text.strip()
        if not body:
            raise InvalidPositionError("empty position: expected rows like '(1,0) . . / . . . / . . (0,1) A'")
        # White space is free around tokens, so '( 1 , 0 )' is one amoeba.
        body = re.sub(r"\(\s*(\S*?)\s*,\s*(\S*?)\s*\)", r"(\1,\2)", body)
        parts = body.rsplit(None, 1)
        if len(parts) != 2 or parts[1] not in PLAYERS:
            raise InvalidPositionError(f"a position ends with the side to move, A or B, not {parts[-1]!r}")
        rows_text = parts[0].split("/")
        grid: list[list[Amoeba | None]] = []
        for r, row_text in enumerate(rows_text, start=1):
            tokens = row_text.split()
            if not tokens:
                raise InvalidPositionError(f"row {r} is empty")
            row = []
            for c, token in enumerate(tokens):
                if token == ".":
                    row.append(None)
                    continue
                match = _AMOEBA.match(token)
                if not match:
                    raise InvalidPositionError(f"row {r}, column {c + 1}: {token!r} is neither '.' nor an amoeba '(a,b)'")
                amoeba = Amoeba(int(match[1]), int(match[2]))
                if amoeba.size == 0:
                    raise InvalidPositionError(
                        f"row {r}, column {c + 1}: (0,0) is not an amoeba (write '.' for an empty cell)"
                    )
                row.append(amoeba)
            grid.append(row)
        widths = {len(row) for row in grid}
        if len(widths) != 1:
            raise InvalidPositionError(f"rows have different lengths: {[len(row) for row in grid]}")
        board = Board.grid(len(grid), widths.pop(), rules.adjacency)
        return Position(board, tuple(cell for row in grid for cell in row), parts[1], rules)

    # -- text -------------------------------------------------------------------------

    def __str__(self) -> str:
        if not self.board.is_grid:
            return self.to_json()
        cols = self.board.cols
        cells = [("." if cell is None else f"({cell.a},{cell.b})") for cell in self.cells]
        rows = (" ".join(cells[r * cols : (r + 1) * cols]) for r in range(self.board.rows))
        return " / ".join(rows) + " " + self.to_move

    def __repr__(self) -> str:
        if not self.board.is_grid:
            return f"Position.from_json({self.to_json()!r})"
        rules = "" if self.rules == DEFAULT_RULES else f", rules={self.rules!r}"
        return f"Position.parse({str(self)!r}{rules})"

    def to_json(self) -> str:
        """The JSON form, for any board (graph boards have no grid notation)."""
        import json

        amoebae = {name: [cell.a, cell.b] for name, cell in zip(self.board.names, self.cells) if cell is not None}
        data = {"board": self.board.to_dict(), "amoebae": amoebae, "to_move": self.to_move}
        if self.rules.die_sides != DEFAULT_RULES.die_sides:
            data["die_sides"] = self.rules.die_sides
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @staticmethod
    def from_json(text: str) -> Position:
        import json

        try:
            data = json.loads(text)
            board = Board.from_dict(data["board"])
            rules = Rules(adjacency=board.adjacency if board.is_grid else "king", die_sides=data.get("die_sides", 6))
            cells: list[Amoeba | None] = [None] * len(board)
            for name, (a, b) in data["amoebae"].items():
                cells[board.cell_index(name)] = (a, b)
            return Position(board, tuple(cells), data["to_move"], rules)
        except InvalidPositionError:
            raise
        except (ValueError, KeyError, TypeError) as error:
            raise InvalidPositionError(f"not a position in JSON form: {error}") from None

    def _repr_svg_(self) -> str:
        from .render import position_svg  # drawing is optional: imported only in notebooks

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

    def _owned_indices(self, player: str) -> list[int]:
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

    @property
    def result(self) -> str:
        """``"A"``, ``"B"``, ``"tie"`` or ``"ongoing"``.

        The game is over as soon as one player owns no amoeba; whoever owns any
        wins, and if nobody does it is a tie.
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
        raise IllegalTurnError(f"a roll is a whole number from 1 to {position.rules.die_sides}, not {roll!r}")


def _check_not_over(position: Position) -> None:
    result = position.result
    if result != "ongoing":
        winner = "a tie" if result == "tie" else f"won by {result}"
        raise IllegalTurnError(f"the game is over ({winner}) in position {position}")


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


class Splits(Sequence):
    """The legal counts (x, y) for one move, ordered by x then y, without materialising them.

    Indexable and sized, so ``rng.choice(Splits(...))`` draws uniformly in O(a).
    """

    def __init__(self, a: int, b: int, at_least: int) -> None:
        self.a, self.b, self.threshold = a, b, max(1, at_least)
        self._len = count_splits(a, b, at_least)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index: int) -> tuple[int, int]:  # type: ignore[override]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("split index out of range")
        b, t = self.b, self.threshold
        for x in range(max(0, t - b), self.a + 1):
            lowest_y = max(0, t - x)
            width = b - lowest_y + 1
            if index < width:
                return x, lowest_y + index
            index -= width
        raise AssertionError("unreachable: index checked against the count")


def _grown(cells: tuple, index: int, player: str, roll: int) -> list:
    grown = list(cells)
    cell = cells[index]
    grown[index] = Amoeba(cell.a + roll, cell.b) if player == "A" else Amoeba(cell.a, cell.b + roll)
    return grown


def _move_pairs(cells: Sequence, neighbours: tuple, owned: list[int]) -> list[tuple[int, int]]:
    """(src, dst) index pairs where moving the whole source is legal, in board order."""
    pairs = []
    for src in owned:
        size = cells[src].a + cells[src].b
        for dst in neighbours[src]:
            target = cells[dst]
            if target is None or target.a + target.b <= size:
                pairs.append((src, dst))
    return pairs


def legal_turns(position: Position, roll: int) -> Iterator[Turn]:
    """Every legal turn for ``roll``, lazily, in a fixed order.

    Order: grow cell, then source, then destination (each in board order,
    ``a1 b1 c1 a2 ...`` on grids), then A-count ascending, then B-count ascending.
    When a grow leaves no legal move, that grow yields the single turn
    ``ROLL GROW -``.  Nothing is yielded when the game is over.
    """
    _check_roll(position, roll)
    if position.is_over:
        return
    mover, board = position.to_move, position.board
    names = board.names
    owned = position._owned_indices(mover)
    for grow in owned:
        grown = _grown(position.cells, grow, mover, roll)
        pairs = _move_pairs(grown, board.neighbours, owned)
        if not pairs:
            yield Turn(roll, names[grow])
            continue
        for src, dst in pairs:
            source, target = grown[src], grown[dst]
            for x, y in Splits(source.a, source.b, 0 if target is None else target.size):
                yield Turn(roll, names[grow], names[src], names[dst], x, y)


def count_legal_turns(position: Position, roll: int) -> int:
    """``len(list(legal_turns(position, roll)))`` without enumerating a single turn."""
    _check_roll(position, roll)
    if position.is_over:
        return 0
    mover, neighbours = position.to_move, position.board.neighbours
    owned = position._owned_indices(mover)
    total = 0
    for grow in owned:
        grown = _grown(position.cells, grow, mover, roll)
        pairs = _move_pairs(grown, neighbours, owned)
        if not pairs:
            total += 1
        for src, dst in pairs:
            target = grown[dst]
            total += count_splits(grown[src].a, grown[src].b, 0 if target is None else target.size)
    return total


def legal_move_pairs(position: Position, roll: int, grow: str) -> list[tuple[str, str]]:
    """After growing ``grow`` by ``roll``: the (source, destination) cells with a legal move.

    If any count is legal for a pair, moving the whole source is.  Raises
    :class:`IllegalTurnError` if the grow itself is illegal.
    """
    _check_roll(position, roll)
    _check_not_over(position)
    index = _checked_grow(position, grow)
    grown = _grown(position.cells, index, position.to_move, roll)
    names = position.board.names
    pairs = _move_pairs(grown, position.board.neighbours, position._owned_indices(position.to_move))
    return [(names[s], names[d]) for s, d in pairs]


def _checked_grow(position: Position, grow: str) -> int:
    index = position.board.index.get(grow)
    if index is None:
        raise IllegalTurnError(f"there is no cell {grow} on this {position.board.shape} board")
    cell = position.cells[index]
    if cell is None or cell.owner != position.to_move:
        what = "is empty" if cell is None else (f"holds {cell}, which " + ("is neutral" if cell.owner is None else f"{cell.owner} owns"))
        raise IllegalTurnError(f"{position.to_move} must grow an amoeba they own, and {grow} {what}")
    return index


def _resolve(position: Position, turn: Turn | str) -> tuple[Turn, list]:
    """Check ``turn`` fully; return it with counts filled in and the cells after it.

    Raises :class:`IllegalTurnError` naming the rule broken; never changes anything.
    """
    if isinstance(turn, str):
        turn = Turn.parse(turn)
    elif not isinstance(turn, Turn):
        raise InvalidTurnError(f"a turn is a Turn or its notation, not {type(turn).__name__}")
    try:
        _check_not_over(position)
        _check_roll(position, turn.roll)
        mover = position.to_move
        grow = _checked_grow(position, turn.grow)
        cells = _grown(position.cells, grow, mover, turn.roll)
        board = position.board
        owned = position._owned_indices(mover)
        if turn.is_pass:
            pairs = _move_pairs(cells, board.neighbours, owned)
            if pairs:
                src, dst = pairs[0]
                raise IllegalTurnError(
                    f"a move is compulsory when one exists (for example {board.names[src]}-{board.names[dst]})"
                )
            return turn, cells
        src, dst = board.index.get(turn.src), board.index.get(turn.dst)
        for name, index in ((turn.src, src), (turn.dst, dst)):
            if index is None:
                raise IllegalTurnError(f"there is no cell {name} on this {board.shape} board")
        source = cells[src]
        if source is None or source.owner != mover:
            what = "is empty" if source is None else f"holds {source}"
            raise IllegalTurnError(f"{mover} must move from an amoeba they own, and {turn.src} {what} after the grow")
        if dst not in board.neighbours[src]:
            raise IllegalTurnError(f"{turn.dst} is not adjacent to {turn.src} ({board.adjacency} adjacency)")
        a, b = (source.a, source.b) if turn.a is None else (turn.a, turn.b)
        if not (0 <= a <= source.a and 0 <= b <= source.b):
            raise IllegalTurnError(f"cannot move {a},{b} units out of {turn.src}, which holds {source} after the grow")
        if a + b < 1:
            raise IllegalTurnError("a move takes at least one unit")
        target = cells[dst]
        if target is not None and target.size > a + b:
            raise IllegalTurnError(
                f"{turn.dst} holds {target} of size {target.size}; a move of size {a + b} can only eat size <= {a + b}"
            )
    except IllegalTurnError as error:
        raise IllegalTurnError(f"illegal turn '{turn}' in position {position}: {error}") from None
    _move(cells, src, dst, a, b)
    return Turn(turn.roll, turn.grow, turn.src, turn.dst, a, b), cells


def _move(cells: list, src: int, dst: int, a: int, b: int) -> None:
    """Move ``a``,``b`` units from ``src`` onto ``dst`` in place; an emptied source leaves the board."""
    source, target = cells[src], cells[dst]
    rest = Amoeba(source.a - a, source.b - b)
    cells[src] = rest if rest.size else None
    cells[dst] = Amoeba(a, b) if target is None else Amoeba(target.a + a, target.b + b)


def cells_after_legal(position: Position, turn: Turn) -> list:
    """The cells after ``turn`` *without any check*: for search code whose turns come from the generators.

    Bots evaluate thousands of candidate turns and need no Position per turn;
    a turn that is not legal gives a meaningless result.
    """
    index = position.board.index
    cells = _grown(position.cells, index[turn.grow], position.to_move, turn.roll)
    if turn.src is not None:
        src = index[turn.src]
        a, b = (cells[src].a, cells[src].b) if turn.a is None else (turn.a, turn.b)
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


def apply(position: Position, turn: Turn | str) -> Position:
    """The position after ``turn``; raises :class:`IllegalTurnError` if the rules forbid it.

    A string is parsed first (:class:`InvalidTurnError` if malformed).  The
    given position is never changed: positions are immutable.
    """
    _, cells = _resolve(position, turn)
    return Position(position.board, tuple(cells), other(position.to_move), position.rules)


__all__ = [
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
    "apply",
    "count_legal_turns",
    "count_splits",
    "dice_outcomes",
    "is_legal",
    "legal_move_pairs",
    "legal_turns",
    "other",
    "resolve",
]
