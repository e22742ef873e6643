"""The strategy lab: score a student's strategy against the baseline bots, fairly and safely.

>>> from amoeboid_edu import legal_move_pairs
>>> from amoeboid_edu.lab import score
>>> def wander(position, roll, rng):
...     grow = rng.choice(position.owned())
...     pairs = legal_move_pairs(position, roll, grow)
...     return f"{roll} {grow} {'-'.join(rng.choice(pairs))}" if pairs else f"{roll} {grow} -"
>>> card = score(wander, games=20, opponents=["random", "greedy"], progress=False)
>>> card.summary()[["opponent", "games"]].values.tolist()
[['random', 20], ['greedy', 20]]

In a notebook ``card`` shows as a table (forfeits listed below it),
``card.chart()`` draws the win rates with their 95% Wilson intervals and
``card.to_frame()`` has one row per game.

Fair: every dice seed is played twice with the seats swapped (duplicate
bridge), so both sides meet the same luck; every random stream is derived with
:func:`~amoeboid_edu.engine.seeding.seeded_rng`, so the same seed gives the same card,
serial or with ``workers=K``.  (The derivation is public: a strategy that
knew the seed could recompute the dice.  For a contest, use a long random
seed the students cannot see: ``amoeboid score --seed-file``.)

Safe: a student's strategy runs in its own worker process
(:mod:`amoeboid_edu.sandbox.core`; docs/threat-model.md), started fresh behind
the walls the platform offers (on Linux seccomp and Landlock: it cannot
signal, trace or read this process, open sockets or write anything), fed the
position as text and the roll; a move that reaches the per-move limit is
interrupted and forfeits, and its process keeps the import.  The
dice never leave this process.  An exception, an illegal turn, a malformed
return value, a timeout or a crash forfeits that game, and the card says why
and which walls were up.
Games are interleaved (up to ``IN_FLIGHT`` at once) so that one round trip
to the worker serves many moves; a strategy should therefore not keep state
between calls (its ``rng`` is fresh for every move, seeded per game and turn).

A strategy written in a notebook cell travels to the worker with cloudpickle
(by value: its code and the globals it uses).  ``"module:function"`` and
``"path/to/file.py:function"`` are loaded by the worker itself, so nothing of
the student's code ever runs in this process.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import io
import os
import pickle
import queue
import subprocess
import sys
import threading
import types
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Sequence

from ..sandbox.core import KEEP_LINES, LINE_WIDTH, LOAD_LIMIT, SEED_BITS, Forfeit, Sandbox, not_a_formula, shown
from ..players.registry import BOTS
from ..engine.seeding import seeded_rng
from ..engine.game import TURN_CAP
from ..sandbox.importpath import caller_path, trusted_imports
from ..engine.match import STRATEGY, Match
from ..engine.rules import IllegalTurnError, NotationError, Position, Turn, other
from ..sandbox.defaults import DEFAULT_GAMES, FAST_OPPONENTS
from .stats import html_table, pairwise_chart, pairwise_scores, paired_verdict, rank_ranges, rate_chart, rating_chart
from .stats import ratings, standings, tally
from .stats import text_table, wilson_interval
from ..players.tracebacks import cached_cell_line, describe
from ..players.strategy import Strategy, as_function, strategy_name

DEFAULT_PER_MOVE_LIMIT = 1.0
SAME_FAILURE_STOP = 5
"""``score`` stops once the strategy has forfeited this many games in a row in exactly the same way; a tournament
then stops that pairing (its remaining games are that entrant's forfeits)."""
ENTRANT_BUDGET = 10
"""Games an entrant of a tournament may lose with its import or its game process (a crash, a move that would not
stop, an import that fails or outlasts the load limit); its remaining games are then forfeits, not played.  Each
such game costs up to two imports (docs/threat-model.md gives the bound)."""
FORFEIT_REASONS = ("exception", "illegal", "malformed", "timeout", "crash", "load")
"""Why a game was forfeited: the strategy raised; returned an illegal turn; returned something that is
not a turn; took longer than the per-move limit; killed its worker; could not be loaded at all."""


# --------------------------------------------------------------------------- who plays


@dataclass(frozen=True)
class Entry:
    """A strategy as the harness ships it: a trusted bot by name, or untrusted code for a worker."""

    name: str
    bot: str | None = None  # a key of BOTS: runs here, in the harness process
    load: dict = field(default_factory=dict)  # how the worker loads it
    payload: bytes = b""  # the cloudpickle bytes, for load == "pickle"
    code: str = ""  # a digest of its source, for a tournament's fingerprint (see _code_digest)
    sources: tuple = ()  # for a pickled strategy, its functions' lines as this process sees them (_source_index)

    @property
    def trusted(self) -> bool:
        return self.bot is not None


def _parse_target(target: str) -> dict:
    """``"module:function"`` or ``"path/to/file.py:function"`` as a worker load request (checked, not run).

    A module is looked for on the caller's import path (:func:`~amoeboid_edu.sandbox.importpath.caller_path`, without
    importing anything); the folder it lies in (``root``) is given to that worker only, never to this process.
    """
    where, colon, name = target.rpartition(":")
    if not colon or not where or not name.isidentifier():
        raise ValueError(f"strategy {shown(repr(target))}: expected MODULE:FUNCTION or path/to/file.py:FUNCTION")
    if where.endswith(".py"):
        if not os.path.isfile(where):
            raise ValueError(f"strategy {shown(repr(target))}: no such file {shown(where)}")
        _check_defines(where, name, target)
        return {"load": "file", "file": os.path.abspath(where), "name": name}
    if not all(part.isidentifier() for part in where.split(".")):
        raise ValueError(f"strategy {shown(repr(target))}: the part before ':' is not a module name")
    file = _module_file(where)
    if file is not None and file.endswith(".py"):
        _check_defines(file, name, target)
    root = _module_root(where, caller_path())
    return {"load": "import", "module": where, "name": name, **({"root": root} if root else {})}


def _module_root(module: str, path: Sequence[str]) -> str | None:
    """The entry of ``path`` where the top package of ``module`` lies (found without importing it), or None."""
    from importlib.machinery import PathFinder

    top = module.split(".")[0]
    if top in sys.builtin_module_names:
        return None
    for place in path:
        try:
            if PathFinder.find_spec(top, [os.path.abspath(place or os.curdir)]) is not None:
                return os.path.abspath(place or os.curdir)
        except (ImportError, ValueError, OSError):
            continue
    return None


def student_name(text: str) -> str:
    """An entrant's name as shown everywhere: the student's word, escaped, cut to ``NAME_WIDTH``, never a formula."""
    from .roster import NAME_WIDTH

    return not_a_formula(shown(text, NAME_WIDTH))


ENTRY_FUNCTIONS = ("strategy", "choose")
"""The functions every hand-in defines: an entrant is named after its file alone when it plays one of them."""


def _target_name(request: dict) -> str:
    """Whose strategy a target is: the file's name (``class/nina.py`` -> nina; ``class/nina/strategy.py`` -> nina)
    or the module's last part, followed by ``:function`` unless that is ``strategy`` or ``choose`` (so two
    functions of one file keep two names).  Never the bare function name "strategy" of every hand-in."""
    if request["load"] == "file":
        path = Path(request["file"])
        owner = path.parent.name if path.name == "strategy.py" and path.parent.name else path.stem
    else:
        owner = request["module"].rsplit(".", 1)[-1]
    return owner if request["name"] in ENTRY_FUNCTIONS else f"{owner}:{request['name']}"


READ_AHEAD_LIMIT = 1 << 20
"""Largest source file read here to check the function's name before any game (a bigger one is checked by loading)."""


def _check_defines(file: str, name: str, target: str) -> None:
    """Refuse ``FILE.py:name`` now, naming the functions the file does define, when its top level defines no
    ``name``: read as text and parsed, never run (the student's code only ever runs in a worker).  A file that
    cannot be read or parsed, or that makes names some other way (``import``, ``globals()``), is left to the worker."""
    import ast

    try:
        if os.path.getsize(file) > READ_AHEAD_LIMIT:
            return
        tree = ast.parse(Path(file).read_bytes())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return
    defined: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.append(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.If, ast.Try,
                               ast.With, ast.For, ast.While, ast.Expr)) and name in ast.dump(node):
            return  # a name made some other way, or mentioned where it could be made: let loading decide
        elif isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names):
            return
    if name in defined:
        return
    functions = [n for n in defined if n.isidentifier()]
    offer = f"it defines {', '.join(functions)}" if functions else "it defines no function at its top level"
    raise ValueError(f"strategy {shown(repr(target))}: {shown(Path(file).name)} defines no {shown(name)} ({offer}); "
                     f"give one of its functions after the ':'")


def entry(strategy: Strategy | str, name: str | None = None) -> Entry:
    """How ``strategy`` will be run: a baseline bot (name or function) here, anything else in a worker.

    Its name: ``name``, else the student's file or module name for a target, else the function's name.
    """
    if name is not None:
        name = student_name(name)
    if isinstance(strategy, str):
        if strategy in BOTS:
            return Entry(name or strategy, bot=strategy)
        request = _parse_target(strategy)
        return Entry(name or student_name(_target_name(request)), load=request)
    for bot_name, bot in BOTS.items():
        if strategy is bot:
            return Entry(name or bot_name, bot=bot_name)
    as_function(strategy)  # a clear TypeError now rather than a forfeit per game
    import cloudpickle

    try:
        payload = cloudpickle.dumps(strategy)
    except Exception as error:
        raise ValueError(f"cannot send strategy {shown(strategy_name(strategy))} to a worker process: {shown(error)}") from None
    return Entry(name or student_name(strategy_name(strategy)), load={"load": "pickle"}, payload=payload,
                 sources=_source_index(strategy))


SOURCE_INDEX_LIMIT = 200
"""Functions indexed per strategy (its own, nested ones and the helpers it calls) for naming a forfeit's line."""


def _source_index(strategy: object) -> tuple:
    """``(function name, first line, last line, file, lines)`` for the strategy's function, the code nested in it and
    the functions of its globals that it uses (helpers from other cells), read here from ``linecache`` (a notebook
    cell's source is in this kernel's memory).

    A worker names where a pickled strategy raised by file, line and function; what the file is called depends on
    the cloudpickle release (the cell's file name up to 3.1.2, ``<dynamic-code>`` from 3.1.3), so the line is found
    here by function name and line range instead, with nothing but Python's own code objects.
    """
    import linecache

    index, seen = [], set()
    pending = [as_function(strategy)]
    while pending and len(index) < SOURCE_INDEX_LIMIT:
        function = pending.pop()
        code = getattr(function, "__code__", None)
        if not isinstance(code, types.CodeType) or code in seen:
            continue
        codes = [code]
        while codes:
            current = codes.pop()
            if current in seen:
                continue
            seen.add(current)
            lines = [line for _, _, line in current.co_lines() if line is not None]
            first, last = current.co_firstlineno, max(lines, default=current.co_firstlineno)
            text = tuple(linecache.getline(current.co_filename, n) for n in range(first, last + 1))
            index.append((current.co_name, first, last, current.co_filename, text))
            codes += [const for const in current.co_consts if isinstance(const, types.CodeType)]
            names = getattr(function, "__globals__", {})
            pending += [names[n] for n in current.co_names if isinstance(names.get(n), types.FunctionType)]
    return tuple(index)


def _with_source(where: object, sources: tuple) -> object:
    """The worker's ``[file, line, function, source]`` with the line's text (and real file) from ``sources`` when the
    worker could not read it: the innermost indexed function of that name whose lines hold that line."""
    if not sources or not (isinstance(where, list) and len(where) == 4 and isinstance(where[1], int)
                           and isinstance(where[2], str) and isinstance(where[3], str)) or where[3].strip():
        return where
    _, lineno, name, _ = where
    found = [item for item in sources if item[0] == name and item[1] <= lineno <= item[2]]
    if not found:
        return where
    function, first, last, file, text = min(found, key=lambda item: item[2] - item[1])
    return [file, lineno, function, text[lineno - first]]


@dataclass(frozen=True)
class GameRecord:
    """One game of a match, as the score card and the tournament table count it."""

    first: str  # the match is first vs second; the pair's two games swap their seats
    second: str
    pair: int
    first_seat: str  # "A" or "B"
    winner: str | None  # "first", "second" or None (tie, or capped)
    turns: int
    capped: bool = False
    forfeit_by: str | None = None  # "first" or "second"
    reason: str | None = None  # one of FORFEIT_REASONS
    value: str | None = None  # what the strategy returned (or the error), shortened
    message: str | None = None  # why that value was refused
    output: tuple[str, ...] = ()  # the last lines the forfeiting strategy printed
    printed: tuple[int, int] = (0, 0)  # characters printed by first and second
    isolation: str = ""  # the walls around the untrusted side(s), e.g. "process + seccomp + landlock"
    moves: str = ""  # the turns played, in notation, joined by MOVES_JOIN (one string: a card keeps thousands)
    table: tuple[str, ...] = ()  # where the dice came from (see .match): replaying the game needs it
    lines: tuple[int, int] = (0, 0)  # lines printed by first and second
    outputs: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # the last lines each side printed in the game
    # Time first and second spent on their moves, and the slowest move of each, by their worker's clock: measured,
    # so not part of what makes two records the same game (the same seed gives equal records on any executor).
    seconds: tuple[float, float] = field(default=(0.0, 0.0), compare=False)
    slowest: tuple[float, float] = field(default=(0.0, 0.0), compare=False)
    asked: tuple[int, int] = (0, 0)  # moves asked of each side's worker (0 for a trusted bot)

    def played(self) -> list[str]:
        """The turns played, in notation."""
        return self.moves.split(MOVES_JOIN) if self.moves else []


MOVES_JOIN = "; "


@dataclass(frozen=True)
class _Setup:
    seed: int | str
    per_move_limit: float
    max_turns: int
    board: int
    load_limit: float = LOAD_LIMIT
    bot_tables_by_entrant: bool = False  # a tournament's: see _table


def _stream_seed(seed, *keys) -> int:
    """An integer seed for a worker's generators, from its own SHA-512-keyed stream.

    It reveals nothing of the dice stream (keyed "dice") short of guessing ``seed`` itself, which is
    why a contest needs a long secret seed (docs/threat-model.md).
    """
    return seeded_rng(seed, *keys).getrandbits(SEED_BITS)


def _raised_where(where: object) -> str:
    """``raised in f, line 3 of its notebook cell: ...`` from the worker's ``[file, line, function, source]``.

    Every part is the worker's word: checked for type, and no file it names is
    opened here (only the kernel's cache of notebook cells is consulted).
    """
    if not (isinstance(where, list) and len(where) == 4 and isinstance(where[1], int)
            and not isinstance(where[1], bool) and all(isinstance(where[i], str) for i in (0, 2, 3))):
        return "raised an exception"
    filename, lineno, name, source = where
    return "raised " + describe(filename, lineno, name, source if source.strip() else cached_cell_line(filename, lineno))


ERROR_HINTS = {
    "FrozenInstanceError": ": a position (and an amoeba) cannot be changed; to see the position after a turn, make "
                           "a new one with apply(position, turn)",
}
"""Exceptions whose usual cause in a strategy is known: a hint added to the forfeit's message."""
PRINT_HEAVY = 100_000
"""Characters printed in one move above which a timeout is blamed on the printing (printing is slow)."""


def _timeout_message(answer: dict, limit: float | None, sources: tuple = ()) -> str:
    """Why a move timed out, in words a student can act on: where it was stuck (or that printing took the time) and
    how to allow more time."""
    where, printed = answer.get("where"), answer.get("printed", 0)
    if isinstance(printed, int) and printed >= PRINT_HEAVY:
        stuck = (f"it printed {printed:,} characters in this move, and printing that much is what took the time: "
                 "remove the print() calls (or print much less)")
    elif where is not None and (place := _raised_where(_with_source(where, sources))) != "raised an exception":
        stuck = "it was stopped " + place.removeprefix("raised ")
    else:
        stuck = shown(answer.get("message", ""), LINE_WIDTH)
    more = f"{2 * limit:g}" if limit else "2"
    return shown(f"{stuck}. Make the move faster (an endless loop?), or allow more time: "
                 f"score(..., per_move_limit={more}) or amoeboid score --per-move-limit {more}", 2 * LINE_WIDTH)


def _turn_from(answer: dict, roll: int, limit: float | None = None, sources: tuple = ()) -> Turn:
    """Validate a worker's answer: a Turn for this roll, or a forfeit naming what is wrong."""
    kind, value = answer.get("kind"), shown(answer.get("value", ""))
    if kind == "timeout":  # interrupted at the limit by the game process, which keeps its import
        raise Forfeit("timeout", value, _timeout_message(answer, limit, sources))
    if kind == "error":
        hint = next((text for name, text in ERROR_HINTS.items() if value.startswith(name + ":")), "")
        raise Forfeit("exception", value,
                      shown(f"the strategy {_raised_where(_with_source(answer.get('where'), sources))}", LINE_WIDTH)
                      + hint)
    if kind == "other" and value == "None":
        raise Forfeit("malformed", "None", "your strategy returned nothing (None): a `return` is missing, or a path "
                                           "through the function ends without one; return a Turn or its notation")
    if kind not in ("turn", "text"):
        raise Forfeit("malformed", value, "a strategy returns a Turn or its notation string")
    try:
        turn = Turn.parse(value)
    except NotationError as error:
        raise Forfeit("malformed", value, shown(error)) from None
    if turn.roll != roll:
        raise Forfeit("illegal", value, f"the die shows {roll}, not {turn.roll}")
    return turn


BOT_TABLE = "against"
"""The middle word of a tournament's table between a baseline bot and an entrant: ``(bot, BOT_TABLE, entrant)``."""


def _table(first: Entry, second: Entry, by_entrant: bool = False) -> tuple[str, ...]:
    """Where a game's dice come from (see :mod:`amoeboid_edu.engine.match`): both names when no bot plays, else its
    bots' names; with ``by_entrant`` (a tournament), a bot's table against an entrant is ``(bot, "against", entrant)``.

    Each worker then sees every dice stream at most once (one seat, one game per pair and opponent).  A score card
    keeps one table per bot, so that two students scored with the same seed meet the same dice; in a tournament
    every entrant has tables of its own, so that no two entrants (two hand-ins of one student, or two who collude)
    meet the same dice against a bot and pass each other its coming rolls.
    """
    entries = (first, second)
    bots = [str(e.bot) for e in entries if e.trusted]
    if not bots:
        return tuple(sorted(e.name for e in entries))
    students = [e.name for e in entries if not e.trusted]
    if by_entrant and students:
        return (bots[0], BOT_TABLE, students[0])
    return tuple(sorted(bots))


class _Game:
    """One game in progress (a :class:`~amoeboid_edu.engine.match.Match`): bots move here, strategies' moves are asked for."""

    def __init__(self, first: Entry, second: Entry, pair: int, first_seat: str, setup: _Setup) -> None:
        self.first, self.second, self.pair, self.first_seat = first, second, pair, first_seat
        self.entries = {first_seat: first, other(first_seat): second}
        self.table = _table(first, second, setup.bot_tables_by_entrant)
        self.match = Match(first.bot or STRATEGY, second.bot or STRATEGY, seed=setup.seed, pair=pair,
                           first_seat=first_seat, board=setup.board, max_turns=setup.max_turns,
                           table=self.table)
        self.outputs: dict[str, collections.deque[str]] = {seat: collections.deque(maxlen=KEEP_LINES) for seat in "AB"}
        self.printed = {"A": 0, "B": 0}
        self.lines = {"A": 0, "B": 0}
        self.seconds = {"A": 0.0, "B": 0.0}
        self.slowest = {"A": 0.0, "B": 0.0}
        self.asked = {"A": 0, "B": 0}
        self.limit = setup.per_move_limit
        self.forfeit: tuple | None = None
        self.isolation: dict[str, str] = {}  # seat -> the walls its worker reported
        self.finished = False  # its record was handed on: it rolls no more dice

    @property
    def waiting_for(self) -> Entry:
        return self.entries[self.match.position.to_move]

    def advance(self) -> GameRecord | None:
        """Play the bots' moves; the record once the game is over, else None (a worker's move is due)."""
        match = self.match
        while self.forfeit is None and (seat := match.due()) is not None:
            if not self.entries[seat].trusted:
                match.roll()
                return None
            roll = match.roll()
            match.play_trusted(BOTS[self.entries[seat].bot](match.position, roll, match.rng()))
        return self._record()

    def move_request(self) -> tuple[int, int, Position]:
        return self.match.move_seed(), self.match.roll(), self.match.position

    def receive(self, answer) -> None:
        """A worker's answer (or a forfeit) for the move due."""
        seat = self.match.position.to_move
        try:
            if isinstance(answer, Forfeit):
                raise answer
            output, printed = answer.get("output"), answer.get("printed")
            if isinstance(output, list):
                self.outputs[seat].extend(shown(line, LINE_WIDTH) for line in output[-KEEP_LINES:])
            if isinstance(printed, int):
                self.printed[seat] += printed
            lines, took = answer.get("lines"), answer.get("took")
            if isinstance(lines, int):
                self.lines[seat] += lines
            if isinstance(took, float):
                self.seconds[seat] += took
                self.slowest[seat] = max(self.slowest[seat], took)
            self.asked[seat] += 1
            turn = _turn_from(answer, self.match.roll(), self.limit, self.entries[seat].sources)
            try:
                self.match.play(turn)
            except IllegalTurnError as error:
                raise Forfeit("illegal", shown(turn), shown(error)) from None
        except Forfeit as forfeit:
            self.forfeit = (seat, forfeit.reason, forfeit.value, forfeit.message)

    def _record(self) -> GameRecord:
        role = self.match.role
        capped, winner, forfeit = self.match.capped, self.match.winner, {}
        if self.forfeit is not None:
            seat, reason, value, message = self.forfeit
            capped, winner = False, role[other(seat)]
            forfeit = dict(forfeit_by=role[seat], reason=reason, value=value, message=message,
                           output=tuple(self.outputs[seat]))
        first_seat = self.first_seat
        return GameRecord(
            first=self.first.name,
            second=self.second.name,
            pair=self.pair,
            first_seat=first_seat,
            winner=winner,
            turns=len(self.match.turns),
            capped=capped,
            printed=(self.printed[first_seat], self.printed[other(first_seat)]),
            isolation="; ".join(dict.fromkeys(self.isolation[seat] for seat in "AB" if seat in self.isolation)),
            moves=MOVES_JOIN.join(map(str, self.match.turns)),
            table=self.table,
            **{name: (values[first_seat], values[other(first_seat)]) for name, values in (
                ("lines", self.lines), ("seconds", self.seconds), ("slowest", self.slowest), ("asked", self.asked),
                ("outputs", {seat: tuple(lines) for seat, lines in self.outputs.items()}))},
            **forfeit,
        )


IN_FLIGHT = 64
"""Games of a lane played at once (a pairing plays its two lanes side by side: twice this): one worker round trip
then serves up to this many moves."""
PAIRED_DICE = "twin games in lockstep"
"""What keeps the two games of a dice pair from leaking their rolls to each other, as the card says it
(:func:`_may_ask`): the harness enforces it on every platform, whatever walls stood."""


def _both_seats(tasks: Sequence[tuple[str, str, int]]) -> list[tuple[str, str, int, str]]:
    """The two games of each ``(first, second, pair)`` task: ``first`` in seat A, then in seat B."""
    return [(first, second, pair, seat) for first, second, pair in tasks for seat in "AB"]


def _lanes(games: Sequence[tuple[str, str, int, str]]) -> list[list[tuple[str, str, int, str]]]:
    """The games grouped by pairing and seats, in order: a lane is the unit no executor splits."""
    lanes: dict[tuple[str, str, str], list] = {}
    for game in games:
        first, second, _, first_seat = game
        lanes.setdefault((first, second, first_seat), []).append(game)
    return list(lanes.values())


def _pairings(games: Sequence[tuple[str, str, int, str]]) -> list[list[tuple[str, str, int, str]]]:
    """The games grouped by pairing, in order: both lanes of a pairing (its two seatings), which share their dice.

    A pairing is the unit no executor splits: its two lanes must be played side by side, in lockstep (see
    :func:`_play_pairing`).
    """
    pairings: dict[tuple[str, str], list] = {}
    for game in games:
        pairings.setdefault(game[:2], []).append(game)
    return list(pairings.values())


def _play_tasks(entries: dict, games: Sequence[tuple[str, str, int, str]], setup: _Setup, finished) -> None:
    """Play the ``(first, second, pair, first_seat)`` games here, pairing by pairing; ``finished(record)`` as each ends.

    A lane (one pairing, seats fixed) has sandboxes of its own, started for it and closed after it, and its
    games go to them in the same order whether the run is serial, split over workers or over a cluster: a
    strategy that keeps state in its module meets the same history, so it gets the same card on any executor.
    Its sandbox sees one seat of one table, so no process sees both games of a dice pair (they share their
    dice, seats swapped) or the same dice against two opponents (both found by the red team).  The two lanes
    of a pairing are played together, in lockstep, so that no process learns a roll before the twin game rolls
    it (:func:`_play_pairing`).
    """
    for pairing in _pairings(games):
        _play_pairing(entries, pairing, setup, finished)


def _may_ask(game: _Game, twin: _Game | None) -> bool:
    """Whether ``game``'s mover may be told its roll now: never before the twin game has drawn that roll.

    The twins of a pair roll the same dice, the n-th roll of the game at its n-th turn.  Told at turn n, a
    process knows the rolls up to n; if the twin were behind, a process of the twin's could learn its own game's
    coming rolls from it through any channel the walls leave between processes (the red team used the access
    times of never-read files: a file read "writes", a ``stat`` "reads", 30 of 30 rolls known ahead).  Of two
    twins still playing, the one behind may always move, so the pair never waits for ever.
    """
    return twin is None or twin.finished or len(twin.match.turns) >= len(game.match.turns)


def _play_pairing(entries: dict, games: Sequence[tuple[str, str, int, str]], setup: _Setup, finished) -> None:
    """Play one pairing's games, ``IN_FLIGHT`` pairs at a time, each lane's untrusted strategies in their own sandbox.

    A game's twin (same pair, seats swapped) enters play with it, and a game's mover is asked only when
    :func:`_may_ask`: neither game of a pair runs ahead of the other.  A game whose twin is not among ``games``
    (it was played to its end earlier, before a resume) has no roll left to protect and runs freely.
    """
    rules = Position.start(setup.board).rules
    import_seed = _stream_seed(setup.seed, "import")
    sandboxes: dict[tuple[str, str], Sandbox] = {}

    def sandbox_for(name: str, lane: str) -> Sandbox:
        if (name, lane) not in sandboxes:
            e = entries[name]
            sandboxes[(name, lane)] = Sandbox(e.load, e.payload, rules, setup.load_limit, import_seed)
        return sandboxes[(name, lane)]

    made = {game: _Game(entries[game[0]], entries[game[1]], game[2], game[3], setup) for game in games}
    twins = {made[game]: made.get((*game[:3], other(game[3]))) for game in games}
    pairs: dict[int, list[_Game]] = {}
    for game in made.values():
        pairs.setdefault(game.pair, []).append(game)
    waiting = collections.deque(sorted(pairs.items()))  # both games of a pair enter play together
    active: list[_Game] = []
    try:
        while waiting or active:
            while waiting and len(active) < 2 * IN_FLIGHT:
                active += sorted(waiting.popleft()[1], key=lambda game: game.first_seat)
            asking: dict[tuple[str, str, str], list[_Game]] = {}
            playing = []
            for game in active:
                record = game.advance()
                if record is None:
                    playing.append(game)
                else:
                    game.finished = True
                    finished(record)
            for game in playing:
                if _may_ask(game, twins[game]):
                    key = (game.waiting_for.name, game.first_seat, game.match.position.to_move)
                    asking.setdefault(key, []).append(game)
            active = playing
            for (name, lane, seat), games_asking in asking.items():
                sandbox = sandbox_for(name, lane)
                answers = sandbox.ask([game.move_request() for game in games_asking], setup.per_move_limit)
                for game, answer in zip(games_asking, answers):
                    if answer is not None:  # None: its worker was killed first; asked again next round
                        game.isolation[seat] = sandbox.isolation or "unknown"
                        game.receive(answer)
    finally:
        for sandbox in sandboxes.values():
            sandbox.close()


_SERVE_WITHOUT_CWD = ("import sys; sys.path[:] = [p for p in sys.path if p]; from amoeboid_edu.sandbox.core import "
                      "die_with_parent; die_with_parent({parent}); from amoeboid_edu.lab.scoring import _serve_tasks; _serve_tasks()")
"""A parallel harness started without the teacher's current folder on ``sys.path`` (the sandbox opens every import
path for reading, and the current folder may hold the contest's seed file: found by the red team), which dies
with the process that started it (``{parent}``), before it imports anything else."""


def _serve_tasks() -> None:
    """A parallel harness process: read (path, entries, tasks, setup) from stdin, stream pickled records out.

    Started as a fresh interpreter (``python -c``), so it works from notebooks and
    from scripts without a ``__main__`` guard, and it holds no state of the caller.
    """
    path, entries, tasks, setup = pickle.load(sys.stdin.buffer)
    sys.path[:0] = [entry for entry in path if entry not in sys.path]
    out = sys.stdout.buffer

    def finished(record: GameRecord) -> None:
        pickle.dump(record, out)
        out.flush()

    _play_tasks(entries, tasks, setup, finished)


def _play_parallel(entries: dict, games: list, setup: _Setup, workers: int, finished) -> None:
    """Split the games' pairings (never a lane, nor the two lanes of a pairing) over ``workers`` harness processes;
    ``finished(record)`` as records arrive.

    A harness process that dies (killed from outside: walls down, see docs/threat-model.md) costs
    time, not the run: its unfinished games are played again here, with the same streams.
    """
    processes = []
    chunks: dict[int, list] = {}
    done: set[tuple[str, str, int, str]] = set()
    arrived: queue.Queue = queue.Queue()

    def record(item: GameRecord) -> None:
        key = (item.first, item.second, item.pair, item.first_seat)
        if key not in done:
            done.add(key)
            finished(item)

    def read(process: subprocess.Popen) -> None:
        try:
            while True:
                arrived.put(pickle.load(process.stdout))
        except (EOFError, ValueError, OSError):  # the end; or the run stopped early and closed the pipe under us
            pass
        finally:
            arrived.put(process)

    pairings = _pairings(games)
    try:
        for k in range(workers):
            chunk = [game for pairing in pairings[k::workers] for game in pairing]
            if not chunk:
                continue
            process = subprocess.Popen(
                [sys.executable, "-c", _SERVE_WITHOUT_CWD.format(parent=os.getpid())],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )
            pickle.dump(([entry or os.getcwd() for entry in sys.path], entries, chunk, setup), process.stdin)
            process.stdin.close()
            processes.append(process)
            chunks[process.pid] = chunk
            threading.Thread(target=read, args=(process,), daemon=True).start()
        running = len(processes)
        while running:
            item = arrived.get()
            if isinstance(item, GameRecord):
                record(item)
                continue
            running -= 1
            if item.wait() != 0:
                unfinished = [game for game in chunks[item.pid] if game not in done]
                _play_tasks(entries, unfinished, setup, record)  # a bug of ours raises here, in full
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stderr.close()
            process.stdout.close()


class _SameFailure(Exception):
    """Raised from ``_run`` when the watched strategy forfeits ``SAME_FAILURE_STOP`` games in a row the same way."""

    def __init__(self, records: list[GameRecord], last: GameRecord) -> None:
        super().__init__(last.reason)
        self.records, self.last = records, last  # the games up to the last failure, in the games' order

    def explain(self) -> str:
        return (f"your strategy fails the same way every game: fix this first. {SAME_FAILURE_STOP} games in a row "
                f"were forfeited for the same kind of mistake ({self.last.reason}); the last one: {self.last.value}: "
                f"{self.last.message}")


def _own_failure(record: GameRecord, name: str) -> tuple | None:
    """The kind of ``name``'s forfeit in ``record`` (None if it did not forfeit): the reason, and for an exception
    its type, so that 48 malformed answers of different values count as one repeated mistake."""
    role = "first" if record.first == name else "second"
    if record.forfeit_by != role:
        return None
    exception = (record.value or "").partition(":")[0] if record.reason == "exception" else ""
    return record.reason, exception if exception.isidentifier() else ""


def _run(entries: dict, matches: list[tuple[str, str]], games: int, setup: _Setup, workers: int,
         progress: bool, description: str, watch: str | None = None) -> list[GameRecord]:
    """Play every game of ``matches``; stop once ``watch`` forfeits ``SAME_FAILURE_STOP`` games in a row the same way.

    "In a row" is in the games' own order (lane by lane, each lane's games by pair), never in the order records
    arrive, which with ``workers=K`` is timing: the stop, and so the card, is the same on any executor (with
    arrival order, a strategy failing in one seat stopped after 5 games serially and after 15 with two workers:
    found by the red team).  The card then holds the games up to that fifth failure, in that order.
    """
    _check_settings(games, setup)
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, not {shown(repr(workers))}")
    seated = _both_seats([(first, second, pair) for first, second in matches for pair in range(games // 2)])
    order = [game for lane in _lanes(seated) for game in lane]
    from tqdm.auto import tqdm

    bar = tqdm(total=len(seated), desc=description, unit="game", delay=1.0, disable=not progress, leave=False)
    arrived: dict[tuple[str, str, int, str], GameRecord] = {}
    judged = [0]  # games of ``order`` whose records have all arrived and were checked for the streak
    streak: list[tuple] = []  # the watched strategy's identical forfeits, most recent last

    def finished(record: GameRecord) -> None:
        arrived[(record.first, record.second, record.pair, record.first_seat)] = record
        bar.update(1)
        while watch is not None and judged[0] < len(order) and order[judged[0]] in arrived:
            current = arrived[order[judged[0]]]
            judged[0] += 1
            failure = _own_failure(current, watch)
            streak[:] = [] if failure is None or (streak and streak[-1] != failure) else streak
            if failure is not None:
                streak.append(failure)
            if len(streak) >= SAME_FAILURE_STOP:
                raise _SameFailure([arrived[game] for game in order[: judged[0]]], current)

    try:
        if workers == 1:
            _play_tasks(entries, seated, setup, finished)
        else:
            _play_parallel(entries, seated, setup, workers, finished)
    finally:
        bar.close()
    return _in_order(list(arrived.values()), matches)


def _in_order(records: list[GameRecord], matches: list[tuple[str, str]]) -> list[GameRecord]:
    order = {match: index for index, match in enumerate(matches)}
    return sorted(records, key=lambda r: (order[(r.first, r.second)], r.pair, r.first_seat))


# --------------------------------------------------------------------------- tables


def _side_rows(records: Sequence[GameRecord], name: str) -> list[dict]:
    """``name``'s games, one row each, from its side of the board."""
    rows = []
    for record in records:
        if name not in (record.first, record.second):
            continue
        role = "first" if record.first == name else "second"
        opponent = record.second if role == "first" else record.first
        seat = record.first_seat if role == "first" else other(record.first_seat)
        result = "tie" if record.winner is None else ("win" if record.winner == role else "loss")
        forfeit = None if record.forfeit_by is None else ("player" if record.forfeit_by == role else "opponent")
        rows.append(
            {
                "player": name,
                "opponent": opponent,
                "pair": record.pair,
                "seat": seat,
                "result": result,
                "turns": record.turns,
                "capped": record.capped,
                "forfeit": forfeit,
                "reason": record.reason,
                "value": record.value,
                "message": record.message,
                "output": "\n".join(record.output),
                "printed": record.printed[0 if role == "first" else 1],
            }
        )
    return rows


def _forfeit_table(frame):
    """Forfeits by reason: how many, and the first offending value, message and printed lines."""
    import pandas as pd

    mine = frame[frame["forfeit"] == "player"]
    rows = []
    groups = mine.groupby(["player", "reason"], sort=False)
    for (player, reason), group in sorted(groups, key=lambda item: (item[0][0], FORFEIT_REASONS.index(item[0][1]))):
        first = group.iloc[0]
        rows.append({"player": player, "reason": reason, "games": len(group), "value": first["value"],
                     "message": first["message"], "last output": first["output"]})
    return pd.DataFrame(rows, columns=["player", "reason", "games", "value", "message", "last output"])


def _walls_line(records: Sequence[GameRecord], limits: tuple[float, float]) -> str:
    """Which walls stood around the untrusted strategies, and the two time limits."""
    walls = "; ".join(dict.fromkeys(record.isolation for record in records if record.isolation))
    load, move = limits
    dice = f"; dice: {PAIRED_DICE}" if walls else ""
    return f"isolation: {walls or 'none needed (trusted bots only)'}{dice}; limits: load {load:g} s, move {move:g} s"


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _forfeit_lines(forfeits) -> list[str]:
    lines = ["forfeits:"] if len(forfeits) else []
    for row in forfeits.itertuples(index=False):
        lines.append(f"  {row.player}: {row.reason} x{row.games}: {row.value} ({row.message})")
        for line in str(row[5]).splitlines()[-5:]:
            lines.append(f"    | {line}")
    return lines


def _trusted(method):
    """Run ``method`` with :func:`~amoeboid_edu.sandbox.importpath.trusted_imports`: what drawing a card imports (pandas'
    and Altair's optional parts) is never looked for in the current folder, which may be the class folder."""

    @functools.wraps(method)
    def run(*args, **kwargs):
        with trusted_imports():
            return method(*args, **kwargs)

    return run


class _Standings:
    """What a score card and a tournament table share: per-side rows, the table, forfeits, chart, HTML and text."""

    records: tuple[GameRecord, ...]
    by = "player"
    title = ""

    def _players(self) -> Sequence[str]:
        raise NotImplementedError

    @_trusted
    def to_frame(self):
        """One row per game and side (a tournament's games appear twice, once from each player's side)."""
        import pandas as pd

        columns = ["player", "opponent", "pair", "seat", "result", "turns", "capped", "forfeit", "reason", "value",
                   "message", "output", "printed"]  # fmt: skip
        return pd.DataFrame([row for name in self._players() for row in _side_rows(self.records, name)],
                            columns=columns)

    def table(self):
        return standings(self.to_frame(), self.by)

    def forfeits(self):
        return _forfeit_table(self.to_frame())

    @_trusted
    def chart(self):
        """Win rate per row of the table, with its 95% Wilson interval."""
        return rate_chart(tally(self.to_frame(), self.by, ("win",)), self.by, self.title, even=True)

    def _notes(self) -> list[tuple[str, object]]:
        return [("Forfeits", self.forfeits())]

    @property
    def walls(self) -> str:
        """E.g. "isolation: process + seccomp + landlock; limits: load 30 s, move 1 s"."""
        return _walls_line(self.records, self.limits)

    def plain(self) -> list[str]:
        """The sentences a student reads first (above the table); the jargon goes under "details"."""
        return []

    @_trusted
    def _repr_html_(self) -> str:
        return html_table(self.title, self.table(), self._notes(), caption="\n".join(self.plain()), details=self.walls)

    @_trusted
    def __str__(self) -> str:
        return "\n".join([text_table("\n".join([self.title, *self.plain()]), self.table()),
                          *_forfeit_lines(self.forfeits()),
                          f"details: {self.walls}"])


@dataclass(frozen=True)
class ScoreCard(_Standings):
    """How one strategy fared against each opponent: a table in a notebook, text in a terminal.

    ``summary()`` is the table, ``forfeits()`` the forfeits by reason, ``to_frame()``
    one row per game, ``chart()`` an Altair chart.  The same seed gives the same card, except for the one measured
    line, the time per move.
    """

    player: str
    seed: int | str
    records: tuple[GameRecord, ...]
    limits: tuple[float, float] = (LOAD_LIMIT, DEFAULT_PER_MOVE_LIMIT)  # seconds: load (import), per move
    seed_label: str | None = None  # shown instead of the seed (a contest's secret seed stays secret)
    stopped: str = ""  # why scoring stopped early (the same failure every game), shown above the table
    board: int = 3
    max_turns: int = TURN_CAP
    by = "opponent"

    def _players(self) -> Sequence[str]:
        return [self.player]

    def summary(self):
        return self.table()

    def table(self):
        """Per opponent: the counts, the win rate's interval, and the ``verdict`` the paired games support."""
        table = super().table()
        verdicts = self.verdicts()
        return table.merge(verdicts[["opponent", "verdict"]], on="opponent", how="left")

    # -- what the numbers say

    def _side(self, record: GameRecord) -> int:
        """0 if the card's player is ``first`` in ``record``, else 1."""
        return 0 if record.first == self.player else 1

    def verdicts(self):
        """Per opponent, in words: "beats greedy", "loses to paper" or "too close to call", and why.

        Each dice pair's two games (same dice, seats swapped) are one comparison, so luck cancels out; the pairs
        the player won or lost go to an exact sign test (:func:`~amoeboid_edu.lab.stats.paired_verdict`).  A pair cut
        short by an early stop is left out.
        """
        import pandas as pd

        points: dict[str, dict[int, list[float]]] = {}
        for record in self.records:
            side = self._side(record)
            role = ("first", "second")[side]
            opponent = (record.second, record.first)[side]
            got = 0.5 if record.winner is None else float(record.winner == role)
            points.setdefault(opponent, {}).setdefault(record.pair, []).append(got)
        rows = []
        for opponent, pairs in points.items():
            whole = [sum(games) for games in pairs.values() if len(games) == 2]
            verdict, why = paired_verdict(whole, opponent)
            rows.append({"opponent": opponent, "verdict": verdict, "why": why})
        return pd.DataFrame(rows, columns=["opponent", "verdict", "why"])

    def plain(self) -> list[str]:
        lines = [f"Against {row.opponent}: {row.verdict} ({row.why})." if row.verdict in ("too close to call",
                 "not enough games") else f"{self.player} {row.verdict}: {row.why}."
                 for row in self.verdicts().itertuples()]
        mine = [(record, self._side(record)) for record in self.records]
        asked = sum(record.asked[side] for record, side in mine)
        if asked:
            mean = sum(record.seconds[side] for record, side in mine) / asked
            slowest = max(record.slowest[side] for record, side in mine)
            limit = self.limits[1]
            lines.append(f"Time per move: {_duration(mean)} on average, {_duration(slowest)} at most "
                         f"(the limit is {limit:g} s a move)." if slowest > limit / 2 else
                         f"Time per move: every move well within the limit of {limit:g} s (card.timing() "
                         "has the average and the slowest).")
        lines_printed = sum(record.lines[side] for record, side in mine)
        if lines_printed:
            first = next(i for i, (record, side) in enumerate(mine) if record.lines[side])
            lines.append(f"Your strategy printed {lines_printed:,} lines (hidden): card.printed({first}) shows "
                         f"the last lines it printed in game {first}.")
        return lines

    def timing(self) -> str:
        """The time per move, measured by the strategy's worker: the average and the slowest, against the limit."""
        mine = [(record, self._side(record)) for record in self.records]
        asked = sum(record.asked[side] for record, side in mine)
        if not asked:
            return "no move of this strategy was timed (a bot plays in this process)"
        mean = sum(record.seconds[side] for record, side in mine) / asked
        slowest = max(record.slowest[side] for record, side in mine)
        return (f"{_duration(mean)} on average, {_duration(slowest)} at most over {asked:,} moves (the limit is "
                f"{self.limits[1]:g} s a move)")

    # -- the games themselves

    def _record(self, i: int) -> GameRecord:
        if not isinstance(i, int) or isinstance(i, bool) or not -len(self.records) <= i < len(self.records):
            raise IndexError(f"game {i!r}: this card has games 0 to {len(self.records) - 1} (see card.games())")
        return self.records[i]

    def games(self):
        """One row per game, numbered as ``card.game(i)`` takes them: the opponent, your seat, the result."""
        import pandas as pd

        rows = []
        for i, record in enumerate(self.records):
            side = self._side(record)
            role = ("first", "second")[side]
            result = "tie" if record.winner is None else ("win" if record.winner == role else "loss")
            forfeit = None if record.forfeit_by is None else ("you" if record.forfeit_by == role else "opponent")
            rows.append({"game": i, "opponent": (record.second, record.first)[side],
                         "seat": record.first_seat if side == 0 else other(record.first_seat), "result": result,
                         "turns": record.turns, "capped": record.capped, "forfeit": forfeit, "reason": record.reason,
                         "printed_lines": record.lines[side]})  # fmt: skip
        return pd.DataFrame(rows, columns=["game", "opponent", "seat", "result", "turns", "capped", "forfeit",
                                           "reason", "printed_lines"])  # fmt: skip

    def game(self, i: int):
        """Game ``i`` as a :class:`~amoeboid_edu.engine.game.Game`: ``Replay(card.game(i))``, ``coach.review(card.game(i))``.

        Its turns are the ones played on the card (a forfeited game stops before the refused turn).
        """
        from ..engine.game import Game

        game = Game(Position.start(self.board), seed=f"{self.seed} card game {i}")
        for turn in self._record(i).played():
            game.play(turn)
        return game

    def worst_losses(self, n: int = 5):
        """Your ``n`` quickest defeats on the board (forfeits are in ``forfeits()``): the games to look at first."""
        games = self.games()
        lost = games[(games["result"] == "loss") & games["forfeit"].isna()]
        return lost.sort_values(["turns", "game"], kind="stable").head(n).reset_index(drop=True)

    def printed(self, i: int) -> str:
        """The last lines your strategy printed in game ``i`` (the lab hides them while it plays)."""
        record = self._record(i)
        return "\n".join(record.outputs[self._side(record)])

    def replay(self, i: int, strategy: Strategy, opponent: Strategy | None = None):
        """Play game ``i`` again in this process with ``strategy`` (and ``opponent``, needed when it is not a bot):
        the same dice, seats and random streams, so the same strategy plays the same turns (a :class:`Game`).

        The code runs here, unprotected: replay your own strategy, not a classmate's.  A strategy that uses the
        module ``random`` instead of its ``rng`` may play differently.
        """
        from ..engine.game import Game
        from ..engine.match import play_match

        record = self._record(i)
        side = self._side(record)
        other_name = (record.second, record.first)[side]
        if opponent is None:
            if other_name not in BOTS:
                raise ValueError(f"game {i} was against {shown(other_name)}, not a bot: pass it as opponent=")
            opponent = BOTS[other_name]
        players = (strategy, opponent) if side == 0 else (opponent, strategy)
        match = play_match(*players, seed=self.seed, pair=record.pair, first_seat=record.first_seat,
                           board=self.board, max_turns=self.max_turns, table=record.table)
        game = Game(Position.start(self.board), seed=f"{self.seed} card game {i}")
        for turn in match.turns:
            game.play(turn)
        return game

    @property
    def title(self) -> str:
        return f"{self.player}: {len(self.records)} games, seed {self.seed_label or self.seed}"

    @_trusted
    def _repr_html_(self) -> str:
        """The warning (if scoring stopped early), the table, the forfeits and the chart, always in step."""
        from html import escape

        from ..ui.charts import chart_html

        warning = f'<p style="font-weight: bold">⚠ {escape(self.stopped)}</p>' if self.stopped else ""
        return warning + super()._repr_html_() + chart_html(self.chart())

    def __str__(self) -> str:
        warning = f"⚠ {self.stopped}\n" if self.stopped else ""
        return warning + super().__str__()

    def __repr__(self) -> str:
        return f"<ScoreCard {self.title}>"


@dataclass(frozen=True)
class TournamentResult(_Standings):
    """A round robin: ``table()`` ranks the strategies by Bradley–Terry rating, with intervals.

    ``chart()`` draws the win rates, ``rating_chart()`` the ratings and
    ``pairwise_chart()`` every strategy's score against every other.
    ``not_loaded`` lists the entrants that could not be loaded, with the error.
    """

    names: tuple[str, ...]
    seed: int | str
    records: tuple[GameRecord, ...]
    not_loaded: tuple[tuple[str, str], ...] = ()
    seed_label: str | None = None  # shown instead of the seed (a contest seed stays secret)
    limits: tuple[float, float] = (LOAD_LIMIT, DEFAULT_PER_MOVE_LIMIT)  # seconds: load (import), per move

    def _players(self) -> Sequence[str]:
        return self.names

    @functools.cached_property
    def ratings(self):
        """Bradley–Terry ratings (Elo scale) with 95% bootstrap intervals, refits seeded by the tournament's seed."""
        import pandas as pd

        points = {"first": 1.0, "second": 0.0, None: 0.5}
        games = pd.DataFrame({"first": [r.first for r in self.records], "second": [r.second for r in self.records],
                              "score": [points[r.winner] for r in self.records]})  # fmt: skip
        return ratings(games, self.names, seed=self.seed)

    def table(self):
        table = standings(self.to_frame(), "player").merge(self.ratings, on="player")
        table = table.sort_values(["rating", "player"], ascending=[False, True], kind="stable")
        table.insert(0, "rank", range(1, len(table) + 1))
        ranges = rank_ranges(list(table["rating_low"]), list(table["rating_high"]))
        table.insert(1, "could_be", [str(best) if best == worst else f"{best}-{worst}" for best, worst in ranges])
        columns = ["rank", "could_be", "player", "games", "wins", "ties", "losses", "win_rate", "ci_low", "ci_high",
                   "rating", "rating_low", "rating_high", "forfeits"]  # fmt: skip
        return table[columns].reset_index(drop=True)

    def plain(self) -> list[str]:
        """No strategy loaded: a sentence instead of an empty table; otherwise what the ranks can and cannot say."""
        if len(self.names) < 2:
            loaded = f"only {self.names[0]} loaded" if self.names else "no strategy loaded"
            return [f"No tournament: {loaded}. Each file that did not load is listed below with its error: fix those "
                    "(or run `amoeboid score FILE.py:FUNCTION` on one to see the problem) and run the tournament "
                    "again."]
        ranges = [value for value in self.table()["could_be"] if "-" in value]
        if not ranges:
            return ["Every rank is clear: no two rating intervals overlap."]
        return [f"Ties: a rank under 'could_be' such as {ranges[0]} means that player's rating interval overlaps "
                "others', so with other dice they could have finished anywhere in that range: their order may be "
                "luck. Play more games to separate them."]

    @_trusted
    def rating_chart(self):
        return rating_chart(self.table()[["player", "rating", "rating_low", "rating_high"]],
                            title=f"{self.title}: Bradley–Terry rating (95% bootstrap interval)")

    @_trusted
    def pairwise_chart(self):
        return pairwise_chart(pairwise_scores(self.to_frame()), title=f"{self.title}: mean score, row against column")

    def not_loaded_table(self):
        import pandas as pd

        return pd.DataFrame([{"player": name, "did not load": error} for name, error in self.not_loaded],
                            columns=["player", "did not load"])

    def _notes(self) -> list[tuple[str, object]]:
        return [("Did not load", self.not_loaded_table()), ("Forfeits", self.forfeits())]

    @property
    def title(self) -> str:
        seed = self.seed if self.seed_label is None else self.seed_label
        return f"round robin of {len(self.names)}: {len(self.records)} games, seed {seed}"

    def __str__(self) -> str:
        lines = [f"{name}: did not load: {error}" for name, error in self.not_loaded]
        if len(self.names) < 2:
            return "\n".join([*self.plain(), *lines])
        return "\n".join([super().__str__(), *lines])

    def _repr_html_(self) -> str:
        if len(self.names) < 2:
            return html_table(self.title, self.not_loaded_table(), caption="\n".join(self.plain()))
        return super()._repr_html_()

    def __repr__(self) -> str:
        return f"<TournamentResult {self.title}>"


# --------------------------------------------------------------------------- a contest's secret seed

SEED_FILE_LENGTH = 16
SEED_FILE_DISTINCT = 8
"""A seed file needs at least ``SEED_FILE_LENGTH`` characters, ``SEED_FILE_DISTINCT`` of them different: a short
or repetitive seed (``0000000000000000``) is found by trying seeds until a strategy's own ``rng`` values match."""


def read_seed_file(path: str | os.PathLike, strategy_files: Sequence[str | None] = ()) -> str:
    """A contest's secret seed from ``path``, read by this process only (``seed_file=``, ``--seed-file``).

    Warns (:data:`UNWALLED_CONTEST`) on a platform without the walls, where any strategy could read it.
    ValueError where a strategy could read the file too (in a folder the workers may read: this process's import
    path, which in a notebook includes the notebook's folder, and ``strategy_files``' folders; symbolic links
    resolved), and for a weak seed (fewer than ``SEED_FILE_LENGTH`` characters or ``SEED_FILE_DISTINCT``
    different ones).  ``~`` is the user's home.
    """
    from ..sandbox.core import readable_roots

    name = os.path.expanduser(os.fspath(path))
    try:
        with open(name, "rb") as file:
            data = file.read(1 << 16)
    except OSError as error:
        raise ValueError(f"cannot read {shown(name)}: {error.strerror or error}") from None
    try:
        seed = "\n".join(data.decode("utf-8").splitlines()).strip()
    except UnicodeDecodeError as error:
        raise ValueError(f"{shown(name)} is not UTF-8 text (bad byte at offset {error.start})") from None
    if "\0" in seed or len(data) == 1 << 16:
        raise ValueError(f"{shown(name)} is not a seed file (a line of text)")
    if len(seed) < SEED_FILE_LENGTH or len(set(seed)) < SEED_FILE_DISTINCT:
        raise ValueError(f"{shown(name)}: a contest seed needs at least {SEED_FILE_LENGTH} characters, "
                         f"{SEED_FILE_DISTINCT} of them different (e.g. python -c \"import secrets; "
                         f"print(secrets.token_hex(16))\" > {shown(name)})")
    where = os.path.realpath(name)
    paths = [os.path.abspath(entry) for entry in caller_path()]  # the caller's folders count, though never a worker's
    for root in {root for file in [*strategy_files, None] for root in readable_roots(paths, file)}:
        if where == root or where.startswith(root.rstrip(os.sep) + os.sep):
            raise ValueError(f"{shown(name)} lies in {shown(root)}, which strategies may read; keep the seed file "
                             "elsewhere (e.g. in your home folder)")
    from ..sandbox import core as _sandbox

    if not _sandbox.WALLS_PLATFORM:
        warnings.warn(UNWALLED_CONTEST, stacklevel=3)
    return seed


UNWALLED_CONTEST = ("this platform has no walls around a strategy (process only): a strategy can read the seed file "
                    "and kill the scorer; run a contest on Linux, or in the container of docs/contest-container.md")
"""Warned by :func:`read_seed_file` where the lab has no seccomp or Landlock (Windows, macOS)."""


def _seed_from_file(seed, seed_file, strategy_files: Sequence[str | None], label: str, seed_label: str | None):
    """``(seed, seed_label)`` for a run given ``seed_file``: the file's seed, and a label that hides it."""
    if seed_file is None:
        return seed, seed_label
    if seed not in (0, "0", None):
        raise ValueError("give the dice seed with seed= or seed_file= (one of them)")
    return read_seed_file(seed_file, strategy_files), seed_label or label


# --------------------------------------------------------------------------- the API


def score(
    strategy: Strategy | str,
    games: int = DEFAULT_GAMES,
    seed: int | str = 0,
    *,
    opponents: Sequence[Strategy | str] | None = None,
    per_move_limit: float = DEFAULT_PER_MOVE_LIMIT,
    load_limit: float = LOAD_LIMIT,
    workers: int | None = None,
    board: int = 3,
    max_turns: int = TURN_CAP,
    progress: bool = True,
    name: str | None = None,
    seed_label: str | None = None,
    seed_file: str | os.PathLike | None = None,
) -> ScoreCard:
    """Play ``strategy`` against the fast baseline bots and score it: :data:`DEFAULT_GAMES` games against each of
    :data:`FAST_OPPONENTS` unless told (the same defaults as ``amoeboid score``).

    ``opponents``: names from ``BOTS``, or strategies given as ``strategy`` is (a function: say your previous
    version, played on the same dice; see also :func:`compare`).  ``games`` per opponent, an even number:
    ``games / 2`` dice seeds, each played twice with the seats swapped.  ``strategy`` is a function
    ``(position, roll, rng)``, an object with ``choose``, a name from ``BOTS``, or
    ``"module:function"`` / ``"path/to/file.py:function"``.  Untrusted strategies
    run in a worker process; a move slower than ``per_move_limit`` seconds, an
    exception, an illegal or malformed turn forfeits that game; a worker that
    takes longer than ``load_limit`` seconds to import the strategy forfeits every
    game (reason "load").  ``seed_label`` is shown on the card instead of the
    seed.  ``seed_file``: a contest's secret seed, read from that file by this
    process (the same checks as ``amoeboid score --seed-file``: refused in a folder
    a strategy may read, which in a notebook includes the notebook's own folder,
    or when short or repetitive; see :func:`read_seed_file`); the card then
    says "seed from FILE (secret)".  ``workers=K``
    plays in K processes with exactly the same results; by default as many as the machine has cores
    (:func:`default_workers`).  Add ``"expectimax"`` for the
    two-turn search (about 15 ms a turn: many times slower; the progress bar's estimate of the time left is
    measured on the games played so far and corrected as they go).
    A game still going after ``max_turns`` counts as a tie (``capped``).  If the
    strategy forfeits :data:`SAME_FAILURE_STOP` games in a row the same way,
    scoring stops there and the card says what to fix first.
    """
    with trusted_imports(_target_folders([strategy, *(opponents or ())])):  # no hand-in is ever imported here
        opponents = list(FAST_OPPONENTS) if opponents is None else list(opponents)
        unknown = [o for o in opponents if isinstance(o, str) and o not in BOTS and ":" not in o]
        if unknown or not opponents:
            raise ValueError(f"opponents are bot names from {sorted(BOTS)} or strategies (functions, or "
                             f"FILE.py:FUNCTION), not {shown(unknown or opponents)}")
        subject = entry(strategy, name)
        rivals: dict[str, Entry] = {}
        for opponent in opponents:
            item = entry(opponent)
            label, number = item.name, 2
            while label in rivals:
                label, number = f"{item.name} {number}", number + 1
            rivals[label] = replace(item, name=label)
        if subject.name in rivals:
            subject = Entry(f"{subject.name} (player)", subject.bot, subject.load, subject.payload)
        entries = {subject.name: subject, **rivals}
        opponents = list(rivals)
        seed, seed_label = _seed_from_file(seed, seed_file, [subject.load.get("file")],
                                           f"from {os.fspath(seed_file or '')} (secret)", seed_label)
        setup = _Setup(seed, float(per_move_limit), max_turns, board, float(load_limit))
        matches = [(subject.name, o) for o in opponents]
        try:
            workers = default_workers(2 * len(matches)) if workers is None else workers
            records, stopped = _run(entries, matches, games, setup, workers, progress, f"scoring {subject.name}",
                                    watch=subject.name), ""
        except _SameFailure as failure:
            records, stopped = _in_order(failure.records, matches), failure.explain()
        return ScoreCard(subject.name, seed, tuple(records), (setup.load_limit, setup.per_move_limit), seed_label,
                         stopped, board, max_turns)


def default_workers(lanes: int) -> int:
    """Processes that play a score card when none are asked for: one per core this process may use, at most one per
    lane (an opponent and a seat: the unit a process plays whole), so no process starts for nothing."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, lanes))


def compare(new: Strategy | str, old: Strategy | str, games: int = DEFAULT_GAMES, seed: int | str = 0,
            **options) -> ScoreCard:
    """Did a change help?  ``new`` plays ``old`` head to head on paired dice; the card's verdict says "beats old",
    "loses to old" or "too close to call".

    Both run in workers, as for :func:`score` (which takes the same ``options``); two versions that play alike
    on most positions split most dice pairs evenly, and only the pairs they play differently count.
    """
    return score(new, games, seed, opponents=[old], **options)


# --------------------------------------------------------------------------- handing in a notebook's strategy

_GLOBAL_LOADS = frozenset({"LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "DELETE_GLOBAL"})


def _global_names(code: types.CodeType) -> list[str]:
    """The global names ``code`` (and the functions and classes nested in it) reads, in order of first use."""
    import dis

    names: dict[str, None] = {}
    for instruction in dis.get_instructions(code):
        if instruction.opname in _GLOBAL_LOADS and isinstance(instruction.argval, str):
            names[instruction.argval] = None
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names.update(dict.fromkeys(_global_names(constant)))
    return list(names)


class _HandIn:
    """The text of a hand-in: the imports, plain values and definitions a strategy of a notebook uses."""

    def __init__(self, namespace: dict) -> None:
        self.namespace, self.module = namespace, namespace.get("__name__")
        self.imports: dict[str, None] = {}
        self.values: dict[str, str] = {}
        self.definitions: dict[str, str] = {}  # dependencies first
        self.seen: set[str] = set()

    def uses(self, owner: str, code: types.CodeType) -> None:
        for name in _global_names(code):
            if name not in self.seen and name in self.namespace:
                self.seen.add(name)
                self.add(owner, name, self.namespace[name])

    def add(self, owner: str, name: str, value: object) -> None:
        import ast

        if isinstance(value, types.ModuleType):
            module = value.__name__
            self.imports[f"import {module}" if module == name else f"import {module} as {name}"] = None
            return
        if isinstance(value, (types.FunctionType, type)) and getattr(value, "__module__", None) == self.module:
            self.define(name, value)
            return
        where = getattr(value, "__module__", None)
        qualname = getattr(value, "__qualname__", None)
        if (isinstance(where, str) and isinstance(qualname, str) and "." not in qualname
                and getattr(sys.modules.get(where), qualname, None) is value):
            self.imports[f"from {where} import {qualname}" + (f" as {name}" if name != qualname else "")] = None
            return
        try:
            text = repr(value)
            if ast.literal_eval(text) == value:
                self.values[name] = f"{name} = {text}"
                return
        except Exception:  # noqa: BLE001 - not a plain value: said below
            pass
        raise ValueError(f"{owner} uses {shown(name)}, a {type(value).__name__} made in the notebook, which cannot be "
                         f"written into a file: define it inside {owner}, or in a function {owner} calls")

    def define(self, name: str, value) -> None:
        import inspect
        import textwrap

        try:
            source = textwrap.dedent(inspect.getsource(value))
        except (OSError, TypeError):
            raise ValueError(f"cannot find the source of {shown(name)}: run its cell again, then hand in") from None
        first = source.lstrip().split("(")[0].split(":")[0].split()
        defines = first[-1] if first and first[0] in ("def", "class") else None
        if defines != name:  # a lambda, or a function kept under another name: the file needs the name
            source = f"{source.rstrip()}\n\n{name} = {defines}\n" if defines else None
        if source is None:
            raise ValueError(f"{shown(name)} is not defined with def or class: write it as 'def {shown(name)}(...)'")
        functions = [value] if isinstance(value, types.FunctionType) else [
            item for item in vars(value).values() if isinstance(item, (types.FunctionType, staticmethod, classmethod))]
        for base in getattr(value, "__bases__", ()):
            if base.__name__ in self.namespace and base.__name__ not in self.seen:
                self.seen.add(base.__name__)
                self.add(name, base.__name__, base)
        for function in functions:
            function = getattr(function, "__func__", function)
            self.uses(name, function.__code__)
        self.definitions[name] = source

    def text(self, student: str, function: str) -> str:
        parts = [f"# {student}'s strategy for the class tournament: {function} and everything it uses, as the "
                 "notebook defined them\n# (written by amoeboid_edu.lab.hand_in; the line numbers in the "
                 "tournament's messages are this file's)",
                 "\n".join(self.imports), "\n".join(self.values.values()),
                 *(definition.rstrip() for definition in self.definitions.values())]
        if function != "strategy":
            parts.append(f"strategy = {function}")
        return "\n\n\n".join(part for part in parts if part) + "\n"


def hand_in(strategy, to: str | os.PathLike) -> Path:
    """Write ``strategy`` (a function of this notebook) into the file a class tournament loads: ``to`` names it
    (``"class/nina"`` or ``"class/nina.py"`` -> ``class/nina.py``, entered as *nina*); returns its path.

    The file holds the function and everything it uses from the notebook, whatever the cells: the functions and
    classes it calls (and what they use), the modules and names it imports, and plain values (numbers, text,
    lists...), with ``strategy = <its name>`` at the end.  Nothing is run: the tournament runs the file in its
    sandbox.  ValueError, naming what to change, for what cannot be written into a file (e.g. a Position made in
    the notebook: build it inside the function).  Handing in again replaces the file.
    """
    if not isinstance(strategy, types.FunctionType):
        raise ValueError(f"hand in a function (position, roll, rng) -> turn, not {shown(type(strategy).__name__)}")
    as_function(strategy)
    path = Path(os.fspath(to))
    path = path if path.suffix == ".py" else path.with_name(path.name + ".py")
    if path.stem.startswith(("_", ".")) or not path.stem or path.is_dir():
        raise ValueError(f"hand_in(..., {shown(repr(os.fspath(to)))}): name the file after yourself, e.g. "
                         "hand_in(my_strategy, \"class/nina\") (a name that does not start with '_' or '.')")
    writer = _HandIn(strategy.__globals__)
    writer.seen.add(strategy.__name__)
    writer.define(strategy.__name__, strategy)
    text = writer.text(path.stem, strategy.__name__)
    compile(text, str(path), "exec")  # a file that would not even parse is our bug: raise here, not in the contest
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the class tournament

BATCH_PAIRS = 50
"""Dice seeds per unit of work: a batch is one pairing x a block of 50 seeds = 100 games (README, "Chunking")."""

RESULT_FIELDS = ("first", "second", "pair", "first_seat", "result", "turns", "capped", "forfeit_by", "reason",
                 "value", "message", "isolation")  # fmt: skip
RESULT_KEY = ("first", "second", "pair", "first_seat")


@dataclass(frozen=True)
class Batch:
    """A unit of work for an executor: the games ``tasks`` between the strategies of ``entries``."""

    entries: dict
    tasks: tuple
    setup: _Setup


def _batch_order(tasks: Sequence[tuple[str, str, int]]) -> list[tuple[str, str, int, str]]:
    """A batch's games in the order they are judged: by pair, the seat-A game of each pair first (the order in
    which :func:`_play_pairing` plays them)."""
    return sorted(_both_seats(tasks), key=lambda game: (game[2], game[3]))


NOT_PLAYED = "not played: "
"""How the message of a game that was not played begins (an early stop in its pairing, or an entrant over budget)."""
COSTLY_TIMEOUT = "was stopped"
"""In a timeout's message: the move would not stop, so its game process was killed (the next one imports again)."""


def _costly(record: GameRecord, role: str) -> bool:
    """Whether ``role`` lost this game with its import or its game process: what a contest pays most for (a new
    game process imports the strategy again, up to the load limit)."""
    return (record.forfeit_by == role and not (record.message or "").startswith(NOT_PLAYED)
            and (record.reason in ("crash", "load")
                 or (record.reason == "timeout" and COSTLY_TIMEOUT in (record.message or ""))))


class _Judge:
    """Rules on a contest's games in their fixed order, so that every executor gives the same rows.

    - The early stop of :func:`score`, per pairing: once an entrant has forfeited ``SAME_FAILURE_STOP`` games of
      a pairing in a row the same way, its remaining games of that pairing are forfeits, not played.
    - ``budget`` (a tournament's, per entrant): once an entrant has lost that many games with its import or its
      game process (:func:`_costly`), its remaining games of the whole contest are forfeits, not played.

    A hostile entrant that imports slowly and crashes on its first move cost two imports a game (found by the
    red team: about 100 minutes a pairing); the threat model gives the bound these rules keep.
    """

    def __init__(self, entries: dict, budget: int | None = None) -> None:
        self.entries, self.budget = entries, budget
        self.streaks: dict[tuple[str, str, str], list[tuple]] = {}  # (first, second, name) -> identical failures
        self.stopped: dict[tuple[str, str, str], tuple[str, str, str]] = {}  # -> reason, value, message
        self.costs: dict[str, int] = collections.Counter()
        self.over: dict[str, tuple[str, str, str]] = {}

    def blocked(self, first: str, second: str) -> bool:
        """Whether no game of this pairing is to be played any more."""
        return any((first, second, name) in self.stopped or name in self.over for name in (first, second))

    def judge(self, game: tuple[str, str, int, str], record: GameRecord | None) -> GameRecord:
        """The record kept for ``game``: ``record`` as played, or a forfeit if an earlier game stopped its entrant.

        ``record`` may be None only for a game that is not to be played.
        """
        first, second, pair, first_seat = game
        for role, name in (("first", first), ("second", second)):
            why = self.stopped.get((first, second, name)) or self.over.get(name)
            if why is not None:
                reason, value, message = why
                return GameRecord(first, second, pair, first_seat, "second" if role == "first" else "first", 0,
                                  forfeit_by=role, reason=reason, value=value, message=message)
        if record is None:
            raise AssertionError(f"game {game} was neither played nor stopped")
        for role, name in (("first", first), ("second", second)):
            if self.entries[name].trusted:
                continue
            failure = _own_failure(record, name)
            streak = self.streaks.setdefault((first, second, name), [])
            streak[:] = [] if failure is None or (streak and streak[-1] != failure) else streak
            if failure is not None:
                streak.append(failure)
            if len(streak) >= SAME_FAILURE_STOP:
                self.stopped[(first, second, name)] = (
                    str(record.reason), record.value or "",
                    f"{NOT_PLAYED}{name} forfeited {SAME_FAILURE_STOP} games of this pairing in a row the same way")
            if self.budget is not None and _costly(record, role):
                self.costs[name] += 1
                if self.costs[name] >= self.budget:
                    self.over[name] = (str(record.reason), record.value or "",
                                       f"{NOT_PLAYED}{name} lost {self.budget} games with its import or its game "
                                       "process (the budget of an entrant)")
        return record


def play_batch(batch: Batch, finished=None) -> list[GameRecord]:
    """Play a batch on this host, each untrusted strategy in its own sandbox; the records, in the games' order.

    The one function every executor runs (on a Dask worker too), so the sandbox's
    guarantees hold wherever the games are played.  ``finished(record)`` is called for each game, in the games'
    order (:func:`_batch_order`), as soon as it and every game before it have ended.  The early stop of
    :class:`_Judge` applies within the batch: once an entrant forfeited ``SAME_FAILURE_STOP`` games in a row the
    same way, the batch's remaining games are not played.
    """
    order = _batch_order(batch.tasks)
    judge = _Judge(batch.entries)
    arrived: dict[tuple[str, str, int, str], GameRecord] = {}
    records: list[GameRecord] = []

    def done(record: GameRecord) -> None:
        arrived[(record.first, record.second, record.pair, record.first_seat)] = record
        while len(records) < len(order) and order[len(records)] in arrived:
            game = order[len(records)]
            records.append(judge.judge(game, arrived[game]))
            if finished is not None:
                finished(records[-1])
            if judge.blocked(*game[:2]):
                raise _SameFailure(records, records[-1])

    try:
        _play_tasks(batch.entries, order, batch.setup, done)
    except _SameFailure:
        for game in order[len(records):]:
            records.append(judge.judge(game, None))
            if finished is not None:
                finished(records[-1])
    return records


def _one_line(text: str | None) -> str:
    """A student's words as one CSV cell: one line, and never a formula to a spreadsheet (found by the red team)."""
    return "" if text is None else not_a_formula(" ".join(str(text).split()))


def _row(record: GameRecord) -> dict:
    """A game as a row of the results file: who, which seat and dice, the result, the forfeit if any."""
    return {"first": record.first, "second": record.second, "pair": record.pair, "first_seat": record.first_seat,
            "result": record.winner or "tie", "turns": record.turns, "capped": int(record.capped),
            "forfeit_by": record.forfeit_by, "reason": record.reason, "value": _one_line(record.value),
            "message": _one_line(record.message), "isolation": record.isolation}  # fmt: skip


def _from_row(row: dict) -> GameRecord:
    """The game back from its row; the walls are kept per game, so a card rebuilt from the file says what stood
    (without them every tournament card said "none needed": found by the red team)."""
    return GameRecord(first=row["first"], second=row["second"], pair=int(row["pair"]), first_seat=row["first_seat"],
                      winner=None if row["result"] == "tie" else row["result"], turns=int(row["turns"]),
                      capped=row["capped"] == "1", forfeit_by=row["forfeit_by"] or None, reason=row["reason"] or None,
                      value=row["value"] or None, message=row["message"] or None,
                      isolation=row.get("isolation") or "")  # fmt: skip


def _entrants(strategies, opponents: Sequence[str]) -> tuple[dict[str, Entry], list[tuple[str, str]]]:
    """The entries by unique name (a folder's students, or the given strategies), the bots, and the unreadable files."""
    from .roster import read_folder

    unknown = [o for o in opponents if o not in BOTS]
    if unknown:
        raise ValueError(f"opponents are names from {sorted(BOTS)}, not {unknown}")
    unread: list[tuple[str, str]] = []
    if isinstance(strategies, (str, os.PathLike)) and os.path.isdir(strategies):
        sources, unread = read_folder(strategies)
        items = [_source_entry(source) for source in sources]
    elif isinstance(strategies, (str, os.PathLike)):
        raise ValueError(f"{shown(os.fspath(strategies))} is not a folder: give a folder of strategy files or a list "
                         "of strategies")
    else:
        given = strategies.items() if isinstance(strategies, dict) else [(None, strategy) for strategy in strategies]
        items = []
        for name, strategy in given:
            item = entry(strategy, name)
            if item.load.get("load") == "file":  # read here as text, like a class folder's file: see _file_entry
                item, reason = _file_entry(item)
                if reason:
                    unread.append((item.name, reason))
                    continue
                items.append(item)
            else:
                items.append(replace(item, code=_code_digest(strategy, item)))
    entries: dict[str, Entry] = {}
    for item in [*items, *(Entry(o, bot=o, code=f"bot {o}") for o in opponents)]:
        name, number = item.name, 2
        while name in entries or (not item.trusted and name in opponents):
            name, number = f"{item.name} {number}", number + 1
        entries[name] = replace(item, name=name)
    return entries, unread


def _source_entry(source) -> Entry:
    """A hand-in read as text (:class:`~amoeboid_edu.lab.roster.StudentSource`), for a worker that runs it; a student
    folder's worker may read that folder (its helper modules), no other worker reads any folder of the class."""
    load = {"load": "pickle", **({"file": source.filename} if source.folder else {})}
    return Entry(source.name, load=load, payload=pickle.dumps(source), code=_digest(source.source))


def _file_entry(item: Entry) -> tuple[Entry, str]:
    """A tournament's ``path.py:function`` entrant as a :func:`_source_entry`: its worker reads no folder, so the
    classmates' files beside it stay private (``NAME/strategy.py`` is a student folder, readable to its worker).
    The reason it cannot be read, if so."""
    from .roster import STUDENT_FOLDER_FILE, StudentSource

    path = Path(item.load["file"])
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        return item, f"not UTF-8 text (bad byte at offset {error.start})"
    except OSError as error:
        return item, shown(f"not read ({error.strerror or error})")
    source = StudentSource(item.name, str(path.resolve()), text, item.load["name"], path.name == STUDENT_FOLDER_FILE)
    return _source_entry(source), ""


def _digest(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()[:16]


def _module_file(module: str, root: str | None = None) -> str | None:
    """The file of ``module`` in ``root`` (else on this process's import path), found without importing anything (so
    without running the student's package ``__init__``); None if there is none."""
    from importlib.machinery import PathFinder

    parts, where, spec = module.split("."), None if root is None else [root], None
    for depth in range(1, len(parts) + 1):
        try:
            spec = PathFinder.find_spec(".".join(parts[:depth]), where)
        except (ImportError, ValueError, OSError):
            return None
        if spec is None:
            return None
        where = spec.submodule_search_locations
        if depth < len(parts) and where is None:
            return None
    return spec.origin if spec is not None and spec.has_location else None


def _anonymous(code: types.CodeType) -> types.CodeType:
    """``code`` and the code nested in it with the file name left out."""
    consts = tuple(_anonymous(const) if isinstance(const, types.CodeType) else const for const in code.co_consts)
    return code.replace(co_filename="", co_consts=consts)


def _neutral_pickle(strategy: object) -> bytes:
    """cloudpickle's bytes for ``strategy`` without the file name of each code object, which changes from one session
    to the next for the same code (a notebook cell's names the kernel's process; cloudpickle 3.1.3 writes
    ``<dynamic-code>`` instead).  Only public interfaces: ``cloudpickle.Pickler``, a pickler's ``dispatch_table``
    and ``marshal``.  A class defined in a notebook still carries cloudpickle's per-session id, so a tournament
    of such a strategy resumes only in the session that started it (the refusal says so)."""
    import copyreg
    import marshal

    import cloudpickle

    def reduce_code(code: types.CodeType):
        return marshal.loads, (marshal.dumps(_anonymous(code)),)

    class Neutral(cloudpickle.Pickler):
        dispatch_table = collections.ChainMap({types.CodeType: reduce_code},
                                              getattr(cloudpickle.Pickler, "dispatch_table", copyreg.dispatch_table))

    buffer = io.BytesIO()
    Neutral(buffer, protocol=pickle.DEFAULT_PROTOCOL).dump(strategy)
    return buffer.getvalue()


def _code_digest(strategy: object, item: Entry) -> str:
    """A digest of the code an entrant plays with, for a tournament's fingerprint: a bot's name (the package version is
    in the fingerprint too), a file's text, the text of an imported module's file, or for a strategy of this process
    its by-value pickle with the session's file names left out, plus its module's file when it is pickled by name.
    Changing a student's code then refuses a resume instead of mixing games of the old code with the new."""
    if item.trusted:
        return f"bot {item.bot}"
    kind = item.load.get("load")
    if kind in ("file", "import"):
        target = item.load["file"] if kind == "file" else _module_file(item.load["module"], item.load.get("root"))
        try:
            return _digest(Path(target).read_bytes()) if target else _digest(f"import {item.load['module']}")
        except OSError:
            return _digest(f"unreadable {target}")
    try:
        data = _neutral_pickle(strategy)
    except Exception:  # noqa: BLE001 - not picklable this way: the payload's bytes (a new session refuses a resume)
        data = item.payload
    name = getattr(strategy, "__module__", None)
    module = sys.modules.get(name) if isinstance(name, str) and name != "__main__" else None
    file = getattr(module, "__file__", None)
    if isinstance(file, str):
        try:
            data += Path(file).read_bytes()
        except OSError:
            pass
    return _digest(data)


def _target_folders(strategies) -> list[str]:
    """The folders that hold hand-ins: a class folder, and each strategy file's (kept off this process's import
    path)."""
    if isinstance(strategies, (str, os.PathLike)):
        return [os.fspath(strategies)] if os.path.isdir(strategies) else []
    targets = strategies.values() if isinstance(strategies, dict) else strategies
    files = [target.rpartition(":")[0] for target in targets if isinstance(target, str)]
    return [os.path.dirname(os.path.abspath(file)) for file in files if file.endswith(".py")]


def _check_settings(games: int, setup: _Setup) -> None:
    if not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be a positive even number (each dice seed is played twice), not {games!r}")
    for what, limit in (("per-move", setup.per_move_limit), ("load", setup.load_limit)):
        if not limit > 0:
            raise ValueError(f"the {what} limit must be a positive number of seconds, not {limit!r}")
    Position.start(setup.board)  # a bad board size fails here, before any game


def tournament(
    strategies,
    games: int = 100,
    seed: int | str = 0,
    *,
    out: str | os.PathLike | None = None,
    executor: str = "serial",
    opponents: Sequence[str] = (),
    per_move_limit: float = DEFAULT_PER_MOVE_LIMIT,
    load_limit: float = LOAD_LIMIT,
    board: int = 3,
    max_turns: int = TURN_CAP,
    progress: bool = True,
    seed_label: str | None = None,
    batch_pairs: int = BATCH_PAIRS,
    seed_file: str | os.PathLike | None = None,
    tls=None,
) -> TournamentResult:
    """A round robin: every pair of entrants plays ``games`` games (paired dice, seats swapped).

    ``strategies``: a folder with one file per student (``NAME.py`` defining
    ``strategy``, or ``NAME.ipynb`` with the cell tagged ``strategy``), or a list of
    strategies given as for :func:`score` (repeated names get a number).
    ``opponents``: baseline bots to add.  ``out``: a CSV file that receives every
    game as it ends; run again with the same ``out`` after a crash and only the
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
    with trusted_imports(_target_folders(strategies)):  # no hand-in is ever imported here
        from .executors import TLSFiles, map_unordered, parse_executor
        from .ledger import Ledger, fingerprint

        page = None if out is None else leaderboard_path(out)  # refused before anything is written
        setup = _Setup(seed, float(per_move_limit), max_turns, board, float(load_limit), bot_tables_by_entrant=True)
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
        entries, unread = _entrants(strategies, list(opponents))
        if seed_file is not None:
            folder = isinstance(strategies, (str, os.PathLike))  # every student's file lies in it (found by the red team)
            files = ([os.path.join(os.path.abspath(strategies), "any-student.py")] if folder
                     else [e.load.get("file") for e in entries.values()])
            seed, seed_label = _seed_from_file(seed, seed_file, files, f"from {Path(seed_file).name}", seed_label)
            setup = replace(setup, seed=seed)
        if len(entries) < 2:
            raise ValueError("a tournament needs at least two strategies that can be read")
        names = list(entries)
        matches = [(first, second) for i, first in enumerate(names) for second in names[i + 1 :]]
        described = _run_description(seed, setup, games, batch_pairs, entries)
        earlier = {fingerprint(str(seed), board, max_turns, float(per_move_limit)): EARLIER_RUN}
        ledger = Ledger(out, RESULT_FIELDS, RESULT_KEY, fingerprint(described), described, earlier)
        wanted = {(a, b, str(pair), seat) for a, b in matches for pair in range(games // 2) for seat in "AB"}
        blocks: list[tuple[tuple, int | None]] = []  # every block of seeds in order; the batch that plays it, if any
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
        judge = _Judge(entries, ENTRANT_BUDGET)  # the games judged in their fixed order, whatever the executor

        seen: set[tuple] = set()  # the games judged in this run

        def judged(game: tuple, record: GameRecord | None) -> None:
            seen.add(game)
            bar.update(len(ledger.add([_row(judge.judge(game, record))])))

        def skip(index: int) -> bool:  # a batch of a pairing already stopped, or of an entrant over budget
            return judge.blocked(*batches[index].tasks[0][:2])

        try:
            if where.kind == "serial":
                for block, index in blocks:
                    _judge_block(block, index, ledger, judge, judged, seen, lambda index: play_batch(
                        batches[index], lambda record: _judged_or_blocked(record, judge, judged)))
            else:
                played: dict[int, object] = {}
                results = map_unordered(play_batch, batches, where, skip=skip)
                for block, index in blocks:
                    while index is not None and index not in played:
                        finished_index, records = next(results)
                        played[finished_index] = records
                    _judge_block(block, index, ledger, judge, judged, seen,
                                 lambda index: [judged(_key(record), record) for record in played.pop(index) or ()])
            ledger.finish()
        finally:
            ledger.close()
            bar.close()
        if ledger.conflicts:
            warnings.warn(f"{len(ledger.conflicts)} replayed game(s) ended differently from their recorded rows (a move "
                          "near the per-move limit?); the recorded rows were kept", stacklevel=2)
        records = [_from_row(ledger.rows[key]) for key in sorted(wanted, key=_game_order(names))]
        result = _without_unloaded(names, seed, records, unread, seed_label, (setup.load_limit, setup.per_move_limit))
        if page is not None:
            write_leaderboard(result, page)
        return result


def _key(record: GameRecord) -> tuple[str, str, int, str]:
    return record.first, record.second, record.pair, record.first_seat


class _Blocked(Exception):
    """A batch's pairing was stopped, or one of its entrants is over budget: its remaining games are not played."""


def _judged_or_blocked(record: GameRecord, judge: _Judge, judged) -> None:
    """Keep a record a batch just played (``judged``); stop the batch if its pairing may play no more."""
    judged(_key(record), record)
    if judge.blocked(record.first, record.second):
        raise _Blocked


def _judge_block(block: tuple, index: int | None, ledger, judge: _Judge, judged, seen: set, play) -> None:
    """Judge one block of a tournament's seeds, in order: its rows from the ledger if it is complete (only counted),
    its batch played by ``play(index)`` (which hands each record to ``judged``), and the games that were not played
    (the batch was skipped or stopped: its pairing or an entrant is blocked)."""
    order = _batch_order(block)
    if index is None:
        for game in order:
            judge.judge(game, _from_row(ledger.rows[(game[0], game[1], str(game[2]), game[3])]))
        return
    if not judge.blocked(*block[0][:2]):
        try:
            play(index)
        except _Blocked:
            pass
    for game in order:
        if game not in seen:  # not played: the batch was skipped, or stopped in the middle
            judged(game, None)


RUN_FORMAT = 3
"""The tournament's fingerprint: 1 covered the seed, board, turn limit and per-move limit only; 2 covers everything
that decides the rows (:func:`_run_description`); 3 plays every entrant's games against a bot at tables of its own
(:func:`_table`), so the rows of a format-2 file are of other dice."""
EARLIER_RUN = ("was written by an earlier version of amoeboid_edu, whose fingerprint left out the batch size, the "
               "games, the load limit and the strategies' code, so resuming it could mix the games of two runs")


def _run_description(seed, setup: _Setup, games: int, batch_pairs: int, entries: dict[str, Entry]) -> dict:
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


def leaderboard_path(out: str | os.PathLike) -> Path:
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


def _game_order(names: Sequence[str]):
    rank = {name: i for i, name in enumerate(names)}
    return lambda key: (rank[key[0]], rank[key[1]], int(key[2]), key[3])


def _without_unloaded(names, seed, records, unread, seed_label, limits) -> TournamentResult:
    """Entrants whose worker could not load them leave the table (with the error); their games are not counted."""
    failed: dict[str, str] = {}
    for record in records:
        if record.reason == "load":
            name = record.first if record.forfeit_by == "first" else record.second
            failed.setdefault(name, (record.value or "").removeprefix("DidNotLoad: "))
    kept = [r for r in records if r.first not in failed and r.second not in failed]
    not_loaded = tuple(sorted([*unread, *failed.items()]))
    return TournamentResult(tuple(n for n in names if n not in failed), seed, tuple(kept), not_loaded, seed_label,
                            limits)


@_trusted
def write_leaderboard(result: TournamentResult, path: str | os.PathLike) -> Path:
    """The leaderboard as one self-contained HTML file: the table, then the charts as inline SVG (no network).

    Without vl-convert (a browser kernel) the charts are drawn by vega-embed when the page is opened.
    """
    from ..ui.charts import browser_chart_html

    try:
        import vl_convert
    except ImportError:
        vl_convert = None

    charts = [result.rating_chart(), result.chart(), result.pairwise_chart()]
    # drawn to SVG here when vl-convert is installed, else by vega-embed in the reader's browser
    svgs = [vl_convert.vegalite_to_svg(chart.to_dict()) if vl_convert else browser_chart_html(chart) for chart in charts]
    page = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8"><title>Amoeboid tournament</title></head><body>',
            result._repr_html_(), *(f"<div>{svg}</div>" for svg in svgs), "</body></html>"]  # fmt: skip
    path = Path(path)
    path.write_text("\n".join(page), encoding="utf-8")
    return path


__all__ = ["Batch", "GameRecord", "ScoreCard", "TournamentResult", "compare", "default_workers", "entry", "hand_in",
           "leaderboard_path", "play_batch", "read_seed_file", "score", "tournament", "wilson_interval",
           "write_leaderboard"]
