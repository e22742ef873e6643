"""The class tournament: a round robin of a class folder's hand-ins (and baseline bots), resumable and the same
on every executor.

Its unit of work is a :class:`~amoeboid_edu.lab.scoring.Batch` (one pairing, a block of dice seeds, both seats);
every game ends up as a row of the results file (:mod:`.ledger`), judged in the games' fixed order, and the
leaderboard is written beside it (:func:`~amoeboid_edu.lab.cards.write_leaderboard`).
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Sequence

from ..engine.game import TURN_CAP
from ..sandbox.protocol import LOAD_LIMIT
from ..sandbox.text import not_a_formula, shown
from ..sandbox.importpath import trusted_imports
from .cards import TournamentResult, write_leaderboard
from .estimate import RunEstimate, tournament_advice
from .entrants import Entry, Strategies, _digest, _entrants, _target_folders, look_alikes, opponent_list
from .handin import refusals
from .executors import TLSFiles, map_unordered, parse_executor
from .ledger import Ledger, fingerprint, refuse_link, refuse_shared_folder
from .records import DEFAULT_PER_MOVE_LIMIT, GameRecord
from .roster import hand_in_snapshots
from .scoring import (ENTRANT_BUDGET, Batch, _batch_order, _check_settings, _Judge, _Setup, play_batch, prestart,
                      warm_workers)
from .seedfile import _seed_from_file

BATCH_PAIRS = 50
"""Dice seeds per unit of work: a batch is one pairing x a block of 50 seeds = 100 games (README, "Chunking")."""

RESULT_FIELDS = ("first", "second", "pair", "first_seat", "result", "turns", "capped", "forfeit_by", "reason",
                 "value", "message", "isolation")  # fmt: skip
RESULT_KEY = ("first", "second", "pair", "first_seat")


def _one_line(text: str | None) -> str:
    """A student's words as one CSV cell: one line, and never a formula to a spreadsheet."""
    return "" if text is None else not_a_formula(" ".join(str(text).split()))


def _row(record: GameRecord) -> dict[str, object]:
    """A game as a row of the results file: who, which seat and dice, the result, the forfeit if any."""
    return {"first": record.first, "second": record.second, "pair": record.pair, "first_seat": record.first_seat,
            "result": record.winner or "tie", "turns": record.turns, "capped": int(record.capped),
            "forfeit_by": record.forfeit_by, "reason": record.reason, "value": _one_line(record.value),
            "message": _one_line(record.message), "isolation": record.isolation}  # fmt: skip


def _from_row(row: dict[str, str]) -> GameRecord:
    """The game back from its row; the walls are kept per game, so a card rebuilt from the file says what stood
    (without them a card rebuilt from the file would say "none needed")."""
    return GameRecord(first=row["first"], second=row["second"], pair=int(row["pair"]), first_seat=row["first_seat"],
                      winner=None if row["result"] == "tie" else row["result"], turns=int(row["turns"]),
                      capped=row["capped"] == "1", forfeit_by=row["forfeit_by"] or None, reason=row["reason"] or None,
                      value=row["value"] or None, message=row["message"] or None,
                      isolation=row.get("isolation") or "")  # fmt: skip



def tournament(
    strategies: Strategies,
    games: int = 100,
    seed: int | str = 0,
    *,
    out: str | os.PathLike[str] | None = None,
    executor: str = "serial",
    opponents: Sequence[str] = (),
    per_move_limit: float = DEFAULT_PER_MOVE_LIMIT,
    load_limit: float = LOAD_LIMIT,
    board: int = 3,
    max_turns: int = TURN_CAP,
    progress: bool = True,
    seed_label: str | None = None,
    batch_pairs: int = BATCH_PAIRS,
    seed_file: str | os.PathLike[str] | None = None,
    tls: TLSFiles | dict[str, str] | None = None,
) -> TournamentResult:
    """A round robin: every pair of entrants plays ``games`` games (paired dice, seats swapped).

    ``strategies``: a folder with one file per student (``NAME.py`` defining
    ``strategy``, or ``NAME.ipynb`` with the cell tagged ``strategy``), or a list of
    strategies given as for :func:`score` (repeated names get a number).
    ``opponents``: baseline bots to add (one name alone is a list of one).  A wrong argument is refused before any
    game as one :class:`~amoeboid_edu.lab.handin.Refused` line.  ``out``: a CSV file that receives the games
    of each batch as soon as it and every batch before it have ended; run again with the same ``out`` after a crash and only the
    batches with a missing game are played (whole, so that state a strategy keeps meets the same history); a file
    of another run (any setting, entrant or entrant's code that decides the rows differs: :func:`_run_description`)
    is refused, naming what differs.  The leaderboard is then also written next to it as HTML
    (:func:`leaderboard_path`; an ``out`` that is that file is refused before anything is written).  ``executor``: ``serial``, ``processes:K`` or ``dask:ADDRESS`` (see
    :mod:`amoeboid_edu.lab.executors`); every executor gives the same games.
    ``seed_label`` replaces the seed in titles; ``seed_file`` reads a contest's secret seed from that file, with
    the checks of :func:`read_seed_file` (the students' folder counts as readable), and titles say "seed from
    NAME" instead of it.
    ``batch_pairs``: dice seeds per unit of work (one pairing x this many seeds x 2 seats).
    ``tls``: for ``executor="dask:tls://HOST:PORT"``, this client's certificates, ``{"ca": ..., "cert": ...,
    "key": ...}`` (paths of PEM files) or a :class:`~amoeboid_edu.lab.executors.TLSFiles`; a plain ``tcp://``
    scheduler lets anyone who reaches it attach a worker and send results this process unpickles (README).
    """
    # no hand-in is ever imported here; student folders are played from the run's own copies, removed at its end
    with trusted_imports(_target_folders(strategies)), hand_in_snapshots() as snapshot:
        with refusals():  # checked before any game: one line naming what to change, not a traceback
            page = None if out is None else leaderboard_path(out)  # refused before anything is written
            if out is not None and page is not None:  # students plant links or forged results only where they write
                refuse_shared_folder(out, _target_folders(strategies))
                refuse_link(page)
            setup = _Setup(seed, float(per_move_limit), max_turns, board, float(load_limit),
                           bot_tables_by_entrant=True, tournament=True)
            _check_settings(games, setup)
            if isinstance(tls, dict):
                unknown = set(tls) - {"ca", "cert", "key"}
                if unknown or not {"ca", "cert"} <= set(tls):
                    raise ValueError(f"tls is a dict with the keys 'ca', 'cert' and 'key' (paths of PEM files), "
                                     f"not {sorted(tls)}")
                tls = TLSFiles(str(tls["ca"]), str(tls["cert"]), str(tls.get("key") or ""))
            elif tls is not None and not isinstance(tls, TLSFiles):
                raise ValueError(f"tls is a dict with the keys 'ca', 'cert' and 'key', not {type(tls).__name__}")
            where = parse_executor(executor, tls)
            if not isinstance(batch_pairs, int) or batch_pairs < 1:
                raise ValueError(f"batch_pairs must be a whole number >= 1, not {batch_pairs!r}")
            opponents = opponent_list(opponents, strategies=False) if opponents else []
            entries, unread = _entrants(strategies, opponents, snapshot)
            for alike in look_alikes(entries):
                listed = ", ".join(f"{name} ({entries[name].file or 'a strategy'})" for name in alike)
                warnings.warn(f"names that look alike: {listed}; check that they are different students (the "
                              "run's description, NAME.run.json beside --out, says which file each name is)",
                              stacklevel=2)
            if seed_file is not None:
                # a class folder: every student's file lies in it; a list: each file, and each student folder where
                # it lay when copied (its copy, which its worker reads, holds all of it)
                files = ([os.path.join(os.path.abspath(strategies), "any-student.py")]
                         if isinstance(strategies, (str, os.PathLike)) else [e.load.get("file") for e in entries.values()])
                seed, seed_label = _seed_from_file(seed, seed_file, files, f"from {Path(seed_file).name}",
                                                   seed_label, [e.origin for e in entries.values() if e.origin])
                setup = replace(setup, seed=seed)
            if len(entries) < 2:
                why = "".join(f"; {name}: {reason}" for name, reason in unread)  # escaped by _entrants and read_folder
                raise ValueError(f"a tournament needs at least two strategies that can be read{why}")
            names = list(entries)
            matches = [(first, second) for i, first in enumerate(names) for second in names[i + 1 :]]
            described = _run_description(seed, setup, games, batch_pairs, entries)
            earlier = {fingerprint(str(seed), board, max_turns, float(per_move_limit)): EARLIER_RUN}
            ledger = Ledger(None if out is None else os.fspath(out), RESULT_FIELDS, RESULT_KEY, fingerprint(described), {**described, "files": _files(entries)}, earlier)
        wanted = {(a, b, str(pair), seat) for a, b in matches for pair in range(games // 2) for seat in "AB"}
        blocks: list[tuple[tuple[tuple[str, str, int], ...], int | None]] = []  # every block of seeds in order; the batch that plays it, if any
        batches = []
        for first, second in matches:
            for start in range(0, games // 2, batch_pairs):
                block = tuple((first, second, pair) for pair in range(start, min(start + batch_pairs, games // 2)))
                # A batch with a game missing is played whole again (the ledger keeps the rows it has): a strategy that
                # keeps state across games then meets the same history as in a run that was never interrupted.
                if any((first, second, str(pair), seat) not in ledger.rows for _, _, pair in block for seat in "AB"):
                    batches.append(Batch({first: entries[first], second: entries[second]}, block, setup))
                    blocks.append((block, len(batches) - 1))
                else:
                    blocks.append((block, None))
        from tqdm.auto import tqdm

        done = len(wanted & ledger.rows.keys())
        bar = tqdm(total=len(wanted), initial=done, desc="tournament", unit="game", disable=not progress, leave=False)
        processes = None if where.kind == "dask" else where.workers  # serial: 1
        estimate = RunEstimate("tournament", len(wanted) - done, tournament_advice(games, list(opponents), processes),
                               lambda line: bar.write(line, file=sys.stderr))
        judge = _Judge(entries, ENTRANT_BUDGET)  # the games judged in their fixed order, whatever the executor
        place = {index: at for at, (_, index) in enumerate(blocks) if index is not None}  # a batch's block
        judged_blocks = [0]  # the blocks judged so far, in order

        printed: dict[tuple[str, str, int, str], tuple[str, ...]] = {}  # a forfeit's last output: not in the file

        def judged(game: tuple[str, str, int, str], record: GameRecord | None) -> None:
            kept = judge.judge(game, record)
            if kept.output:
                printed[_key(kept)] = kept.output
            added = len(ledger.add([_row(kept)]))
            bar.update(added)
            if progress:
                estimate.finished(added)

        def prepare(index: int, batch: Batch) -> Batch | None:
            """Not played if its pairing was stopped or an entrant is over budget; else it starts from what the judge
            knows now (exactly, once every block before it was judged: always, serially)."""
            first, second = batch.tasks[0][:2]
            if judge.blocked(first, second):
                return None
            return replace(batch, judge=judge.start(first, second, streaks=judged_blocks[0] >= place[index]))

        played: dict[int, list[GameRecord] | None] = {}
        results = map_unordered(play_batch, batches, where, prepare=prepare)
        try:
            with warm_workers():  # serially, each entrant's worker serves all its batches
                if where.kind == "serial":
                    prestart(entries, setup)  # every entrant's worker starts now, side by side
                for at, (block, index) in enumerate(blocks):
                    while index is not None and index not in played:
                        finished_index, records = next(results)
                        played[finished_index] = records
                    _judge_block(block, None if index is None else played.pop(index) or [], ledger, judge, judged)
                    judged_blocks[0] = at + 1
            ledger.finish()
        finally:
            results.close()
            ledger.close()
            bar.close()
        if ledger.conflicts:
            warnings.warn(f"{len(ledger.conflicts)} replayed game(s) ended differently from their recorded rows (a move "
                          "near the per-move limit?); the recorded rows were kept", stacklevel=2)
        records = [_from_row(ledger.rows[key]) for key in sorted(wanted, key=_game_order(names))]
        records = [replace(record, output=printed.get(_key(record), ())) for record in records]
        result = _without_unloaded(names, seed, records, unread, seed_label, (setup.load_limit, setup.per_move_limit))
        if page is not None:
            write_leaderboard(result, page)
        return result


def _key(record: GameRecord) -> tuple[str, str, int, str]:
    return record.first, record.second, record.pair, record.first_seat


def _judge_block(block: tuple[tuple[str, str, int], ...], records: list[GameRecord] | None, ledger: Ledger,
                 judge: _Judge, judged: Callable[[tuple[str, str, int, str], GameRecord | None], None]) -> None:
    """Judge one block of a tournament's seeds, in order: its rows from the ledger if it is complete (``records``
    None: only counted), else the records its batch played, a game it did not play (the batch was skipped or
    stopped: its pairing or an entrant is blocked) as None."""
    order = _batch_order(block)
    if records is None:
        for game in order:
            judge.judge(game, _from_row(ledger.rows[(game[0], game[1], str(game[2]), game[3])]))
        return
    played = {_key(record): record for record in records}
    for game in order:
        judged(game, played.get(game))


RUN_FORMAT = 3
"""The tournament's fingerprint: 1 covered the seed, board, turn limit and per-move limit only; 2 covers everything
that decides the rows (:func:`_run_description`); 3 plays every entrant's games against a bot at tables of its own
(:func:`_table`), so the rows of a format-2 file are of other dice."""
EARLIER_RUN = ("was written by an earlier version of amoeboid_edu, whose fingerprint left out the batch size, the "
               "games, the load limit and the strategies' code, so resuming it could mix the games of two runs")


def _run_description(seed: int | str, setup: _Setup, games: int, batch_pairs: int, entries: dict[str, Entry]
                     ) -> dict[str, Any]:
    """What decides a tournament's rows, as kept beside its results file (and fingerprinted into its ``run`` column).

    The seed only as a digest; every entrant in order (the order decides who plays first in each pairing) with a digest
    of its code; the batch size and the number of games (a batch's games share one sandbox, so a strategy that keeps
    state meets a history that depends on them).  Not the executor: every executor gives the same rows.
    """
    from .. import __version__

    settings = {"format": RUN_FORMAT, "version": __version__, "seed": _digest(f"amoeboid seed {seed}"),
                "games per pairing": games, "seeds per batch": batch_pairs, "board": setup.board,
                "max turns": setup.max_turns, "per-move limit": f"{setup.per_move_limit:g} s",
                "load limit": f"{setup.load_limit:g} s",
                "bot tables": "one per entrant" if setup.bot_tables_by_entrant else "one per bot"}  # fmt: skip
    return {"settings": {label: str(value) for label, value in settings.items()},
            "entrants": [[name, e.code] for name, e in entries.items()]}


def _files(entries: dict[str, Entry]) -> dict[str, str]:
    """Which file each entrant's name is (kept in the run's description, outside its fingerprint): two names that
    look alike on the leaderboard are told apart there."""
    return {name: entry.file for name, entry in entries.items() if entry.file}


def leaderboard_path(out: str | os.PathLike[str]) -> Path:
    """The leaderboard's HTML file beside the games file ``out``: ``results.csv`` -> ``results.html``.

    ValueError when that would be ``out`` itself (``--out results.html``, any ``.html``/``.htm`` name, or a link
    between the two): the leaderboard, written last, overwrote the games and the next run refused the file.
    """
    games = Path(out)
    page = games.with_suffix(".html")
    same = games.suffix.lower() in (".html", ".htm") or os.path.realpath(games) == os.path.realpath(page)
    if not same and games.exists() and page.exists():
        same = os.path.samefile(games, page)
    if same:
        raise ValueError(f"--out {shown(os.fspath(out))}: the leaderboard is written to {shown(page.name)} beside the "
                         f"games file and would overwrite it; name the games file e.g. "
                         f"{shown(games.with_suffix('.csv').name)}")
    return page


def _game_order(names: Sequence[str]) -> Callable[[tuple[str, ...]], tuple[int, int, int, str]]:
    rank = {name: i for i, name in enumerate(names)}
    return lambda key: (rank[key[0]], rank[key[1]], int(key[2]), key[3])


NO_ENTRY = "AttributeError: module 'student_strategy' has no attribute "
"""How a worker says that a hand-in's text, run, made no function of the name asked for."""


SYNTAX_ERROR = re.compile(r"^(SyntaxError|IndentationError|TabError): (.*) \(.*, line (\d+)\)$", re.DOTALL)
"""A compile error as the worker says it (``SyntaxError: expected ':' (nina.py, line 4)``), said as the other load
errors are: ``SyntaxError line 4: expected ':'``."""


def _without_unloaded(names: Sequence[str], seed: int | str, records: Sequence[GameRecord],
                      unread: Sequence[tuple[str, str]], seed_label: str | None, limits: tuple[float, float]
                      ) -> TournamentResult:
    """Entrants whose worker could not load them leave the table (with the error); their games are not counted."""
    failed: dict[str, str] = {}
    for record in records:
        if record.reason == "load":
            name = record.first if record.forfeit_by == "first" else record.second
            value = (record.value or "").removeprefix("DidNotLoad: ")
            if value.startswith(NO_ENTRY):  # its text ran, and made neither name (see entrants._entry_function)
                value = "it defines no 'strategy' (nor 'choose'): name the function to play strategy"
            value = SYNTAX_ERROR.sub(r"\1 line \3: \2", value)
            failed.setdefault(name, value)
    kept = [r for r in records if r.first not in failed and r.second not in failed]
    not_loaded = tuple(sorted([*unread, *failed.items()]))
    return TournamentResult(tuple(n for n in names if n not in failed), seed, tuple(kept), not_loaded, seed_label,
                            limits, len(records) - len(kept))



__all__ = ["BATCH_PAIRS", "RESULT_FIELDS", "RESULT_KEY", "leaderboard_path", "tournament"]
