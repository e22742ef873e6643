"""What ``amoeboid moves --game ...`` and ``amoeboid replay --game ...`` do for the namesakes.

Errors are ``ValueError``s with one clear sentence; the ``amoeboid`` command
prints them as one line and exits with status 2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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
QUOTED = {"nakajima": "'b b b b / . . B . . / ... white'", "oosterwal": "'start 3' or 'A:0 B:0 | o@0,0 o@2,0 o@4,0 | A'"}


def moves(game: str, position_text: str, roll: str | None, limit: int, lines: Iterable[str], out: TextIO) -> None:
    """Print as ``amoeboid moves`` does for Amoeboid: at most ``limit`` moves, then the total.

    Position ``-``: the moves of each line read, joined by ``; `` (at most
    ``limit``, then how many more).
    """
    if roll is not None:
        if game == "oosterwal" and position_text == "start":
            position_text = f"start {roll}"  # `start 3` typed without quotes: the shell split it
        else:
            raise ValueError(
                f"{game} has no dice and its POSITION is one argument: quote it, e.g. {QUOTED[game]} "
                f"(got {position_text!r}, then {roll!r})"
            )
    lister = LISTERS[game]
    if position_text != "-":
        found = lister(position_text)
        for line in found[:limit]:
            print(line, file=out)
        shown = f" ({limit} shown; --limit N shows more)" if len(found) > limit else ""
        print(f"total: {len(found)}{shown}", file=out)
        return
    for number, line in enumerate(lines, start=1):
        try:
            found = lister(line) if line.strip() else []
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from None
        more = f"; … ({len(found) - limit} more)" if len(found) > limit else ""
        print("; ".join(found[:limit]) + more, file=out)
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
