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
:func:`~amoeboid_edu.game.seeded_rng`, so the same seed gives the same card,
serial or with ``workers=K``.  (The derivation is public: a strategy that
knew the seed could recompute the dice.  For a contest, pick a seed the
students do not know.)

Safe: a student's strategy runs in its own worker process
(:mod:`amoeboid_edu._sandbox`), started fresh, fed the position as text and
the roll, and killed when a move takes longer than the per-move limit.  The
dice never leave this process.  An exception, an illegal turn, a malformed
return value, a timeout or a crash forfeits that game, and the card says why.
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
import json
import math
import os
import pickle
import queue
import signal
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Sequence

from .bots import BOTS
from .game import seeded_rng
from .rules import IllegalTurnError, NotationError, Position, Rules, Turn, apply, other
from .strategy import Strategy, as_function, strategy_name

DEFAULT_PER_MOVE_LIMIT = 1.0
LOAD_LIMIT = 30.0
"""Seconds a worker may take to start and load the strategy (imports included)."""
MAX_TURNS = 500
"""A game still going after this many turns is stopped and counted as a tie (``capped``)."""
MAX_MESSAGE = 1 << 20
FORFEIT_REASONS = ("exception", "illegal", "malformed", "timeout", "crash", "load")
"""Why a game was forfeited: the strategy raised; returned an illegal turn; returned something that is
not a turn; took longer than the per-move limit; killed its worker; could not be loaded at all."""


class _Forfeit(Exception):
    def __init__(self, reason: str, value: str, message: str = "") -> None:
        super().__init__(reason)
        self.reason, self.value, self.message = reason, value, message


# --------------------------------------------------------------------------- who plays


@dataclass(frozen=True)
class Entry:
    """A strategy as the harness ships it: a trusted bot by name, or untrusted code for a worker."""

    name: str
    bot: str | None = None  # a key of BOTS: runs here, in the harness process
    load: dict = field(default_factory=dict)  # how the worker loads it
    payload: bytes = b""  # the cloudpickle bytes, for load == "pickle"

    @property
    def trusted(self) -> bool:
        return self.bot is not None


def _parse_target(target: str) -> dict:
    """``"module:function"`` or ``"path/to/file.py:function"`` as a worker load request (checked, not run)."""
    where, colon, name = target.rpartition(":")
    if not colon or not where or not name.isidentifier():
        raise ValueError(f"strategy {target!r}: expected MODULE:FUNCTION or path/to/file.py:FUNCTION")
    if where.endswith(".py"):
        if not os.path.isfile(where):
            raise ValueError(f"strategy {target!r}: no such file {where}")
        return {"load": "file", "file": os.path.abspath(where), "name": name}
    if not all(part.isidentifier() for part in where.split(".")):
        raise ValueError(f"strategy {target!r}: {where!r} is not a module name")
    return {"load": "import", "module": where, "name": name}


def entry(strategy: Strategy | str, name: str | None = None) -> Entry:
    """How ``strategy`` will be run: a baseline bot (name or function) here, anything else in a worker."""
    if isinstance(strategy, str):
        if strategy in BOTS:
            return Entry(name or strategy, bot=strategy)
        request = _parse_target(strategy)
        return Entry(name or request["name"], load=request)
    for bot_name, bot in BOTS.items():
        if strategy is bot:
            return Entry(name or bot_name, bot=bot_name)
    as_function(strategy)  # a clear TypeError now rather than a forfeit per game
    import cloudpickle

    try:
        payload = cloudpickle.dumps(strategy)
    except Exception as error:
        raise ValueError(f"cannot send strategy {strategy_name(strategy)} to a worker process: {error}") from None
    return Entry(name or strategy_name(strategy), load={"load": "pickle"}, payload=payload)


# --------------------------------------------------------------------------- the worker, seen from here


class Sandbox:
    """One long-lived worker process for one untrusted strategy; restarted after a kill."""

    def __init__(self, entry: Entry, rules: Rules, load_limit: float = LOAD_LIMIT) -> None:
        self.entry, self.rules, self.load_limit = entry, rules, load_limit
        self.process: subprocess.Popen | None = None
        self.connection: Connection | None = None
        self.broken: str | None = None  # why the strategy cannot be loaded at all

    def _start(self) -> None:
        mine, theirs = socket.socketpair()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "amoeboid_edu._sandbox", str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # its own process group: killed together with anything it starts
            )
        finally:
            theirs.close()
        self.connection = Connection(mine.detach())
        request = dict(
            self.entry.load,
            path=[entry or os.getcwd() for entry in sys.path],
            adjacency=self.rules.adjacency,
            die_sides=self.rules.die_sides,
        )
        self.connection.send_bytes(json.dumps(request).encode())
        if request["load"] == "pickle":
            self.connection.send_bytes(self.entry.payload)
        try:
            answer = self._receive(self.load_limit)
        except _Forfeit as forfeit:
            self.broken = f"{forfeit.value} while loading the strategy"
        else:
            if not answer.get("ok"):
                self.broken = str(answer.get("error", "the strategy could not be loaded"))[:300]
        if self.broken:
            self.kill()

    def _receive(self, limit: float) -> dict:
        """The worker's next answer within ``limit`` seconds, or a forfeit (the worker is killed)."""
        connection = self.connection
        try:
            if not connection.poll(limit):
                self.kill()
                raise _Forfeit("timeout", f"no answer within {limit:g} s", "the worker was stopped")
            answer = json.loads(connection.recv_bytes(MAX_MESSAGE))
            if not isinstance(answer, dict):
                raise ValueError("not a JSON object")
            return answer
        except (EOFError, ConnectionError):
            raise self._crashed() from None
        except (OSError, ValueError, UnicodeDecodeError) as error:
            self.kill()
            raise _Forfeit("malformed", "an unreadable answer from the worker", str(error)[:200]) from None

    def ask(self, moves: Sequence[tuple[int, int, Position]], limit: float) -> list:
        """Answers for several ``(seed, roll, position)`` moves, each within ``limit`` seconds of the previous one.

        Each item is the worker's answer (a dict), a forfeit (timeout, crash,
        load failure, unreadable answer), or None for a move left unanswered
        because an earlier one killed the worker: ask for it again.
        """
        if self.broken is None and self.process is None:
            self._start()
        if self.broken is not None:
            return [_Forfeit("load", self.broken, "the strategy could not be loaded")] * len(moves)
        try:
            for seed, roll, position in moves:
                self.connection.send_bytes(f"{seed} {roll} {position}".encode())
        except (OSError, ValueError):
            return [self._crashed()] + [None] * (len(moves) - 1)
        answers: list = []
        for _ in moves:
            try:
                answers.append(self._receive(limit))
            except _Forfeit as forfeit:
                answers.append(forfeit)
                break
        return answers + [None] * (len(moves) - len(answers))

    def _crashed(self) -> _Forfeit:
        """The worker died by itself: collect its exit status, forget it."""
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = "unknown"
        self.kill()
        return _Forfeit("crash", f"the worker exited (status {code})")

    def kill(self) -> None:
        """Stop the worker (SIGKILL to its whole process group: no signal handler can refuse)."""
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
            self.process = None
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def close(self) -> None:
        self.kill()


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


@dataclass(frozen=True)
class _Setup:
    seed: int | str
    per_move_limit: float
    max_turns: int
    board: int


def _stream_seed(seed, *keys) -> int:
    """An integer seed for a worker's generator: it reveals nothing of ``seed`` or the dice."""
    return seeded_rng(seed, *keys).getrandbits(64)


def _turn_from(answer: dict, roll: int) -> Turn:
    """Validate a worker's answer: a Turn for this roll, or a forfeit naming what is wrong."""
    kind, value = answer.get("kind"), str(answer.get("value", ""))[:300]
    if kind == "error":
        raise _Forfeit("exception", value, "the strategy raised an exception")
    if kind not in ("turn", "text"):
        raise _Forfeit("malformed", value, "a strategy returns a Turn or its notation string")
    try:
        turn = Turn.parse(value)
    except NotationError as error:
        raise _Forfeit("malformed", value, str(error)) from None
    if turn.roll != roll:
        raise _Forfeit("illegal", value, f"the die shows {roll}, not {turn.roll}")
    return turn


class _Game:
    """One game in progress: trusted bots move here, untrusted strategies' moves are asked for in batches."""

    def __init__(self, first: Entry, second: Entry, pair: int, first_seat: str, setup: _Setup) -> None:
        self.first, self.second, self.pair, self.first_seat = first, second, pair, first_seat
        self.setup = setup
        self.dice = seeded_rng(setup.seed, "dice", pair)  # the same dice for both games of the pair
        self.role = {first_seat: "first", other(first_seat): "second"}
        self.entries = {first_seat: first, other(first_seat): second}
        # Streams depend on the pairing and on which bot plays, never on a strategy's name: two students
        # scored with the same seed meet exactly the same dice and the same opponents' choices.
        keys = {
            seat: ("player", pair, first_seat, self.role[seat], self.entries[seat].bot or "strategy") for seat in "AB"
        }
        self.bot_rngs = {seat: seeded_rng(setup.seed, *keys[seat]) for seat in "AB" if self.entries[seat].trusted}
        self.move_seeds = {seat: _stream_seed(setup.seed, *keys[seat]) for seat in "AB"}
        self.position = Position.start(setup.board)
        self.turns = 0
        self.roll: int | None = None  # drawn once per move, kept while the answer is awaited
        self.outputs = {seat: collections.deque(maxlen=20) for seat in "AB"}
        self.printed = {"A": 0, "B": 0}
        self.forfeit: tuple | None = None

    @property
    def waiting_for(self) -> Entry:
        return self.entries[self.position.to_move]

    def _roll(self) -> int:
        if self.roll is None:
            self.roll = self.dice.randint(1, self.position.rules.die_sides)
        return self.roll

    def _play(self, turn: Turn) -> None:
        self.position = apply(self.position, turn)  # IllegalTurnError: the position is unchanged
        self.turns += 1
        self.roll = None

    def advance(self) -> GameRecord | None:
        """Play the bots' moves; the record once the game is over, else None (a worker's move is due)."""
        while self.forfeit is None and not self.position.is_over and self.turns < self.setup.max_turns:
            seat = self.position.to_move
            if not self.entries[seat].trusted:
                self._roll()
                return None
            roll = self._roll()
            turn = BOTS[self.entries[seat].bot](self.position, roll, self.bot_rngs[seat])
            self._play(turn)  # a bot's illegal turn is our bug: IllegalTurnError stops the run
        return self._record()

    def move_request(self) -> tuple[int, int, Position]:
        seat = self.position.to_move
        return (self.move_seeds[seat] + self.turns) % (1 << 64), self._roll(), self.position

    def receive(self, answer) -> None:
        """A worker's answer (or a forfeit) for the move due."""
        seat = self.position.to_move
        try:
            if isinstance(answer, _Forfeit):
                raise answer
            output, printed = answer.get("output"), answer.get("printed")
            if isinstance(output, list):
                self.outputs[seat].extend(str(line)[:200] for line in output[-20:])
            if isinstance(printed, int):
                self.printed[seat] += printed
            turn = _turn_from(answer, self.roll)
            try:
                self._play(turn)
            except IllegalTurnError as error:
                raise _Forfeit("illegal", str(turn), str(error)) from None
        except _Forfeit as forfeit:
            self.forfeit = (seat, forfeit.reason, forfeit.value, forfeit.message)

    def _record(self) -> GameRecord:
        capped = self.forfeit is None and not self.position.is_over
        winner = None
        forfeit = {}
        if self.forfeit is not None:
            seat, reason, value, message = self.forfeit
            winner = self.role[other(seat)]
            forfeit = dict(forfeit_by=self.role[seat], reason=reason, value=value, message=message,
                           output=tuple(self.outputs[seat]))
        elif self.position.result in ("A", "B"):
            winner = self.role[self.position.result]
        first_seat = self.first_seat
        return GameRecord(
            first=self.first.name,
            second=self.second.name,
            pair=self.pair,
            first_seat=first_seat,
            winner=winner,
            turns=self.turns,
            capped=capped,
            printed=(self.printed[first_seat], self.printed[other(first_seat)]),
            **forfeit,
        )


IN_FLIGHT = 64
"""Games played at once: one worker round trip then serves up to this many moves."""


def _play_tasks(entries: dict, tasks: Sequence[tuple[str, str, int]], setup: _Setup, finished) -> None:
    """Play the ``(first, second, pair)`` tasks here, one sandbox per untrusted entry, games interleaved.

    ``finished(record)`` is called as each game ends.
    """
    rules = Position.start(setup.board).rules
    sandboxes = {name: Sandbox(e, rules) for name, e in entries.items() if not e.trusted}
    waiting = collections.deque(
        _Game(entries[first], entries[second], pair, first_seat, setup)
        for first, second, pair in tasks
        for first_seat in ("A", "B")
    )
    active: list[_Game] = []
    try:
        while waiting or active:
            while waiting and len(active) < IN_FLIGHT:
                active.append(waiting.popleft())
            asking: dict[str, list[_Game]] = {}
            for game in active:
                record = game.advance()
                if record is None:
                    asking.setdefault(game.waiting_for.name, []).append(game)
                else:
                    finished(record)
            active = [game for games in asking.values() for game in games]
            for name, games in asking.items():
                answers = sandboxes[name].ask([game.move_request() for game in games], setup.per_move_limit)
                for game, answer in zip(games, answers):
                    if answer is not None:  # None: its worker was killed first; asked again next round
                        game.receive(answer)
    finally:
        for sandbox in sandboxes.values():
            sandbox.close()


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


def _play_parallel(entries: dict, tasks: list, setup: _Setup, workers: int, finished) -> None:
    """Split ``tasks`` over ``workers`` harness processes; ``finished(record)`` as records arrive."""
    processes = []
    arrived: queue.Queue = queue.Queue()

    def read(process: subprocess.Popen) -> None:
        try:
            while True:
                arrived.put(pickle.load(process.stdout))
        except EOFError:
            pass
        finally:
            arrived.put(process)

    try:
        for k in range(workers):
            chunk = tasks[k::workers]
            if not chunk:
                continue
            process = subprocess.Popen(
                [sys.executable, "-c", "from amoeboid_edu.lab import _serve_tasks; _serve_tasks()"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )
            pickle.dump(([entry or os.getcwd() for entry in sys.path], entries, chunk, setup), process.stdin)
            process.stdin.close()
            processes.append(process)
            threading.Thread(target=read, args=(process,), daemon=True).start()
        running = len(processes)
        while running:
            item = arrived.get()
            if isinstance(item, GameRecord):
                finished(item)
                continue
            running -= 1
            if item.wait() != 0:
                error = item.stderr.read().decode(errors="replace").strip().splitlines()
                raise RuntimeError(f"a harness process failed: {error[-1] if error else item.returncode}")
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stderr.close()
            process.stdout.close()


def _run(entries: dict, matches: list[tuple[str, str]], games: int, setup: _Setup, workers: int,
         progress: bool, description: str) -> list[GameRecord]:
    if not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be a positive even number (each dice seed is played twice), not {games!r}")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, not {workers!r}")
    if not setup.per_move_limit > 0:
        raise ValueError(f"the per-move limit must be a positive number of seconds, not {setup.per_move_limit!r}")
    Position.start(setup.board)  # a bad board size fails here, before any game
    tasks = [(first, second, pair) for first, second in matches for pair in range(games // 2)]
    from tqdm.auto import tqdm

    bar = tqdm(total=2 * len(tasks), desc=description, unit="game", delay=1.0, disable=not progress, leave=False)
    records: list[GameRecord] = []

    def finished(record: GameRecord) -> None:
        records.append(record)
        bar.update(1)

    try:
        if workers == 1:
            _play_tasks(entries, tasks, setup, finished)
        else:
            _play_parallel(entries, tasks, setup, workers, finished)
    finally:
        bar.close()
    order = {match: index for index, match in enumerate(matches)}
    return sorted(records, key=lambda r: (order[(r.first, r.second)], r.pair, r.first_seat))


# --------------------------------------------------------------------------- tables


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate: honest even for 0 or all wins and few games."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


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


def _tally(frame, by: str):
    """Wins, ties, losses, win rate with its Wilson interval, mean length and forfeits per ``by``."""
    import pandas as pd

    rows = []
    for key, group in frame.groupby(by, sort=False):
        wins, ties = int((group["result"] == "win").sum()), int((group["result"] == "tie").sum())
        games = len(group)
        low, high = wilson_interval(wins, games)
        rows.append(
            {
                by: key,
                "games": games,
                "wins": wins,
                "ties": ties,
                "losses": games - wins - ties,
                "win_rate": wins / games,
                "ci_low": low,
                "ci_high": high,
                "mean_turns": float(group["turns"].mean()),
                "forfeits": int((group["forfeit"] == "player").sum()),
            }
        )
    return pd.DataFrame(rows)


_FORMATS = {"win_rate": "{:.3f}".format, "ci_low": "{:.3f}".format, "ci_high": "{:.3f}".format,
            "mean_turns": "{:.1f}".format}


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


def _html(title: str, table, forfeits) -> str:
    from html import escape

    parts = [f"<div><strong>{escape(title)}</strong>", table.to_html(index=False, formatters=_FORMATS)]
    if len(forfeits):
        def pre(text: str) -> str:
            return f'<pre style="margin:0; text-align:left">{escape(str(text)[-600:])}</pre>'

        formatters = {column: (lambda text: escape(str(text))) for column in forfeits.columns}
        formatters.update({"value": pre, "last output": pre})
        parts += ["<p>Forfeits</p>", forfeits.to_html(index=False, escape=False, formatters=formatters)]
    return "\n".join(parts) + "</div>"


def _text(title: str, table, forfeits) -> str:
    lines = [title, table.to_string(index=False, formatters=_FORMATS)]
    if len(forfeits):
        lines.append("forfeits:")
        for row in forfeits.itertuples(index=False):
            lines.append(f"  {row.player}: {row.reason} x{row.games}: {row.value!r} ({row.message})")
            for line in str(row[5]).splitlines()[-5:]:
                lines.append(f"    | {line}")
    return "\n".join(lines)


def _chart(table, by: str, title: str):
    """Win rate per ``by`` with its 95% Wilson interval."""
    import altair as alt

    base = alt.Chart(table).encode(y=alt.Y(f"{by}:N", sort=None, title=None))
    bars = base.mark_bar().encode(
        x=alt.X("win_rate:Q", scale=alt.Scale(domain=[0, 1]), title="win rate (95% Wilson interval)"),
        tooltip=[by, "games", "wins", "ties", "losses", alt.Tooltip("win_rate:Q", format=".3f"), "forfeits"],
    )
    whiskers = base.mark_rule(color="black").encode(x="ci_low:Q", x2="ci_high:Q")
    even = alt.Chart().mark_rule(strokeDash=[4, 4], color="gray").encode(x=alt.datum(0.5))
    return alt.layer(bars, whiskers, even, data=table).properties(title=title, width=360)


@dataclass(frozen=True)
class ScoreCard:
    """How one strategy fared against each opponent: a table in a notebook, text in a terminal.

    ``summary()`` is the table, ``forfeits()`` the forfeits by reason, ``to_frame()``
    one row per game, ``chart()`` an Altair chart.  No wall-clock figures: the same
    seed gives the same card.
    """

    player: str
    seed: int | str
    records: tuple[GameRecord, ...]

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame(_side_rows(self.records, self.player))

    def summary(self):
        return _tally(self.to_frame(), "opponent")

    def forfeits(self):
        return _forfeit_table(self.to_frame())

    @property
    def title(self) -> str:
        return f"{self.player}: {len(self.records)} games, seed {self.seed}"

    def chart(self):
        return _chart(self.summary(), "opponent", self.title)

    def _repr_html_(self) -> str:
        return _html(self.title, self.summary(), self.forfeits())

    def __str__(self) -> str:
        return _text(self.title, self.summary(), self.forfeits())

    def __repr__(self) -> str:
        return f"<ScoreCard {self.title}>"


@dataclass(frozen=True)
class TournamentResult:
    """A round robin: ``table()`` ranks the strategies by win rate, with intervals."""

    names: tuple[str, ...]
    seed: int | str
    records: tuple[GameRecord, ...]

    def to_frame(self):
        """One row per game and side (each game appears twice, once from each player's side)."""
        import pandas as pd

        return pd.DataFrame([row for name in self.names for row in _side_rows(self.records, name)])

    def table(self):
        table = _tally(self.to_frame(), "player")
        table = table.sort_values(["win_rate", "player"], ascending=[False, True], kind="stable")
        table.insert(0, "rank", range(1, len(table) + 1))
        return table.reset_index(drop=True)

    def forfeits(self):
        return _forfeit_table(self.to_frame())

    @property
    def title(self) -> str:
        return f"round robin of {len(self.names)}: {len(self.records)} games, seed {self.seed}"

    def chart(self):
        return _chart(self.table(), "player", self.title)

    def _repr_html_(self) -> str:
        return _html(self.title, self.table(), self.forfeits())

    def __str__(self) -> str:
        return _text(self.title, self.table(), self.forfeits())

    def __repr__(self) -> str:
        return f"<TournamentResult {self.title}>"


# --------------------------------------------------------------------------- the API


def score(
    strategy: Strategy | str,
    games: int = 1000,
    seed: int | str = 0,
    *,
    opponents: Sequence[str] | None = None,
    per_move_limit: float = DEFAULT_PER_MOVE_LIMIT,
    workers: int = 1,
    board: int = 3,
    max_turns: int = MAX_TURNS,
    progress: bool = True,
    name: str | None = None,
) -> ScoreCard:
    """Play ``strategy`` against every baseline bot (``opponents``: names from ``BOTS``) and score it.

    ``games`` per opponent, an even number: ``games / 2`` dice seeds, each
    played twice with the seats swapped.  ``strategy`` is a function
    ``(position, roll, rng)``, an object with ``choose``, a name from ``BOTS``, or
    ``"module:function"`` / ``"path/to/file.py:function"``.  Untrusted strategies
    run in a worker process; a move slower than ``per_move_limit`` seconds, an
    exception, an illegal or malformed turn forfeits that game.  ``workers=K``
    plays in K processes with exactly the same results.  Most of the time goes
    to ``expectimax`` (about 15 ms a turn): leave it out of ``opponents`` for a
    quick look.  A game still going after ``max_turns`` counts as a tie (``capped``).
    """
    opponents = list(BOTS) if opponents is None else list(opponents)
    unknown = [o for o in opponents if o not in BOTS]
    if unknown or not opponents:
        raise ValueError(f"opponents are names from {sorted(BOTS)}, not {unknown or opponents}")
    subject = entry(strategy, name)
    if subject.name in opponents:
        subject = Entry(f"{subject.name} (player)", subject.bot, subject.load, subject.payload)
    entries = {subject.name: subject, **{o: Entry(o, bot=o) for o in opponents}}
    setup = _Setup(seed, float(per_move_limit), max_turns, board)
    matches = [(subject.name, o) for o in opponents]
    records = _run(entries, matches, games, setup, workers, progress, f"scoring {subject.name}")
    return ScoreCard(subject.name, seed, tuple(records))


def tournament(
    strategies: Sequence[Strategy | str],
    games: int = 100,
    seed: int | str = 0,
    *,
    per_move_limit: float = DEFAULT_PER_MOVE_LIMIT,
    workers: int = 1,
    board: int = 3,
    max_turns: int = MAX_TURNS,
    progress: bool = True,
) -> TournamentResult:
    """A round robin: every pair of ``strategies`` plays ``games`` games (paired dice, seats swapped).

    Strategies are given as for :func:`score`; repeated names get a number.
    ``workers=K`` plays in K processes, with results identical to the serial run.
    """
    entries: dict[str, Entry] = {}
    for strategy in strategies:
        item = entry(strategy)
        name, number = item.name, 2
        while name in entries:
            name, number = f"{item.name} {number}", number + 1
        entries[name] = Entry(name, item.bot, item.load, item.payload)
    if len(entries) < 2:
        raise ValueError("a tournament needs at least two strategies")
    names = list(entries)
    matches = [(first, second) for i, first in enumerate(names) for second in names[i + 1 :]]
    setup = _Setup(seed, float(per_move_limit), max_turns, board)
    records = _run(entries, matches, games, setup, workers, progress, "tournament")
    return TournamentResult(tuple(names), seed, tuple(records))


__all__ = ["GameRecord", "ScoreCard", "TournamentResult", "entry", "score", "tournament", "wilson_interval"]
