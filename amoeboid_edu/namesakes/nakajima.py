"""Nakajima's *Amoeba* (2010): two players stack and sow discs on a 37-point hex board; no chance.

The house style of the package: a :class:`Position` is frozen, :func:`apply`
is pure, randomness comes in as an ``rng``, and drawing lives in
:mod:`.drawing`.  The rules follow the publisher's sheet and the designer's
page (``docs/namesakes-notation.md`` names every reading where they are
silent).

>>> start = Position.start()
>>> len(list(legal_moves(start)))
52
>>> after = apply(start, Move.parse("e1-d1"))
>>> after.to_move
'black'
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from . import records

WHITE, BLACK = "white", "black"
SIDES = (WHITE, BLACK)
DISC = {WHITE: "w", BLACK: "b"}
KERNEL = {WHITE: "W", BLACK: "B"}
PIECES = "wbWB"
SIZE = 3  # points from the centre to an edge: 4 points per side, 37 in all
ROW_LETTERS = "abcdefg"
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))  # axial (dq, dr): the 3 lines, both ways
PLY_CAP = 300  # NOT in the rules: a safety stop, decided like a repetition (by controlled stacks)


class NotationError(records.NotationError):
    """Text that is not well-formed Nakajima notation (a position, a move or a record)."""


class InvalidMoveError(records.InvalidMoveError):
    """A :class:`Move` whose points are not points of the board (e.g. ``Move(-1, 0)``, ``Move(99, 0)``)."""


class IllegalMoveError(records.RuleError):
    """A well-formed move that the rules forbid here; ``rule`` names the rule it breaks."""


def other(side: str) -> str:
    return BLACK if side == WHITE else WHITE


SIDE_OF = {"w": WHITE, "W": WHITE, "b": BLACK, "B": BLACK}


def side_of(piece: str) -> str:
    return SIDE_OF[piece]


# ---------------------------------------------------------------------------- the board


def _points() -> tuple[tuple[int, int], ...]:
    """The 37 points (q, r), row by row from the top (r = -3), left to right."""
    return tuple((q, r) for r in range(-SIZE, SIZE + 1) for q in range(-SIZE, SIZE + 1) if abs(q + r) <= SIZE)


POINTS = _points()
INDEX = {point: index for index, point in enumerate(POINTS)}
ROWS = tuple(tuple(i for i, (_, r) in enumerate(POINTS) if r == row) for row in range(-SIZE, SIZE + 1))
NAMES = tuple(f"{ROW_LETTERS[r + SIZE]}{ROWS[r + SIZE].index(i) + 1}" for i, (_, r) in enumerate(POINTS))
NAME_INDEX = {name: index for index, name in enumerate(NAMES)}


def _full_ray(index: int, direction: tuple[int, int]) -> tuple[int, ...]:
    """Every point after ``index`` along ``direction`` up to the edge."""
    q, r = POINTS[index]
    ray = []
    while (q + direction[0], r + direction[1]) in INDEX:
        q, r = q + direction[0], r + direction[1]
        ray.append(INDEX[(q, r)])
    return tuple(ray)


RAYS = tuple(tuple(_full_ray(index, direction) for direction in DIRECTIONS) for index in range(len(POINTS)))


def point_name(index: int) -> str:
    return NAMES[index]


def point_index(name: str) -> int:
    if name not in NAME_INDEX:
        raise NotationError(f"no point {name!r} on the board (rows a-g, e.g. a1..a4, d1..d7)")
    return NAME_INDEX[name]


# ---------------------------------------------------------------------------- moves


@dataclass(frozen=True, order=True)
class Move:
    """A stack at ``src`` moves whole to ``dst`` or (``sow``) drops one piece per point up to ``dst``.

    ``dst`` is as many points from ``src`` along a line as the stack has pieces.
    Text: ``c3-e3`` (move) or ``c3~e3`` (sow); for a one-piece stack both are one move, written ``-``.
    """

    src: int
    dst: int
    sow: bool = False

    def __post_init__(self) -> None:
        """Points are indices 0-36, checked here: ``Move(-1, 0)`` would otherwise silently mean ``g4``."""
        for what, point in (("src", self.src), ("dst", self.dst)):
            if type(point) is not int or not 0 <= point < len(POINTS):
                raise InvalidMoveError(f"a move's {what} is a point 0-{len(POINTS) - 1} of the board, not {point!r}")
        if type(self.sow) is not bool:
            raise InvalidMoveError(f"a move's sow is True or False, not {self.sow!r}")

    def __str__(self) -> str:
        return f"{NAMES[self.src]}{'~' if self.sow else '-'}{NAMES[self.dst]}"

    @classmethod
    def parse(cls, text: str) -> Move:
        if not isinstance(text, str):
            raise NotationError(f"a move is text like 'e1-d1' or 'c3~e3', not {type(text).__name__}")
        body = text.strip()
        sow = "~" in body
        src, sep, dst = body.partition("~" if sow else "-")
        if not sep or not src or not dst:
            raise NotationError(f"a move is SRC-DST (move) or SRC~DST (sow), e.g. 'e1-d1', not {text!r}")
        return cls(point_index(src.strip()), point_index(dst.strip()), sow)


RAY_MOVES = tuple(
    tuple(tuple((Move(index, dst), Move(index, dst, sow=True)) for dst in ray) for ray in RAYS[index])
    for index in range(len(POINTS))
)  # [point][direction][height - 1]: (move, sow), made once so that generating moves builds no objects (perft)


# ---------------------------------------------------------------------------- positions


def _check_stack(text: str) -> str:
    if text == ".":
        return ""
    bad = [piece for piece in text if piece not in PIECES]
    if bad:
        raise NotationError(f"a stack is written with w, b (discs) and W, B (kernels), bottom first, not {text!r}")
    return text


@dataclass(frozen=True)
class Position:
    """The board (a stack per point, bottom piece first) and the side to move: what repetition compares."""

    stacks: tuple[str, ...]
    to_move: str = WHITE

    def __post_init__(self) -> None:
        if len(self.stacks) != len(POINTS):
            raise NotationError(f"a position has {len(POINTS)} points, not {len(self.stacks)}")
        if self.to_move not in SIDES:
            raise NotationError(f"the side to move is 'white' or 'black', not {self.to_move!r}")
        for stack in self.stacks:
            _check_stack(stack or ".")
        pieces = Counter("".join(self.stacks))
        for side in SIDES:
            if pieces[KERNEL[side]] != 1:
                raise NotationError(f"each side has exactly one kernel; {side} has {pieces[KERNEL[side]]}")

    @classmethod
    def start(cls) -> Position:
        """The set-up of the rule sheet: Black's 10 discs and kernel on top (rows a-c), White's at the bottom."""
        return cls.parse(START_TEXT)

    @classmethod
    def parse(cls, text: str) -> Position:
        if not isinstance(text, str):
            raise NotationError(f"a position is text, not {type(text).__name__}")
        if text.strip() == "start":
            text = START_TEXT
        *rows_text, to_move = text.replace("/", " / ").split() or [""]
        rows = " ".join(rows_text).split("/")
        if len(rows) != len(ROWS):
            raise NotationError(
                f"a position has {len(ROWS)} rows separated by '/', then 'white' or 'black'; got {len(rows)} rows"
            )
        stacks: list[str] = []
        for letter, row, points in zip(ROW_LETTERS, rows, ROWS):
            cells = row.split()
            if len(cells) != len(points):
                raise NotationError(f"row {letter} has {len(points)} points, not {len(cells)}")
            stacks.extend(_check_stack(cell) for cell in cells)
        return cls(tuple(stacks), to_move)

    def __str__(self) -> str:
        rows = (" ".join(self.stacks[i] or "." for i in row) for row in ROWS)
        return " / ".join(rows) + f" {self.to_move}"

    def __repr__(self) -> str:
        return f"nakajima.Position.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        from .drawing import nakajima_svg

        return nakajima_svg(self)

    def controller(self, index: int) -> str | None:
        stack = self.stacks[index]
        return side_of(stack[-1]) if stack else None

    def stacks_of(self, side: str) -> list[int]:
        """The points whose stack ``side`` controls (its piece on top)."""
        return [i for i, stack in enumerate(self.stacks) if stack and SIDE_OF[stack[-1]] == side]

    def kernel_point(self, side: str) -> int:
        return next(i for i, stack in enumerate(self.stacks) if KERNEL[side] in stack)

    @cached_property
    def result(self) -> str:
        """``white``/``black`` (who won), or ``ongoing``: the two win conditions of the rules.

        Checked for the side that just moved: it wins if it controls the stack
        holding the enemy kernel (also when the same move hands the enemy its
        own kernel); it also wins if the side to move has no legal move.
        """
        mover = other(self.to_move)
        if self.controller(self.kernel_point(self.to_move)) == mover:
            return mover
        if next(legal_moves(self, _ignore_result=True), None) is None:
            return mover
        return "ongoing"


START_TEXT = "b b b b / . . B . . / b b b b b b / . . . . . . . / w w w w w w / . . W . . / w w w w white"


# ---------------------------------------------------------------------------- rules


def legal_moves(position: Position, *, _ignore_result: bool = False) -> Iterator[Move]:
    """The legal moves, lazily, points in board order; none once the game is won."""
    if not _ignore_result and position.result != "ongoing":
        return
    for index in position.stacks_of(position.to_move):
        height = len(position.stacks[index])
        for moves in RAY_MOVES[index]:
            if len(moves) < height:
                continue
            move, sow = moves[height - 1]
            yield move
            if height > 1:
                yield sow


def _ray_to(src: int, dst: int, height: int) -> tuple[int, ...] | None:
    """The ``height`` points from ``src`` along the line that ends on ``dst``, if there is one."""
    for ray in RAYS[src]:
        if len(ray) >= height and ray[height - 1] == dst:
            return ray[:height]
    return None


def check(position: Position, move: Move) -> Move:
    """The canonical form of ``move`` if it is legal here; else :class:`IllegalMoveError` naming the rule."""
    if position.result != "ongoing":
        raise IllegalMoveError(f"the game is over ({position.result} won): no more moves", "game over")
    stack = position.stacks[move.src]
    if not stack:
        raise IllegalMoveError(f"{NAMES[move.src]} is empty: move a stack you control", "control")
    if side_of(stack[-1]) != position.to_move:
        raise IllegalMoveError(
            f"{NAMES[move.src]} is controlled by {side_of(stack[-1])} (top piece {stack[-1]!r}); "
            f"{position.to_move} moves only stacks with its own piece on top",
            "control",
        )
    if _ray_to(move.src, move.dst, len(stack)) is None:
        raise IllegalMoveError(
            f"a stack of {len(stack)} goes exactly {len(stack)} point(s) along a straight line; "
            f"{NAMES[move.dst]} is not such a point from {NAMES[move.src]}",
            "distance",
        )
    return Move(move.src, move.dst, move.sow and len(stack) > 1)


def apply(position: Position, move: Move | str) -> Position:
    """The position after ``move`` (text or :class:`Move`); ``position`` itself never changes."""
    return _after(position, check(position, Move.parse(move) if isinstance(move, str) else move))


def _after(position: Position, move: Move) -> Position:
    """The position after a move already known to be legal (no second check: perft and search use this)."""
    stacks = list(position.stacks)
    stack = stacks[move.src]
    stacks[move.src] = ""
    ray = _ray_to(move.src, move.dst, len(stack))
    if ray is None:
        raise IllegalMoveError(f"{move} does not follow a line the stack's height long", "distance")
    if move.sow:
        for piece, point in zip(stack, ray):
            stacks[point] += piece
    else:
        stacks[move.dst] += stack
    after = object.__new__(Position)  # the pieces are the same pieces: no need to validate them again
    object.__setattr__(after, "stacks", tuple(stacks))
    object.__setattr__(after, "to_move", other(position.to_move))
    return after


def resolve(position: Position, move: Move | str) -> Move:
    """Parse and check a move: its canonical form (a one-piece sow is written as the move)."""
    return check(position, Move.parse(move) if isinstance(move, str) else move)


def stack_counts(position: Position) -> dict[str, int]:
    tops = Counter(SIDE_OF[stack[-1]] for stack in position.stacks if stack)
    return {side: tops[side] for side in SIDES}


def by_stack_count(position: Position) -> str:
    """The designer's tie-break for repetition: more controlled stacks wins, equal is a draw."""
    counts = stack_counts(position)
    if counts[WHITE] == counts[BLACK]:
        return "draw"
    return WHITE if counts[WHITE] > counts[BLACK] else BLACK


def perft(position: Position, depth: int) -> int:
    """How many move sequences of ``depth`` plies there are (a won position has none)."""
    if depth == 0:
        return 1
    if depth == 1:
        return sum(1 for _ in legal_moves(position))
    return sum(perft(_after(position, move), depth - 1) for move in legal_moves(position))


# ---------------------------------------------------------------------------- games


@dataclass
class Game:
    """A game from ``start``: its moves, positions and result, with threefold repetition and the safety cap.

    ``result`` is ``white``, ``black``, ``draw`` or ``ongoing``; ``reason``
    says which rule ended it: ``kernel``, ``no moves``, ``repetition`` or
    ``cap`` (the cap is not in the rules).
    """

    start: Position = field(default_factory=Position.start)
    cap: int = PLY_CAP
    moves: list[Move] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.positions:
            self.positions = [self.start]
        self._seen = Counter(self.positions)

    @property
    def position(self) -> Position:
        return self.positions[-1]

    @property
    def repeated(self) -> bool:
        """The position on the board has occurred three times (same stacks, same side to move)."""
        return self._seen[self.position] >= 3

    @property
    def reason(self) -> str:
        position = self.position
        if position.result != "ongoing":
            mover = other(position.to_move)
            return "kernel" if position.controller(position.kernel_point(position.to_move)) == mover else "no moves"
        if self.repeated:
            return "repetition"
        if len(self.moves) >= self.cap:
            return "cap"
        return ""

    @property
    def result(self) -> str:
        reason = self.reason
        if reason in ("kernel", "no moves"):
            return self.position.result
        if reason in ("repetition", "cap"):
            return by_stack_count(self.position)
        return "ongoing"

    @property
    def is_over(self) -> bool:
        return self.result != "ongoing"

    def legal_moves(self) -> Iterator[Move]:
        return iter(()) if self.is_over else legal_moves(self.position)

    def play(self, move: Move | str) -> Move:
        if self.is_over:
            raise IllegalMoveError(f"the game is over ({self.result}, {self.reason}): no more moves", "game over")
        move = resolve(self.position, move)
        after = apply(self.position, move)
        self.moves.append(move)
        self.positions.append(after)
        self._seen[after] += 1
        return move

    def undo(self) -> Move:
        if not self.moves:
            raise IndexError("nothing to undo")
        self._seen[self.positions.pop()] -= 1
        return self.moves.pop()

    def record(self) -> str:
        lines = [] if self.start == Position.start() else [f"start {self.start}"]
        return "\n".join(lines + [str(move) for move in self.moves]) + "\n"

    @classmethod
    def parse(cls, text: str) -> Game:
        """Read a record: an optional ``start POSITION`` line, then one move per line; ``#`` starts a comment."""
        headers = {"start": lambda rest: cls(Position.parse(rest))}
        return records.read_record(text, cls, headers, NotationError)


def random_move(position: Position, rng: random.Random) -> Move:
    return rng.choice(list(legal_moves(position)))


def random_game(rng: random.Random, start: Position | None = None, cap: int = PLY_CAP) -> Game:
    """A game of uniformly random legal moves to its end (or the cap)."""
    game = Game(start or Position.start(), cap=cap)
    while not game.is_over:
        game.play(random_move(game.position, rng))
    return game


__all__ = [
    "BLACK",
    "DIRECTIONS",
    "NAMES",
    "POINTS",
    "WHITE",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "NotationError",
    "Position",
    "apply",
    "by_stack_count",
    "legal_moves",
    "perft",
    "point_index",
    "point_name",
    "random_game",
    "random_move",
    "resolve",
    "stack_counts",
]  # fmt: skip
