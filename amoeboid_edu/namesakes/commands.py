"""What ``amoeboid moves --game ...`` and ``amoeboid replay --game ...`` do for the namesakes.

Errors are ``ValueError``s with one clear sentence; the ``amoeboid`` command
prints them as one line and exits with status 2.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from . import nakajima, oosterwal

GAMES = ("amoeboid", "nakajima", "oosterwal")


def nakajima_moves(position_text: str) -> list[str]:
    """Every legal move, one string each, in board order (points row by row, then the 6 directions)."""
    return [str(move) for move in nakajima.legal_moves(nakajima.Position.parse(position_text))]


def oosterwal_moves(position_text: str) -> list[str]:
    """Every legal placement with what it scores: ``PIPS@X,Y SCORE``."""
    position = oosterwal.Position.parse(position_text)
    return [f"{pips}@{oosterwal.cell_text(cell)} {score}" for cell, pips, score in oosterwal.placements(position)]


LISTERS: dict[str, Callable[[str], list[str]]] = {"nakajima": nakajima_moves, "oosterwal": oosterwal_moves}


def moves(game: str, position_text: str, roll: str | None, lines: Callable[[], list[str]], out: TextIO) -> None:
    """Print the moves of one position, or (position ``-``) of each line read, joined by ``; ``."""
    if roll is not None:
        raise ValueError(f"{game} has no dice: give only the POSITION, not a roll ({roll!r})")
    lister = LISTERS[game]
    if position_text != "-":
        for line in lister(position_text):
            print(line, file=out)
        return
    for number, line in enumerate(lines(), start=1):
        try:
            print("; ".join(lister(line)) if line.strip() else "", file=out)
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from None
        out.flush()


def replay(game: str, text: str, verbose: bool, out: TextIO) -> None:
    """Replay a record; print the final position (every position with ``verbose``) and the result."""
    record: nakajima.Game | oosterwal.Game
    if game == "nakajima":
        record = nakajima.Game.parse(text)
        result = f"{record.result} ({record.reason})" if record.reason else record.result
    else:
        record = oosterwal.Game.parse(text)
        result = record.result
    for position in record.positions if verbose else record.positions[-1:]:
        print(position, file=out)
    print(f"result: {result}", file=out)


__all__ = ["GAMES", "moves", "replay"]
