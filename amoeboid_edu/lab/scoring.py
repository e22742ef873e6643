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
(:mod:`amoeboid_edu.sandbox.harness`; docs/threat-model.md), started fresh behind
the walls the platform offers (on Linux seccomp and Landlock: it cannot
signal, trace or read this process, open sockets or write anything), fed the
position as text and the roll; a move that reaches the per-move limit is
interrupted and forfeits, and its process keeps the import.  One worker
is started per strategy and run (:func:`warm_workers`); each lane (an
opponent, seats fixed) plays in a fresh game process forked from it, which
imports the strategy itself.  The
dice never leave this process.  An exception, an illegal turn, a malformed
return value, a timeout or a crash forfeits that game, and the card says why
and which walls were up.
Games are interleaved (up to ``IN_FLIGHT`` at once) so that one round trip
to the worker serves many moves; a strategy should therefore not keep state
between calls (its ``rng`` is fresh for every move, seeded per game and turn).

A strategy written in a notebook cell travels to the worker with cloudpickle
(by value: its code and the globals it uses).  ``"module:function"`` is
imported by the worker itself; ``"path/to/file.py:function"`` is read here
once, as text, and run by the worker with no folder on its import path (a
folder ``"mywork/"`` plays ``mywork/strategy.py`` with the files beside it, from
a copy), so nothing of the student's code ever runs in this process.

This module is the game driver (a game against its workers, the twin games of a
pair in lockstep, the early stop), ``score`` and ``compare``, and the unit of
work every executor runs: a :class:`Batch`, played by :func:`play_batch`.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import os
import re
import sys
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Optional, Sequence

from ..engine.game import TURN_CAP
from ..engine.match import STRATEGY, Match
from ..engine.rules import IllegalTurnError, NotationError, Position, Rules, Turn, other
from ..engine.seeding import seeded_rng
from ..players.registry import BOTS
from ..players.strategy import Strategy
from ..players.tracebacks import cached_cell_line, describe
from ..sandbox.harness import OWN_MEASURE, Forfeit, Sandbox
from ..sandbox.protocol import LOAD_LIMIT, SEED_BITS
from ..sandbox.text import KEEP_LINES, LINE_WIDTH, shown
from ..sandbox.defaults import DEFAULT_GAMES, FAST_OPPONENTS
from ..sandbox.importpath import trusted_imports
from .cards import ScoreCard
from .estimate import RunEstimate, cores, score_advice
from .entrants import Entry, SourceIndex, _target_folders, _with_source, entry, opponent_list, scored_entry
from .handin import refusals
from .records import DEFAULT_PER_MOVE_LIMIT, MOVES_JOIN, GameRecord
from . import executors
from .executors import Executor, map_unordered
from .roster import hand_in_snapshots
from .seedfile import _seed_from_file

SAME_FAILURE_STOP = 5
"""``score`` stops once the strategy has forfeited this many games in a row in exactly the same way; a tournament
then stops that pairing (its remaining games are that entrant's forfeits)."""
ENTRANT_BUDGET = 10
"""Games an entrant of a tournament may lose with its import or its game process (a crash, a move that would not
stop, an import that fails or outlasts the load limit); its remaining games are then forfeits, not played.  Each
such game costs up to two imports (docs/threat-model.md gives the bound)."""


@dataclass(frozen=True)
class _Setup:
    seed: int | str
    per_move_limit: float
    max_turns: int
    board: int
    load_limit: float = LOAD_LIMIT
    bot_tables_by_entrant: bool = False  # a tournament's: see _table
    tournament: bool = False  # whose option a timeout's message names: tournament's, else score's


def _stream_seed(seed: int | str, *keys: object) -> int:
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


POSITION_CHANGED = re.compile(
    r"FrozenInstanceError: |AttributeError: (?:can't set attribute|property '\w+' of '\w+' object has no setter)"
    r"|TypeError: '(?P<type>\w+)' object does(?:n't| not) support item (?:assignment|deletion)"
    r"|AttributeError: '(?P<owner>\w+)' object has no attribute "
    r"'(?:append|extend|insert|remove|pop|clear|sort|reverse|add|discard|update|setdefault|popitem)'")
"""How Python says that code tried to change something that cannot be changed: an attribute of a frozen dataclass
or a named tuple (``position[me].a += roll``), an item (``position.board[0] = None``), or a list's or set's method
called on a tuple (``position.cells.append(None)``)."""
POSITION_TYPES = frozenset({"Position", "Board", "Amoeba", "Turn"})
"""The engine's types a strategy is handed or builds: none of them can be changed."""


def _change_hint(value: str, where: object) -> str:
    """The hint for a strategy that tried to change the position it was given (:data:`POSITION_CHANGED`), naming its
    line when the worker sent it; empty for any other error.  A tuple or a set of the student's own that cannot be
    changed gets the hint only when the line speaks of the position (``position.cells.append``)."""
    found = POSITION_CHANGED.match(value)
    if found is None:
        return ""
    line = where[3].strip() if isinstance(where, list) and len(where) == 4 and isinstance(where[3], str) else ""
    kind = found.group("type") or found.group("owner")
    if kind and kind not in POSITION_TYPES and "position" not in line.lower():
        return ""
    change = f"`{shown(line, LINE_WIDTH)}` tries to change the position" if line else "it tried to change the position"
    return (f"; {change}, and a position (its board, cells and amoebae) cannot be changed: to see a position after "
            "a turn, make a new one with apply(position, turn)")
PRINT_HEAVY = 100_000
"""Characters printed in one move above which a timeout is blamed on the printing (printing is slow)."""


def _timeout_message(answer: dict[str, Any], limit: float | None, sources: SourceIndex = (),
                     tournament: bool = False) -> str:
    """Why a move timed out, in words a student can act on: where it was stuck (or that printing took the time) and
    how to allow more time (with the ``tournament``'s option in a tournament, else ``score``'s)."""
    where, printed = answer.get("where"), answer.get("printed", 0)
    if isinstance(printed, int) and printed >= PRINT_HEAVY:
        stuck = (f"it printed {printed:,} characters in this move, and printing that much is what took the time: "
                 "remove the print() calls (or print much less)")
    elif where is not None and (place := _raised_where(_with_source(where, sources))) != "raised an exception":
        stuck = "it was stopped " + place.removeprefix("raised ")
    else:
        stuck = shown(answer.get("message", ""), LINE_WIDTH)
    more = f"{2 * limit:g}" if limit else "2"
    command = "tournament" if tournament else "score"
    return shown(f"{stuck}. Make the move faster (an endless loop?), or allow more time: "
                 f"{command}(..., per_move_limit={more}) or amoeboid {command} --per-move-limit {more}", 2 * LINE_WIDTH)


WRONG_PARAMETERS = re.compile(r"TypeError: (?:[\w<>]+\.)*(\w+)\(\) (?:takes .* positional arguments? but 3 were given|"
                              r"missing \d+ required (?:positional|keyword-only) arguments?)")
"""A strategy that cannot be called with ``(position, roll, rng)``, as Python says it: the function's name."""


def _wrong_parameters(value: str, where: object, sources: SourceIndex) -> str | None:
    """The message for a strategy called with ``(position, roll, rng)`` that takes other parameters, with its def line
    when ``sources`` has it; None if ``value`` is another error (or was raised inside the student's code)."""
    found = WRONG_PARAMETERS.match(value)
    if found is None or where is not None:
        return None
    name = found.group(1)
    lines = [line.strip() for item in sources if item[0] == name for line in item[4]
             if line.lstrip().startswith(("def ", "async def "))]
    yours = f"; yours is `{shown(lines[0], LINE_WIDTH)}`" if lines else ""
    return (f"{name}() cannot be called with (position, roll, rng){yours}: a strategy takes those three parameters, "
            f"e.g. `def {name}(position, roll, rng):`")


def _turn_from(answer: dict[str, Any], roll: int, limit: float | None = None, sources: SourceIndex = (),
               tournament: bool = False) -> Turn:
    """Validate a worker's answer: a Turn for this roll, or a forfeit naming what is wrong."""
    kind, value = answer.get("kind"), shown(answer.get("value", ""))
    if kind == "timeout":  # interrupted at the limit by the game process, which keeps its import
        raise Forfeit("timeout", value, _timeout_message(answer, limit, sources, tournament))
    if kind == "error":
        if (wrong := _wrong_parameters(value, answer.get("where"), sources)) is not None:
            raise Forfeit("exception", value, wrong)
        where = _with_source(answer.get("where"), sources)
        raise Forfeit("exception", value, shown(f"the strategy {_raised_where(where)}", LINE_WIDTH)
                      + _change_hint(value, where))
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
        self.waited = {"A": 0.0, "B": 0.0}  # wall-clock seconds of each seat's moves (see _play_pairing)
        self.asked = {"A": 0, "B": 0}
        self.limit, self.tournament = setup.per_move_limit, setup.tournament
        self.forfeit: tuple[str, str, str, str] | None = None  # seat, reason, value, message
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
            turn = BOTS[str(self.entries[seat].bot)](match.position, roll, match.rng())
            if isinstance(turn, Turn):
                match.play_trusted(turn)
            else:  # the baseline bots return Turns; notation would be checked
                match.play(turn)
        return self._record()

    def move_request(self) -> tuple[int, int, Position]:
        return self.match.move_seed(), self.match.roll(), self.match.position

    def receive(self, answer: dict[str, Any] | Forfeit) -> None:
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
            turn = _turn_from(answer, self.match.roll(), self.limit, self.entries[seat].sources, self.tournament)
            try:
                self.match.play(turn)
            except IllegalTurnError as error:
                raise Forfeit("illegal", shown(turn), shown(error)) from None
        except Forfeit as forfeit:
            self.forfeit = (seat, forfeit.reason, forfeit.value, forfeit.message)

    def _record(self) -> GameRecord:
        role = self.match.role
        capped, winner = self.match.capped, self.match.winner
        forfeit_by = reason = value = message = None
        output: tuple[str, ...] = ()
        if self.forfeit is not None:
            seat, reason, value, message = self.forfeit
            capped, winner, forfeit_by, output = False, role[other(seat)], role[seat], tuple(self.outputs[seat])
        first_seat, second_seat = self.first_seat, other(self.first_seat)
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
            lines=(self.lines[first_seat], self.lines[second_seat]),
            seconds=(self.seconds[first_seat], self.seconds[second_seat]),
            slowest=(self.slowest[first_seat], self.slowest[second_seat]),
            waited=(self.waited[first_seat], self.waited[second_seat]),
            asked=(self.asked[first_seat], self.asked[second_seat]),
            outputs=(tuple(self.outputs[first_seat]), tuple(self.outputs[second_seat])),
            forfeit_by=forfeit_by,
            reason=reason,
            value=value,
            message=message,
            output=output,
        )



IN_FLIGHT = 64
"""Games of a lane played at once (a pairing plays its two lanes side by side: twice this): one worker round trip
then serves up to this many moves."""


def _both_seats(tasks: Sequence[tuple[str, str, int]]) -> list[tuple[str, str, int, str]]:
    """The two games of each ``(first, second, pair)`` task: ``first`` in seat A, then in seat B."""
    return [(first, second, pair, seat) for first, second, pair in tasks for seat in "AB"]


def _lanes(games: Sequence[tuple[str, str, int, str]]) -> list[list[tuple[str, str, int, str]]]:
    """The games grouped by pairing and seats, in order: a lane (of a batch) is the unit no executor splits."""
    lanes: dict[tuple[str, str, str], list[tuple[str, str, int, str]]] = {}
    for game in games:
        first, second, _, first_seat = game
        lanes.setdefault((first, second, first_seat), []).append(game)
    return list(lanes.values())


def _pairings(games: Sequence[tuple[str, str, int, str]]) -> list[list[tuple[str, str, int, str]]]:
    """The games grouped by pairing, in order: both lanes of a pairing (its two seatings), which share their dice.

    A pairing is the unit no executor splits: its two lanes must be played side by side, in lockstep (see
    :func:`_play_pairing`).
    """
    pairings: dict[tuple[str, str], list[tuple[str, str, int, str]]] = {}
    for game in games:
        pairings.setdefault(game[:2], []).append(game)
    return list(pairings.values())


def _play_tasks(entries: dict[str, Entry], games: Sequence[tuple[str, str, int, str]], setup: _Setup,
                finished: Callable[[GameRecord], None]) -> None:
    """Play the ``(first, second, pair, first_seat)`` games here, pairing by pairing; ``finished(record)`` as each ends.

    A lane (one pairing, seats fixed) has sandboxes of its own, started for it and closed after it, and its
    games go to them in the same order whether the run is serial, split over workers or over a cluster: a
    strategy that keeps state in its module meets the same history, so it gets the same card on any executor.
    Its sandbox sees one seat of one table, so no process sees both games of a dice pair (they share their
    dice, seats swapped) or the same dice against two opponents.  The two lanes
    of a pairing are played together, in lockstep, so that no process learns a roll before the twin game rolls
    it (:func:`_play_pairing`).
    """
    for pairing in _pairings(games):
        _play_pairing(entries, pairing, setup, finished)


def _may_ask(game: _Game, twin: _Game | None) -> bool:
    """Whether ``game``'s mover may be told its roll now: never before the twin game has drawn that roll.

    The twins of a pair roll the same dice, the n-th roll of the game at its n-th turn.  Told at turn n, a
    process knows the rolls up to n; if the twin were behind, a process of the twin's could learn its own game's
    coming rolls from it through any channel the walls leave between processes (such as the access times of
    never-read files: a file read "writes", a ``stat`` "reads").  Of two
    twins still playing, the one behind may always move, so the pair never waits for ever.
    """
    return twin is None or twin.finished or len(twin.match.turns) >= len(game.match.turns)


def _play_pairing(entries: dict[str, Entry], games: Sequence[tuple[str, str, int, str]], setup: _Setup,
                  finished: Callable[[GameRecord], None]) -> None:
    """Play one pairing's games, ``IN_FLIGHT`` pairs at a time, each lane's untrusted strategies in their own sandbox.

    A game's twin (same pair, seats swapped) enters play with it, and a game's mover is asked only when
    :func:`_may_ask`: neither game of a pair runs ahead of the other.  A game whose twin is not among ``games``
    (it was played to its end earlier, before a resume) has no roll left to protect and runs freely.
    """
    rules = Position.start(setup.board).rules
    import_seed = _stream_seed(setup.seed, "import")
    sandboxes: dict[tuple[str, str], Sandbox] = {}
    if not _WARM and executors.POOL_PROCESS:  # a pool process keeps its workers until it exits (or dies with the run)
        kept: collections.OrderedDict[Any, Sandbox] = collections.OrderedDict()
        _WARM.append(kept)
        atexit.register(_close_all, kept)
    hosts = _WARM[-1] if _WARM else collections.OrderedDict()

    def sandbox_for(name: str, lane: str) -> Sandbox:
        if (name, lane) not in sandboxes:
            sandboxes[(name, lane)] = _host(hosts, name, entries[name], setup, rules, import_seed).lane()
        return sandboxes[(name, lane)]

    made = {game: _Game(entries[game[0]], entries[game[1]], game[2], game[3], setup) for game in games}
    # Every lane's sandbox at once: the workers' interpreters start side by side, then each lane's game process is
    # forked and imports the strategy while the others do (on first use, one after the other, they would wait
    # for each other).
    untrusted = sorted({(name, game[3]) for game in games for name in game[:2] if not entries[name].trusted})
    for name, lane in untrusted:
        sandbox_for(name, lane).spawn()
    for name, lane in untrusted:
        sandbox_for(name, lane).request_game()
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
                began = time.monotonic()
                answers = sandbox.ask([game.move_request() for game in games_asking], setup.per_move_limit)
                share = (time.monotonic() - began) / len(games_asking)  # one process served these moves in turn
                for game, answer in zip(games_asking, answers):
                    if answer is not None:  # None: its worker was killed first; asked again next round
                        game.waited[seat] += share
                        walls = sandbox.worker.isolation or "unknown"
                        game.isolation[seat] = walls if sandbox.timed_by != "worker" else f"{walls} ({OWN_MEASURE})"
                        game.receive(answer)
    finally:
        for sandbox in sandboxes.values():
            sandbox.close()
        if not _WARM:
            _close_all(hosts)


def _host(hosts: collections.OrderedDict[Any, Sandbox], name: str, e: Entry, setup: _Setup, rules: Rules,
          import_seed: int) -> Sandbox:
    """The worker kept in ``hosts`` for ``name``'s strategy, made (not started) if there is none; the most recently
    used last, and no more than :data:`MAX_WARM` kept."""
    key = (name, json.dumps(e.load, sort_keys=True, default=str), e.payload, setup.board,
           setup.load_limit, import_seed)  # two entrants never share a worker, even with the same code
    host = hosts.pop(key, None) or Sandbox(e.load, e.payload, rules, setup.load_limit, import_seed)
    hosts[key] = host
    while len(hosts) > MAX_WARM:
        hosts.popitem(last=False)[1].close()
    return host


def prestart(entries: dict[str, Entry], setup: _Setup) -> None:
    """Start the workers of the run's untrusted strategies now, side by side, inside :func:`warm_workers` (a serial
    run: each is then ready when its first batch comes, instead of starting one after the other as they come)."""
    if not _WARM:
        return
    rules = Position.start(setup.board).rules
    import_seed = _stream_seed(setup.seed, "import")
    for name in [name for name, e in entries.items() if not e.trusted][:MAX_WARM]:
        _host(_WARM[-1], name, entries[name], setup, rules, import_seed).spawn()


MAX_WARM = 8
"""Workers a run keeps started (one per strategy, the most recently used): a tournament's entrants' workers serve
every batch they play in, instead of one started per lane and batch."""
_WARM: list[collections.OrderedDict[Any, Sandbox]] = []
"""The workers kept for the run in progress (:func:`warm_workers`), by what they load; empty: none are kept."""


def _close_all(hosts: collections.OrderedDict[Any, Sandbox]) -> None:
    for host in hosts.values():
        host.close()


@contextlib.contextmanager
def warm_workers() -> Iterator[None]:
    """Keep each strategy's worker started across the batches played here until the block ends, then stop them.

    A worker (an interpreter with the lab's modules and NumPy imported and its walls up) costs a few tenths of a
    second to start; each lane still gets a fresh game process, forked from it, that imports the strategy itself.
    A pool process of ``processes:K`` keeps them for its whole life: it stops them as it exits, and a killed one
    takes them with it.
    """
    hosts: collections.OrderedDict[Any, Sandbox] = collections.OrderedDict()
    _WARM.append(hosts)
    try:
        yield
    finally:
        _WARM.remove(hosts)
        _close_all(hosts)


class _SameFailure(Exception):
    """Raised from ``_run`` when the watched strategy forfeits ``SAME_FAILURE_STOP`` games in a row the same way."""

    def __init__(self, records: list[GameRecord], last: GameRecord) -> None:
        super().__init__(last.reason)
        self.records, self.last = records, last  # the games up to the last failure, in the games' order

    def explain(self, game: int) -> str:
        """The card's banner; ``game``: the last failure's number on the card (its message may say "this move")."""
        return (f"your strategy fails the same way every game: fix this first. {SAME_FAILURE_STOP} games in a row "
                f"(in the order they were played) were forfeited for the same kind of mistake ({self.last.reason}); "
                f"the last of them, game {game} as card.games() numbers them: {self.last.value}: {self.last.message}")


class _Interrupted(Exception):
    """Raised from ``_run`` when the run is interrupted (Ctrl-C, a notebook's interrupt): the games played so far."""

    def __init__(self, records: list[GameRecord], total: int) -> None:
        super().__init__("interrupted")
        self.records, self.total = records, total

    def explain(self) -> str:
        """The card's banner."""
        return (f"stopped by you (an interrupt) after {len(self.records):,} of {self.total:,} games: this card shows "
                "only those, and they are not a fair sample (short games finish first), so it gives no verdict; run "
                "it again for the whole card, or with fewer games (games= in Python, --games on the command line) "
                "to make it shorter")


Failure = tuple[Optional[str], str]
"""The kind of a forfeit, as the early stop compares them: the reason, and an exception's type."""


def _own_failure(record: GameRecord, name: str) -> Failure | None:
    """The kind of ``name``'s forfeit in ``record`` (None if it did not forfeit): the reason, and for an exception
    its type, so that 48 malformed answers of different values count as one repeated mistake."""
    role = "first" if record.first == name else "second"
    if record.forfeit_by != role:
        return None
    exception = (record.value or "").partition(":")[0] if record.reason == "exception" else ""
    return record.reason, exception if exception.isidentifier() else ""


def _run(entries: dict[str, Entry], matches: list[tuple[str, str]], games: int, setup: _Setup, workers: int,
         progress: bool, description: str, watch: str | None = None) -> list[GameRecord]:
    """Play every game of ``matches``; stop once ``watch`` forfeits ``SAME_FAILURE_STOP`` games in a row the same way.

    "In a row" is in the games' own order (lane by lane, each lane's games by pair), never in the order records
    arrive, which with ``workers=K`` is timing: the stop, and so the card, is the same on any executor.  The card
    then holds the games up to that fifth failure, in that order.

    Each pairing is one batch, or :data:`CARD_BLOCKS` of them on a long card (:func:`_card_blocks`; a :class:`Batch`
    without a judge: the stop is judged here, across the card) of :func:`~amoeboid_edu.lab.executors.map_unordered`:
    serial for one worker, else ``processes:K``, whose records reach ``finished`` as they end.
    """
    _check_settings(games, setup)
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, not {shown(repr(workers))}")
    seated = _both_seats([(first, second, pair) for first, second in matches for pair in range(games // 2)])
    order = [game for lane in _lanes(seated) for game in lane]
    from tqdm.auto import tqdm

    bar = tqdm(total=len(seated), desc=description, unit="game", delay=1.0, disable=not progress, leave=False)
    lanes = len({(first, second, seat) for first, second, _, seat in seated})
    estimate = RunEstimate(description, len(seated), score_advice(games, [second for _, second in matches], workers,
                                                                 lanes), lambda line: bar.write(line, file=sys.stderr))
    arrived: dict[tuple[str, str, int, str], GameRecord] = {}
    judged = [0]  # games of ``order`` whose records have all arrived and were checked for the streak
    streak: list[Failure] = []  # the watched strategy's identical forfeits, most recent last

    def finished(record: GameRecord) -> None:
        key = (record.first, record.second, record.pair, record.first_seat)
        if key in arrived:  # played again after its pool process died: the first record stands
            return
        arrived[key] = record
        bar.update(1)
        if progress:
            estimate.finished()
        while watch is not None and judged[0] < len(order) and order[judged[0]] in arrived:
            current = arrived[order[judged[0]]]
            judged[0] += 1
            failure = _own_failure(current, watch)
            streak[:] = [] if failure is None or (streak and streak[-1] != failure) else streak
            if failure is not None:
                streak.append(failure)
            if len(streak) >= SAME_FAILURE_STOP:
                raise _SameFailure([arrived[game] for game in order[: judged[0]]], current)

    batches = [Batch({name: entries[name] for name in block[0][:2]}, block, setup, judge=None)
               for block in _card_blocks(matches, games, entries)]
    executor = Executor("serial") if workers == 1 else Executor("processes", workers)
    results = map_unordered(play_batch, batches, executor, on_item=lambda index, record: finished(record))
    try:
        with warm_workers():
            if executor.kind == "serial":
                prestart(entries, setup)
            for _, records in results:  # every record was handed to ``finished`` already, except from a Dask worker
                for record in records or ():
                    finished(record)
    except KeyboardInterrupt:  # the games played so far make a card of their own; nothing is lost
        raise _Interrupted([arrived[game] for game in order if game in arrived], len(order)) from None
    finally:
        results.close()
        bar.close()
    return _in_order(list(arrived.values()), matches)


CARD_BLOCKS = 2
"""Blocks a score card's pairing is cut into (each a batch of its own: half its dice seeds, both seats), once each
block would hold at least :data:`MIN_BLOCK_PAIRS` seeds: two processes then share the dearest opponent instead of
one of them playing it alone while the other waits.  A fixed number, whatever the executor, so that each block's
lanes meet the same games on any (a strategy that keeps state in its module gets the same card)."""
MIN_BLOCK_PAIRS = 25
"""Dice seeds a block holds at least: each block starts its lanes' game processes afresh (tens of milliseconds)."""
OPPONENT_COST = {"expectimax": 30.0, "paper": 3.0, "random": 2.0, "greedy": 1.0}
"""How dear a game against each bot is, roughly (the bot's own time and the game's length, from
``bench/scoring.py``): the card's batches start dearest first, so that the last ones to finish are short.  Only the
order in which batches start depends on it, never a result."""


def _card_blocks(matches: list[tuple[str, str]], games: int,
                 entries: dict[str, Entry]) -> list[tuple[tuple[str, str, int], ...]]:
    """A score card's batches of ``(first, second, pair)`` tasks: each pairing's seeds in :data:`CARD_BLOCKS` blocks
    when it has enough of them (:data:`MIN_BLOCK_PAIRS`), the dearest opponent's first (:data:`OPPONENT_COST`; a
    strategy costs as much as ``random``)."""
    pairs = games // 2
    cut = CARD_BLOCKS if pairs >= CARD_BLOCKS * MIN_BLOCK_PAIRS else 1
    bounds = [pairs * part // cut for part in range(cut + 1)]
    blocks = []
    for order, (first, second) in enumerate(matches):
        rival = entries[second]
        cost = OPPONENT_COST.get(str(rival.bot), OPPONENT_COST["random"]) if rival.trusted else OPPONENT_COST["random"]
        for part in range(cut):
            tasks = tuple((first, second, pair) for pair in range(bounds[part], bounds[part + 1]))
            blocks.append((-cost, order, part, tasks))
    return [tasks for *_, tasks in sorted(blocks)]


def _in_order(records: list[GameRecord], matches: list[tuple[str, str]]) -> list[GameRecord]:
    order = {match: index for index, match in enumerate(matches)}
    return sorted(records, key=lambda r: (order[(r.first, r.second)], r.pair, r.first_seat))



def _check_settings(games: int, setup: _Setup) -> None:
    if not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be a positive even number (each dice seed is played twice), not {games!r}")
    for what, limit in (("per-move", setup.per_move_limit), ("load", setup.load_limit)):
        if not limit > 0:
            raise ValueError(f"the {what} limit must be a positive number of seconds, not {limit!r}")
    Position.start(setup.board)  # a bad board size fails here, before any game



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
    seed_file: str | os.PathLike[str] | None = None,
) -> ScoreCard:
    """Play ``strategy`` against the fast baseline bots and score it: :data:`DEFAULT_GAMES` games against each of
    :data:`FAST_OPPONENTS` unless told (the same defaults as ``amoeboid score``).

    ``opponents``: names from ``BOTS`` (one name alone is a list of one), or strategies given as ``strategy`` is (a
    function: say your previous version, played on the same dice; see also :func:`compare`).  A wrong argument (a
    bot's name with a capital, a function's name in quotes, a seed file strategies may read) is refused before any
    game as one :class:`~amoeboid_edu.lab.handin.Refused` line saying what to change.  ``games`` per opponent, an even number:
    ``games / 2`` dice seeds, each played twice with the seats swapped.  ``strategy`` is a function
    ``(position, roll, rng)``, an object with ``choose``, a name from ``BOTS``, or
    ``"module:function"`` / ``"path/to/file.py:function"`` (``"path/to/file.py"`` alone plays its ``strategy``,
    else its one function taking ``(position, roll, rng)``), or a folder of the student's own, ``"mywork/"``
    (its ``strategy.py``, with its helper modules beside it).  A file is played as a tournament plays a single
    hand-in: read once, before any game, with nothing beside it importable; one that imports a module only its
    folder holds is refused with a line saying to move it into a folder of its own and score that.  Untrusted
    strategies run in a worker process; a move slower than ``per_move_limit`` seconds, an
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
    measured on the games played so far and corrected as they go, and a run that will take more than about 30 s
    says so in one line near its start, with ways to make it shorter: :mod:`~amoeboid_edu.lab.estimate`).
    A game still going after ``max_turns`` counts as a tie (``capped``).  If the
    strategy forfeits :data:`SAME_FAILURE_STOP` games in a row the same way,
    scoring stops there and the card says what to fix first.
    """
    # no hand-in is ever imported here; a file is read once, into the run's own snapshot (scored_entry)
    with refusals():  # a wrong argument is one line, not a traceback through the lab
        given = list(FAST_OPPONENTS) if opponents is None else opponent_list(opponents, strategies=True)
    with trusted_imports(_target_folders([strategy, *given])), hand_in_snapshots() as snapshot:
        with refusals():  # checked before any game: one line naming what to change
            targets = [(entry(strategy, name), str(strategy)),
                       *((entry(opponent), str(opponent)) for opponent in given)]
            subject, *others = [scored_entry(item, target, snapshot) for item, target in targets]
            rivals: dict[str, Entry] = {}
            for item in others:
                label, number = item.name, 2
                while label in rivals:
                    label, number = f"{item.name} {number}", number + 1
                rivals[label] = replace(item, name=label)
            if subject.name in rivals:
                subject = replace(subject, name=f"{subject.name} (player)")
            entries = {subject.name: subject, **rivals}
            # every folder any strategy of the run may read (an opponent's as much as the subject's), and each file's
            # own folder, which a student folder's copy holds all of
            files = [*(item.load.get("file") for item, _ in targets), *(e.load.get("file") for e in entries.values())]
            seed, seed_label = _seed_from_file(seed, seed_file, files, f"from {os.fspath(seed_file or '')} (secret)",
                                               seed_label)
            setup = _Setup(seed, float(per_move_limit), max_turns, board, float(load_limit))
        matches = [(subject.name, rival) for rival in rivals]
        by_you = False  # stopped by the user (Ctrl-C): the card gives no verdict
        try:
            workers = default_workers(2 * len(matches)) if workers is None else workers
            records, stopped = _run(entries, matches, games, setup, workers, progress, f"scoring {subject.name}",
                                    watch=subject.name), ""
        except _SameFailure as failure:
            records = _in_order(failure.records, matches)
            stopped = failure.explain(next(i for i, record in enumerate(records) if record is failure.last))
        except _Interrupted as interrupted:
            if not interrupted.records:
                raise KeyboardInterrupt from None
            records, stopped = _in_order(interrupted.records, matches), interrupted.explain()
            by_you = True
        return ScoreCard(subject.name, seed, tuple(records), (setup.load_limit, setup.per_move_limit), seed_label,
                         stopped, board, max_turns, interrupted=by_you)


def default_workers(lanes: int) -> int:
    """Processes that play a score card when none are asked for: one per core this process may use, at most one per
    lane (an opponent and a seat: the unit a process plays whole), so no process starts for nothing."""
    return max(1, min(cores(), lanes))


def compare(new: Strategy | str, old: Strategy | str, games: int = DEFAULT_GAMES, seed: int | str = 0,
            **options: Any) -> ScoreCard:
    """Did a change help?  ``new`` plays ``old`` head to head on paired dice; the card's verdict says "beats old",
    "loses to old" or "too close to call".

    Both run in workers, as for :func:`score` (which takes the same ``options``); two versions that play alike
    on most positions split most dice pairs evenly, and only the pairs they play differently count.
    """
    return score(new, games, seed, opponents=[old], **options)



# --------------------------------------------------------------------------- a unit of work for any executor


@dataclass(frozen=True)
class JudgeStart:
    """What a tournament's judge (:class:`_Judge`) knew of a batch's entrants when the batch started: their costs
    against the ``budget``, those already over it, and (only when every earlier game of the pairing was judged)
    the pairing's streaks of identical failures.  The batch then stops no later than the judge would; serially,
    exactly where it would."""

    budget: int | None = None
    costs: tuple[tuple[str, int], ...] = ()
    over: tuple[tuple[str, tuple[str, str, str]], ...] = ()
    streaks: tuple[tuple[tuple[str, str, str], tuple[tuple[str | None, str], ...]], ...] = ()


@dataclass(frozen=True)
class Batch:
    """A unit of work for an executor: the games ``tasks`` between the strategies of ``entries``.

    ``judge``: where the early stop and the budget start from (:class:`JudgeStart`); None plays every game (a score
    card's pairing, whose early stop is judged by :func:`score` across the whole card).
    """

    entries: dict[str, Entry]
    tasks: tuple[tuple[str, str, int], ...]
    setup: _Setup
    judge: JudgeStart | None = JudgeStart()


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

    Without them, an entrant that imports slowly and crashes on its first move would cost two imports a game;
    the threat model gives the bound these rules keep.
    """

    def __init__(self, entries: dict[str, Entry], budget: int | None = None) -> None:
        self.entries, self.budget = entries, budget
        self.streaks: dict[tuple[str, str, str], list[Failure]] = {}  # (first, second, name) -> identical failures
        self.stopped: dict[tuple[str, str, str], tuple[str, str, str]] = {}  # -> reason, value, message
        self.costs: dict[str, int] = collections.Counter()
        self.over: dict[str, tuple[str, str, str]] = {}

    @classmethod
    def starting(cls, entries: dict[str, Entry], start: JudgeStart) -> _Judge:
        """A judge that knows what ``start`` says."""
        judge = cls(entries, start.budget)
        judge.costs.update(dict(start.costs))
        judge.over.update(dict(start.over))
        judge.streaks.update({key: list(streak) for key, streak in start.streaks})
        return judge

    def start(self, first: str, second: str, streaks: bool) -> JudgeStart:
        """What this judge knows of the pairing's entrants now, for a batch of it (with the pairing's streaks only
        if ``streaks``: when every earlier game of the pairing was judged)."""
        names = [name for name in (first, second) if not self.entries[name].trusted]
        return JudgeStart(self.budget, tuple((name, self.costs[name]) for name in names if self.costs.get(name)),
                          tuple((name, self.over[name]) for name in names if name in self.over),
                          tuple(((first, second, name), tuple(self.streaks[(first, second, name)])) for name in names
                                if streaks and self.streaks.get((first, second, name))))

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


def play_batch(batch: Batch, finished: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """Play a batch on this host, each untrusted strategy in its own sandbox; the records, in the games' order.

    The one function every executor runs (on a Dask worker too), for a score card and a tournament alike, so the
    sandbox's guarantees hold wherever the games are played.  ``finished(record)`` is called for each game, in the
    games' order (:func:`_batch_order`), as soon as it and every game before it have ended (as each game ends,
    for a batch without a judge).  The early stop and the budget of :class:`_Judge` apply within the batch, from
    ``batch.judge``: once an entrant is stopped, the batch's remaining games are not played.
    """
    order = _batch_order(batch.tasks)
    if batch.judge is None:
        played: dict[tuple[str, str, int, str], GameRecord] = {}

        def keep(record: GameRecord) -> None:
            played[(record.first, record.second, record.pair, record.first_seat)] = record
            if finished is not None:
                finished(record)

        _play_tasks(batch.entries, order, batch.setup, keep)
        return [played[game] for game in order]
    judge = _Judge.starting(batch.entries, batch.judge)
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



__all__ = ["ENTRANT_BUDGET", "SAME_FAILURE_STOP", "Batch", "JudgeStart", "compare", "default_workers", "play_batch", "score"]
