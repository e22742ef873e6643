"""Oosterwal's *Amoeba* (2009): 2-6 players place pyramids on a board of chips that grows every turn; no chance.

A turn places one pyramid (1, 2 or 3 pips) on an empty chip and scores it,
then adds a chip touching at least two chips.  The score is pips x S, where S
sums the pips of the unbroken straight run of the mover's own colour that
starts next to the new pyramid, over the 6 directions; with S = 0 it is the
pips.  This is the reading that reproduces every number of the seed's three
examples (``tests/namesakes/test_namesakes_oosterwal.py``).

Chips are cells ``(x, y)`` in doubled coordinates: rows go down (y), x moves
in half-chip steps, so x + y is even and the 6 neighbours are (x +- 2, y) and
(x +- 1, y +- 1).

>>> start = Position.start(2)
>>> str(start)
'A:0 B:0 | o@0,0 o@2,0 o@4,0 | A'
>>> apply(start, "1@2,0 +3,1").scores
(1, 0)
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from . import records

PLAYERS = "ABCDEF"
PIPS = (1, 2, 3)
PER_SIZE = 5  # each player has 5 pyramids of each size: 15 in all
DIRECTIONS = ((2, 0), (-2, 0), (1, 1), (-1, -1), (1, -1), (-1, 1))  # the 3 lines, both ways
Cell = tuple[int, int]


class NotationError(records.NotationError):
    """Text that is not well-formed Oosterwal notation (a position, a turn or a record)."""


class InvalidTurnError(records.InvalidMoveError):
    """A :class:`Turn` that names no turn of the game: pips other than 1-3, or a cell off the hex grid."""


class IllegalTurnError(records.RuleError):
    """A well-formed turn that the rules forbid here; ``rule`` names the rule it breaks."""


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _whole(text: str, what: str, signed: bool = False) -> int:
    """``int(text)`` for the digits 0-9 only: Python's ``int`` also reads '٣', '1_0', ' +3'; the notation does not."""
    if not re.fullmatch("-?[0-9]{1,12}" if signed else "[0-9]{1,12}", text):
        raise NotationError(f"{what} is a whole number written with at most 12 digits 0-9, not {text!r}")
    return int(text)


def parse_cell(text: str) -> Cell:
    x, sep, y = text.partition(",")
    if not sep:
        raise NotationError(f"a chip is X,Y (whole numbers, e.g. 4,0 or -1,1), not {text!r}")
    cell = (_whole(x, f"X of chip {text!r}", signed=True), _whole(y, f"Y of chip {text!r}", signed=True))
    if sum(cell) % 2:
        raise NotationError(f"chip {text} is off the hex grid: X + Y must be even (doubled coordinates)")
    return cell


def neighbours(cell: Cell) -> list[Cell]:
    return [(cell[0] + dx, cell[1] + dy) for dx, dy in DIRECTIONS]


@dataclass(frozen=True, order=True)
class Turn:
    """Place a ``pips`` pyramid on the chip ``place``, then add a chip at ``chip``: text ``3@4,2 +6,2``."""

    place: Cell
    pips: int
    chip: Cell

    def __post_init__(self) -> None:
        """Checked where the turn is made, so the error names what is wrong with it, not a later position."""
        if type(self.pips) is not int or self.pips not in PIPS:
            raise InvalidTurnError(f"a pyramid has 1, 2 or 3 pips, not {self.pips!r}")
        for what, cell in (("place", self.place), ("chip", self.chip)):
            if not (type(cell) is tuple and len(cell) == 2 and all(type(v) is int for v in cell)):
                raise InvalidTurnError(f"a turn's {what} is a cell (X, Y) of two whole numbers, not {cell!r}")
            if sum(cell) % 2:
                raise InvalidTurnError(f"a turn's {what} {cell_text(cell)} is off the hex grid: X + Y must be even")

    def __str__(self) -> str:
        return f"{self.pips}@{cell_text(self.place)} +{cell_text(self.chip)}"

    @classmethod
    def parse(cls, text: str) -> Turn:
        if not isinstance(text, str):
            raise NotationError(f"a turn is text like '3@4,2 +6,2', not {type(text).__name__}")
        parts = text.split()
        if len(parts) != 2 or "@" not in parts[0] or not parts[1].startswith("+"):
            raise NotationError(f"a turn is PIPS@X,Y +X,Y (place, then add a chip), e.g. '3@4,2 +6,2', not {text!r}")
        pips, _, place = parts[0].partition("@")
        if pips not in ("1", "2", "3"):
            raise NotationError(f"a pyramid has 1, 2 or 3 pips, not {pips!r}")
        return cls(parse_cell(place), int(pips), parse_cell(parts[1][1:]))


@dataclass(frozen=True)
class Position:
    """The chips (each empty or holding a pyramid ``A3``), every player's score, and who places next.

    Pyramids left in hand are not stored: each player starts with 5 of each
    size, so the hand is what is not on the board.
    """

    chips: tuple[tuple[Cell, str], ...]  # sorted by row, then x; "" for an empty chip
    scores: tuple[int, ...]
    to_move: int = 0

    def __post_init__(self) -> None:
        players = len(self.scores)
        if not 2 <= players <= 6:
            raise NotationError(f"Oosterwal's Amoeba is for 2 to 6 players, not {players}")
        if any(type(score) is not int or score < 0 for score in self.scores):
            raise NotationError(f"scores are whole numbers >= 0, not {self.scores}")
        if not 0 <= self.to_move < players:
            raise NotationError(f"player {self.to_move} does not exist in a {players}-player game")
        cells = [cell for cell, _ in self.chips]
        if len(set(cells)) != len(cells):
            raise NotationError("two chips on the same cell")
        if list(self.chips) != sorted(self.chips, key=lambda chip: (chip[0][1], chip[0][0])):
            raise NotationError("chips are listed row by row (y), then by x")
        for cell, piece in self.chips:
            if sum(cell) % 2:
                raise NotationError(f"chip {cell_text(cell)} is off the hex grid: X + Y must be even")
            if piece and (len(piece) != 2 or piece[0] not in PLAYERS[:players] or piece[1] not in "123"):
                raise NotationError(f"a pyramid is a player {PLAYERS[:players]} and pips 1-3 (e.g. A3), not {piece!r}")
        for player in range(players):
            for pips in PIPS:
                if self.hand(player, pips) < 0:
                    raise NotationError(f"{PLAYERS[player]} has only {PER_SIZE} pyramids of {pips} pips")
        if not self.is_over and self.hand_size(self.to_move) == 0:
            raise NotationError(f"{PLAYERS[self.to_move]} is to move but has no pyramid left")
        if not self.is_over and all(piece for _, piece in self.chips):
            raise NotationError(
                f"{PLAYERS[self.to_move]} is to move but no chip is empty: a pyramid could not be placed"
            )
        if not self.is_over and not self._has_chip_spot():
            raise NotationError("no free cell touches two chips: the new chip of a turn could not be added")

    def _has_chip_spot(self) -> bool:
        """Whether some free cell touches at least two chips (almost always found at the first chips looked at)."""
        touching: set[Cell] = set()
        for cell in self.board:
            for spot in neighbours(cell):
                if spot not in self.board:
                    if spot in touching:
                        return True
                    touching.add(spot)
        return False

    @classmethod
    def start(cls, players: int = 2) -> Position:
        """A row of players + 1 empty chips; nobody has scored; A places first."""
        if type(players) is not int or not 2 <= players <= 6:
            raise NotationError(f"Oosterwal's Amoeba is for 2 to 6 players, not {players!r}")
        return cls(tuple(((2 * i, 0), "") for i in range(players + 1)), (0,) * players)

    @classmethod
    def parse(cls, text: str) -> Position:
        if not isinstance(text, str):
            raise NotationError(f"a position is text, not {type(text).__name__}")
        words = text.split()
        if words and words[0] == "start":
            if len(words) > 2:
                raise NotationError(f"'start' takes the number of players (2-6), e.g. 'start 3', not {text!r}")
            return cls.start(_whole(words[1], "the number of players after 'start'") if len(words) == 2 else 2)
        parts = text.split("|")
        if len(parts) != 3:
            raise NotationError("a position is 'SCORES | CHIPS | PLAYER', e.g. 'A:0 B:0 | o@0,0 o@2,0 o@4,0 | A'")
        scores_text, chips_text, mover = (part.split() for part in parts)
        scores = []
        for index, item in enumerate(scores_text):
            name, sep, value = item.partition(":")
            if not sep or name != PLAYERS[index : index + 1]:
                raise NotationError(f"scores are listed A:N B:N ... in order, not {item!r}")
            scores.append(_whole(value, f"{name}'s score"))
        chips = []
        for item in chips_text:
            piece, sep, where = item.partition("@")
            if not sep or not piece:
                raise NotationError(f"a chip is o@X,Y (empty) or A3@X,Y (a pyramid), not {item!r}")
            chips.append((parse_cell(where), "" if piece == "o" else piece))
        if len(mover) != 1 or mover[0] not in PLAYERS[: len(scores)]:
            raise NotationError(f"the player to move is one of {PLAYERS[: len(scores)]}, not {' '.join(mover)!r}")
        return cls(
            tuple(sorted(chips, key=lambda chip: (chip[0][1], chip[0][0]))), tuple(scores), PLAYERS.index(mover[0])
        )

    def __str__(self) -> str:
        scores = " ".join(f"{PLAYERS[i]}:{score}" for i, score in enumerate(self.scores))
        chips = " ".join(f"{piece or 'o'}@{cell_text(cell)}" for cell, piece in self.chips)
        return f"{scores} | {chips} | {PLAYERS[self.to_move]}"

    def __repr__(self) -> str:
        return f"oosterwal.Position.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        from .drawing import oosterwal_svg

        return oosterwal_svg(self)

    @property
    def players(self) -> int:
        return len(self.scores)

    @cached_property
    def board(self) -> Mapping[Cell, str]:
        """The chips by cell, read-only: the rule checks read it, so it must not drift from ``chips``."""
        return MappingProxyType(dict(self.chips))

    def hand(self, player: int, pips: int) -> int:
        """How many ``pips`` pyramids ``player`` still holds."""
        piece = f"{PLAYERS[player]}{pips}"
        return PER_SIZE - sum(1 for _, placed in self.chips if placed == piece)

    def hand_size(self, player: int) -> int:
        return sum(self.hand(player, pips) for pips in PIPS)

    @property
    def is_over(self) -> bool:
        """Every pyramid has been placed."""
        return all(self.hand_size(player) == 0 for player in range(self.players))

    @property
    def result(self) -> str:
        """``ongoing``, or the winners: the highest total, ties sharing (``A`` or ``A=C``)."""
        if not self.is_over:
            return "ongoing"
        return "=".join(PLAYERS[i] for i in winners(self.scores))

    def empty_chips(self) -> list[Cell]:
        return [cell for cell, piece in self.chips if not piece]

    def chip_spots(self) -> list[Cell]:
        """Where a new chip may go: a free cell touching at least two chips (row by row, then x)."""
        board = self.board
        candidates = {spot for cell in board for spot in neighbours(cell) if spot not in board}
        spots = [spot for spot in candidates if sum(n in board for n in neighbours(spot)) >= 2]
        return sorted(spots, key=lambda cell: (cell[1], cell[0]))

    def multiplier(self, cell: Cell, player: int) -> int:
        """S: the pips of ``player``'s unbroken straight runs starting next to ``cell``, over the 6 directions."""
        board, colour, total = self.board, PLAYERS[player], 0
        for dx, dy in DIRECTIONS:
            x, y = cell[0] + dx, cell[1] + dy
            while board.get((x, y), "")[:1] == colour:
                total += int(board[(x, y)][1])
                x, y = x + dx, y + dy
        return total

    def score(self, cell: Cell, pips: int, player: int | None = None) -> int:
        """What placing ``pips`` on ``cell`` scores: pips x S, or just the pips when S = 0."""
        multiplier = self.multiplier(cell, self.to_move if player is None else player)
        return pips * multiplier if multiplier else pips


def winners(scores: tuple[int, ...]) -> list[int]:
    best = max(scores)
    return [i for i, score in enumerate(scores) if score == best]


def placements(position: Position) -> list[tuple[Cell, int, int]]:
    """Every legal placement ``(cell, pips, score)`` of the player to move (chips row by row, then pips)."""
    if position.is_over:
        return []
    player = position.to_move
    return [
        (cell, pips, position.score(cell, pips))
        for cell in position.empty_chips()
        for pips in PIPS
        if position.hand(player, pips) > 0
    ]


def legal_turns(position: Position) -> Iterator[Turn]:
    """Every legal turn, lazily: each placement with each chip spot."""
    spots = position.chip_spots()
    for cell, pips, _ in placements(position):
        for spot in spots:
            yield Turn(cell, pips, spot)


def check(position: Position, turn: Turn) -> None:
    """Raise :class:`IllegalTurnError` naming the rule ``turn`` breaks here."""
    if position.is_over:
        raise IllegalTurnError(f"the game is over ({position.result} won): every pyramid is placed", "game over")
    board, name = position.board, PLAYERS[position.to_move]
    if turn.place not in board:
        raise IllegalTurnError(f"there is no chip at {cell_text(turn.place)}: place on an empty chip", "place")
    if board[turn.place]:
        raise IllegalTurnError(
            f"the chip at {cell_text(turn.place)} holds {board[turn.place]}: place on an empty chip", "place"
        )
    if position.hand(position.to_move, turn.pips) == 0:
        raise IllegalTurnError(f"{name} has no {turn.pips}-pip pyramid left", "hand")
    if turn.chip in board:
        raise IllegalTurnError(f"there is already a chip at {cell_text(turn.chip)}", "chip")
    touching = sum(cell in board for cell in neighbours(turn.chip))
    if touching < 2:
        raise IllegalTurnError(
            f"a new chip must touch at least two chips; {cell_text(turn.chip)} touches {touching}", "chip"
        )


def apply(position: Position, turn: Turn | str) -> Position:
    """The position after ``turn`` (text or :class:`Turn`); ``position`` itself never changes."""
    turn = Turn.parse(turn) if isinstance(turn, str) else turn
    check(position, turn)
    player = position.to_move
    scores = list(position.scores)
    scores[player] += position.score(turn.place, turn.pips)
    board = dict(position.chips)
    board[turn.place] = f"{PLAYERS[player]}{turn.pips}"
    board[turn.chip] = ""
    chips = tuple(sorted(board.items(), key=lambda chip: (chip[0][1], chip[0][0])))
    nxt = player
    for step in range(1, position.players + 1):  # the next player who still holds a pyramid
        nxt = (player + step) % position.players
        if position.hand_size(nxt) - (nxt == player) > 0:
            break
    return Position(chips, tuple(scores), nxt)


@dataclass
class Game:
    """A game from ``start``: its turns and positions, with undo; a record is one turn per line."""

    start: Position

    def __post_init__(self) -> None:
        self.turns: list[Turn] = []
        self.positions: list[Position] = [self.start]

    @property
    def position(self) -> Position:
        return self.positions[-1]

    @property
    def result(self) -> str:
        return self.position.result

    @property
    def is_over(self) -> bool:
        return self.position.is_over

    def play(self, turn: Turn | str) -> Turn:
        turn = Turn.parse(turn) if isinstance(turn, str) else turn
        self.positions.append(apply(self.position, turn))
        self.turns.append(turn)
        return turn

    def undo(self) -> Turn:
        if not self.turns:
            raise IndexError("nothing to undo")
        self.positions.pop()
        return self.turns.pop()

    def record(self) -> str:
        header = [f"start {self.start}"] if self.start != Position.start(self.start.players) else []
        if not header and self.start.players != 2:
            header = [f"players {self.start.players}"]
        return "\n".join(header + [str(turn) for turn in self.turns]) + "\n"

    @classmethod
    def parse(cls, text: str) -> Game:
        """Read a record: optional ``players N`` or ``start POSITION`` first, then one turn per line; ``#`` comments."""
        headers = {
            "start": lambda rest: cls(Position.parse(rest)),
            "players": lambda rest: cls(Position.parse(f"start {rest}")),
        }
        return records.read_record(text, lambda: cls(Position.start()), headers, NotationError)


def random_turn(position: Position, rng: random.Random) -> Turn:
    """A uniformly random legal turn (placement and chip drawn independently, which is uniform over turns)."""
    cell, pips, _ = rng.choice(placements(position))
    return Turn(cell, pips, rng.choice(position.chip_spots()))


def random_game(rng: random.Random, players: int = 2) -> Game:
    game = Game(Position.start(players))
    while not game.is_over:
        game.play(random_turn(game.position, rng))
    return game


__all__ = [
    "PLAYERS",
    "Game",
    "IllegalTurnError",
    "InvalidTurnError",
    "NotationError",
    "Position",
    "Turn",
    "apply",
    "cell_text",
    "legal_turns",
    "parse_cell",
    "placements",
    "random_game",
    "random_turn",
    "winners",
]  # fmt: skip
