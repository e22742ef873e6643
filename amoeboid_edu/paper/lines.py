"""Shared by the opening Cases: set-ups on any n x n board, the paper bot as a line, annotated counter-lines."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable

from ..bots import PaperChoice, paper_choice
from ..game import seeded_rng
from ..rules import Amoeba, Position, Turn, apply, legal_turns
from ..strategy import candidate_turns

BOARDS = (3, 4, 5)
"""The paper plays "a n x n Board": every game-dependent verdict is run on these sizes."""


def opening_position(a_size: int, b_size: int, a_cell: str = "a1", b_cell: str = "c3", to_move: str = "A",
                     board: int = 3) -> Position:  # fmt: skip
    """One pure amoeba each on an ``board`` x ``board`` grid (the paper's opening cases); A's on ``a_cell``.

    The default cells a1 and c3 are two steps apart on every board: "the center"
    of the paper is b2, next to both (on 3x3 it is the centre).
    """
    start = Position.start(board)
    cells: list[Amoeba | None] = [None] * len(start.board)
    cells[start.board.index[a_cell]] = Amoeba(a_size, 0)
    cells[start.board.index[b_cell]] = Amoeba(0, b_size)
    return Position(start.board, tuple(cells), to_move, start.rules)


@lru_cache(maxsize=500_000)
def _paper_choice(position: Position, roll: int) -> PaperChoice:
    return paper_choice(position, roll, seeded_rng("paper-line", position, roll))


def paper_line(position: Position, roll: int) -> Turn:
    """The paper bot's turn, its rng fixed by (position, roll) so that the line is a function (cached, for searches)."""
    return _paper_choice(position, roll).turn


def paper_annotation(position: Position, roll: int) -> str:
    """The sentence (or named default) behind :func:`paper_line`'s turn."""
    return _paper_choice(position, roll).annotation


def only_the_line(position: Position, roll: int) -> list[Turn]:
    return [paper_line(position, roll)]


def line_then_candidates(position: Position, roll: int):
    """A's options for a forced-win search: the paper's line first, then every other candidate turn."""
    line = paper_line(position, roll)
    yield line
    for turn in candidate_turns(position, roll):
        if turn != line:
            yield turn


def half_splits(position: Position, roll: int) -> list[Turn]:
    """B "as the paper plays it": split a grown amoeba in half onto an empty cell (every such choice).

    "B's only option is to split his amoeba, obviously in half."  When no half
    split exists (the board is full, or the amoeba has size 1), every legal turn.
    """
    board, mover = position.board, position.to_move
    turns = []
    for grow in position.owned_indices(mover):
        cell = position.cells[grow]
        grown = Amoeba(cell.a + roll, cell.b) if mover == "A" else Amoeba(cell.a, cell.b + roll)
        counts = (grown.a // 2, grown.b // 2)
        if sum(counts) == 0:
            continue
        for dst in board.neighbours[grow]:
            if position.cells[dst] is None:
                turns.append(Turn(roll, board.names[grow], board.names[grow], board.names[dst], *counts))
    return turns or list(legal_turns(position, roll))


def annotated_record(start: Position, entries: Iterable[str], claimant: str = "A",
                     annotate: Callable[[Position, int], str] = paper_annotation,
                     other_side: str = "any legal turn") -> str:  # fmt: skip
    """A game record (spec notation, replayable with ``amoeboid replay``) with every turn annotated.

    ``entries`` are ``"A 3 a1 a1-b2 8,0"``-style strings (player, then the turn);
    the claimant's turns carry the sentence they follow (``annotate``), the
    other side's say what they are.  Every turn is checked as it is replayed.
    """
    board = start.board
    lines = [f"board {board.rows}x{board.cols}", f"start {start}"]
    position = start
    for entry in entries:
        player, text = entry.split(" ", 1)
        turn = Turn.parse(text)
        if position.to_move != player:
            raise ValueError(f"{entry!r}: it is {position.to_move}'s turn")
        note = annotate(position, turn.roll) if player == claimant else other_side
        lines.append(f"{text:<22} # {player}: {note}")
        position = apply(position, turn)
    lines.append(f"# ends: {position} — result {position.result}")
    return "\n".join(lines)


@lru_cache(maxsize=500_000)
def text_options(position: Position, roll: int) -> tuple[Turn, ...]:
    """Every turn the applicable sentence of the paper allows (with the named defaults): A's options in a search."""
    from ..bots import paper_options

    return tuple(paper_options(position, roll)[1])
