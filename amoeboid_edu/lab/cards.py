"""What a student and a teacher read: the score card, the tournament's table and its leaderboard page.

Both are tables of :class:`~amoeboid_edu.lab.records.GameRecord` seen from each player's side, with the forfeits
by reason, a chart, and plain sentences first (the walls and limits under "details"); HTML in a notebook, text in
a terminal, and a self-contained HTML page for the tournament (:func:`write_leaderboard`).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ParamSpec, Sequence, TypeVar

from ..engine.game import TURN_CAP, Game
from ..engine.match import play_match
from ..engine.rules import Position, other
from ..players.registry import BOTS
from ..players.strategy import Strategy
from ..sandbox.protocol import LOAD_LIMIT, wait_limit
from ..sandbox.text import shown
from ..sandbox.importpath import trusted_imports
from .ledger import write_whole
from .records import DEFAULT_PER_MOVE_LIMIT, FORFEIT_REASONS, PAIRED_DICE, GameRecord
from .stats import html_table, pairwise_chart, pairwise_scores, paired_verdict, rate_chart, rating_chart
from .stats import ratings, standings, tally, text_table

WAITED_NOTE = 0.05
"""Seconds on the wall clock a strategy's moves take on average (round trips included) from which the card says
that they waited: a move that sleeps uses no CPU time, and the per-move limit counts only that."""
WAITED_FACTOR = 3.0
"""... when that is also more than this many times their CPU time (a busy machine slows both alike)."""

if TYPE_CHECKING:
    import altair as alt
    import pandas as pd

Params = ParamSpec("Params")
Result = TypeVar("Result")

# --------------------------------------------------------------------------- tables


def _side_rows(records: Sequence[GameRecord], name: str) -> list[dict[str, object]]:
    """``name``'s games, one row each, from its side of the board; ``game`` is the record's index in ``records``."""
    rows = []
    for game, record in enumerate(records):
        if name not in (record.first, record.second):
            continue
        role = "first" if record.first == name else "second"
        opponent = record.second if role == "first" else record.first
        seat = record.first_seat if role == "first" else other(record.first_seat)
        result = "tie" if record.winner is None else ("win" if record.winner == role else "loss")
        forfeit = None if record.forfeit_by is None else ("player" if record.forfeit_by == role else "opponent")
        rows.append(
            {
                "game": game,
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


def _forfeit_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Forfeits by reason: how many, and the first one's game (its message may say "this move"), offending value,
    message and printed lines."""
    import pandas as pd

    mine = frame[frame["forfeit"] == "player"]
    rows = []
    groups = mine.groupby(["player", "reason"], sort=False)
    for (player, reason), group in sorted(groups, key=lambda item: (item[0][0], FORFEIT_REASONS.index(item[0][1]))):
        first = group.iloc[0]
        rows.append({"player": player, "reason": reason, "games": len(group), "first game": first["game"],
                     "value": first["value"], "message": first["message"], "last output": first["output"]})
    return pd.DataFrame(rows, columns=["player", "reason", "games", "first game", "value", "message", "last output"])


def _walls_line(records: Sequence[GameRecord], limits: tuple[float, float]) -> str:
    """Which walls stood around the untrusted strategies, and the two time limits."""
    walls = "; ".join(dict.fromkeys(record.isolation for record in records if record.isolation))
    load, move = limits
    dice = f"; dice: {PAIRED_DICE}" if walls else ""
    return f"isolation: {walls or 'none needed (trusted bots only)'}{dice}; limits: load {load:g} s, move {move:g} s"


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _forfeit_lines(forfeits: pd.DataFrame) -> list[str]:
    lines = ["forfeits:"] if len(forfeits) else []
    for row in forfeits.itertuples(index=False):
        lines.append(f"  {row.player}: {row.reason} x{row.games}: {row.value} (first in game {row[3]}: {row.message})")
        for line in str(row[6]).splitlines()[-5:]:
            lines.append(f"    | {line}")
    return lines


def _trusted(method: Callable[Params, Result]) -> Callable[Params, Result]:
    """Run ``method`` with :func:`~amoeboid_edu.sandbox.importpath.trusted_imports`: what drawing a card imports (pandas'
    and Altair's optional parts) is never looked for in the current folder, which may be the class folder."""

    @functools.wraps(method)
    def run(*args: Params.args, **kwargs: Params.kwargs) -> Result:
        with trusted_imports():
            return method(*args, **kwargs)

    return run


class _Standings:
    """What a score card and a tournament table share: per-side rows, the table, forfeits, chart, HTML and text."""

    records: tuple[GameRecord, ...]
    limits: tuple[float, float]
    by = "player"

    @property
    def title(self) -> str:
        raise NotImplementedError

    def _players(self) -> Sequence[str]:
        raise NotImplementedError

    @_trusted
    def to_frame(self) -> pd.DataFrame:
        """One row per game and side (a tournament's games appear twice, once from each player's side); ``game`` numbers
        them as ``games()``, ``game(i)`` and ``worst_losses()`` do."""
        import pandas as pd

        columns = ["game", "player", "opponent", "pair", "seat", "result", "turns", "capped", "forfeit", "reason",
                   "value", "message", "output", "printed"]  # fmt: skip
        return pd.DataFrame([row for name in self._players() for row in _side_rows(self.records, name)],
                            columns=columns)

    def table(self) -> pd.DataFrame:
        return standings(self.to_frame(), self.by)

    def forfeits(self) -> pd.DataFrame:
        return _forfeit_table(self.to_frame())

    @_trusted
    def chart(self) -> alt.TopLevelMixin:
        """Win rate per row of the table, with its 95% Wilson interval."""
        chart: alt.TopLevelMixin = rate_chart(tally(self.to_frame(), self.by, ("win",)), self.by, self.title, even=True)
        return chart

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
        return str(html_table(self.title, self.table(), self._notes(), caption="\n".join(self.plain()),
                              details=self.walls))

    def _terminal_plain(self) -> list[str]:
        """The sentences as a terminal prints them (where the numbers a notebook's card gives on request are due)."""
        return self.plain()

    def _text(self, plain: list[str]) -> str:
        return "\n".join([text_table("\n".join([self.title, *plain]), self.table()),
                          *_forfeit_lines(self.forfeits()),
                          f"details: {self.walls}"])

    @_trusted
    def __str__(self) -> str:
        """The card as text: the same seed gives the same text (the time per move's numbers are in ``timing()``)."""
        return self._text(self.plain())

    @_trusted
    def terminal(self) -> str:
        """The card as ``amoeboid score`` prints it: where no card is at hand to ask, with the time per move's numbers
        (a measured line: it differs from run to run)."""
        return self._text(self._terminal_plain())


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
    interrupted: bool = False  # stopped by the user: the games that finished first, not a fair sample (no verdict)
    by = "opponent"

    def _players(self) -> Sequence[str]:
        return [self.player]

    def summary(self) -> pd.DataFrame:
        return self.table()

    def table(self) -> pd.DataFrame:
        """Per opponent: the counts, the win rate's interval, and the ``verdict`` the paired games support."""
        table = super().table()
        verdicts = self.verdicts()
        return table.merge(verdicts[["opponent", "verdict"]], on="opponent", how="left")

    # -- what the numbers say

    def _side(self, record: GameRecord) -> int:
        """0 if the card's player is ``first`` in ``record``, else 1."""
        return 0 if record.first == self.player else 1

    def verdicts(self) -> pd.DataFrame:
        """Per opponent, in words: "beats greedy", "loses to paper" or "too close to call", and why; "every game
        forfeited" when the strategy finished no game (nothing to compare), "tied every game" when every game was a
        tie (more games would not tell them apart either).

        Each dice pair's two games (same dice, seats swapped) are one comparison, so luck cancels out; the pairs
        the player won or lost go to an exact sign test (:func:`~amoeboid_edu.lab.stats.paired_verdict`).  A pair cut
        short by an early stop is left out.
        """
        import pandas as pd

        points: dict[str, dict[int, list[float]]] = {}
        forfeited: dict[str, int] = {}
        capped: dict[str, int] = {}
        for record in self.records:
            side = self._side(record)
            role = ("first", "second")[side]
            opponent = (record.second, record.first)[side]
            got = 0.5 if record.winner is None else float(record.winner == role)
            points.setdefault(opponent, {}).setdefault(record.pair, []).append(got)
            forfeited[opponent] = forfeited.get(opponent, 0) + (record.forfeit_by == role)
            capped[opponent] = capped.get(opponent, 0) + record.capped
        rows = []
        for opponent, pairs in points.items():
            whole = [sum(games) for games in pairs.values() if len(games) == 2]
            played = sum(len(games) for games in pairs.values())
            verdict, why = paired_verdict(whole, opponent)
            if forfeited[opponent] == played:  # nothing was compared: the strategy never finished a game
                verdict, why = "every game forfeited", (f"all {played} {'game was' if played == 1 else 'games were'} "
                                                       "forfeited, so nothing says how it plays: fix the forfeits first")
            elif all(got == 0.5 for games in pairs.values() for got in games):
                at_cap = (f", {capped[opponent]} of them stopped at the {self.max_turns}-turn cap"
                          if capped[opponent] else "")
                verdict, why = "tied every game", (f"all {played} games were ties{at_cap}: more games would likely tie "
                                                   "too; they play alike on these positions")
            if self.interrupted:  # the games that finished first are the short ones: not a fair sample
                verdict, why = "stopped early", (f"only the {played} {'game' if played == 1 else 'games'} that "
                                                 "finished before the interrupt, and short games finish first, so "
                                                 "they are not a fair sample: run it again for a verdict")
            rows.append({"opponent": opponent, "verdict": verdict, "why": why})
        return pd.DataFrame(rows, columns=["opponent", "verdict", "why"])

    def plain(self, terminal: bool = False) -> list[str]:
        """The verdicts, the time per move, the cap and the hidden prints in sentences; in a ``terminal`` (where there
        is no card to ask) the time per move has its numbers."""
        lines = [f"Against {row.opponent}: {row.verdict} ({row.why})." if row.verdict in ("too close to call",
                 "not enough games", "every game forfeited", "tied every game", "stopped early") else f"{self.player} {row.verdict}: "
                 f"{row.why}."
                 for row in self.verdicts().itertuples()]
        mine = [(record, self._side(record)) for record in self.records]
        asked = sum(record.asked[side] for record, side in mine)
        limit = self.limits[1]
        timeouts = sum(record.reason == "timeout" and record.forfeit_by == ("first", "second")[side]
                       for record, side in mine)
        if timeouts:
            lines.append(f"Time per move: {timeouts:,} {'move' if timeouts == 1 else 'moves'} ran out of time (the "
                         f"limit is {limit:g} s of CPU time a move), each forfeiting its game: see the forfeits for "
                         "where.")
        elif asked:
            mean = sum(record.seconds[side] for record, side in mine) / asked
            slowest = max(record.slowest[side] for record, side in mine)
            numbers = f"{_duration(mean)} on average, {_duration(slowest)} at most"
            lines.append(f"Time per move: {numbers} of CPU time (the limit is {limit:g} s a move)."
                         if slowest > limit / 2 else
                         f"Time per move: every move well within the limit of {limit:g} s of CPU time ({numbers})."
                         if terminal else f"Time per move: every move well within the limit of {limit:g} s of CPU "
                         "time (card.timing() has the average and the slowest).")
            waited = sum(record.waited[side] for record, side in mine) / asked
            if waited >= WAITED_NOTE and waited > WAITED_FACTOR * mean:
                lines.append(f"Moves waited {_duration(waited)} on average (wall clock): the limit counts CPU time, "
                             f"the wait guard is {wait_limit(limit):g} s (a move that waits that long, in a "
                             "time.sleep or an input(), is stopped).")
        capped: dict[str, list[int]] = {}
        for i, (record, side) in enumerate(mine):
            if record.capped:
                capped.setdefault((record.second, record.first)[side], []).append(i)
        for opponent, games in capped.items():
            count = len(games)
            see = (f"amoeboid score ... --game {games[0]} prints the first of them" if terminal
                   else f"the capped column of card.games() lists them; card.game({games[0]}) is the first")
            lines.append(f"Against {opponent}: {count:,} {'game was' if count == 1 else 'games were'} stopped at the "
                         f"{self.max_turns}-turn cap with no winner, counted as {'a tie' if count == 1 else 'ties'} "
                         f"({see}).")
        lines_printed = sum(record.lines[side] for record, side in mine)
        if lines_printed:
            first = next(i for i, (record, side) in enumerate(mine) if record.lines[side])
            lines.append(f"Your strategy printed {lines_printed:,} lines (hidden): "
                         + (f"amoeboid score ... --printed {first} prints" if terminal else f"card.printed({first}) shows")
                         + f" the last lines it printed in game {first}.")
        return lines

    def _terminal_plain(self) -> list[str]:
        return self.plain(terminal=True)

    @_trusted
    def terminal(self) -> str:
        """The card as ``amoeboid score`` prints it, the early stop's "fix this first" line first, as in a notebook."""
        warning = f"⚠ {self.stopped}\n" if self.stopped else ""
        return warning + super().terminal()

    def timing(self) -> str:
        """The time per move, measured by the strategy's worker: the average and the slowest, against the limit.

        CPU time, as the limit counts it: the same strategy takes the same time on a busy machine as on an idle one."""
        mine = [(record, self._side(record)) for record in self.records]
        asked = sum(record.asked[side] for record, side in mine)
        if not asked:
            return "no move of this strategy was timed (a bot plays in this process)"
        mean = sum(record.seconds[side] for record, side in mine) / asked
        slowest = max(record.slowest[side] for record, side in mine)
        stopped = sum(record.reason == "timeout" and record.forfeit_by == ("first", "second")[side]
                      for record, side in mine)
        over = (f"; {stopped:,} more {'was' if stopped == 1 else 'were'} stopped at the limit (forfeits: timeout)"
                if stopped else "")
        return (f"{_duration(mean)} on average, {_duration(slowest)} at most over {asked:,} moves that answered in "
                f"time, in CPU time (the limit is {self.limits[1]:g} s of CPU time a move){over}")

    # -- the games themselves

    def _record(self, i: int) -> GameRecord:
        if not isinstance(i, int) or isinstance(i, bool) or not -len(self.records) <= i < len(self.records):
            raise IndexError(f"game {i!r}: this card has games 0 to {len(self.records) - 1} (see card.games())")
        return self.records[i]

    def games(self) -> pd.DataFrame:
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

    def game(self, i: int) -> Game:
        """Game ``i`` as a :class:`~amoeboid_edu.engine.game.Game`: ``Replay(card.game(i))``, ``coach.review(card.game(i))``.

        Its turns are the ones played on the card (a forfeited game stops before the refused turn).
        """
        game = Game(Position.start(self.board), seed=f"{self.seed} card game {i}")
        for turn in self._record(i).played():
            game.play(turn)
        return game

    def worst_losses(self, n: int = 5) -> pd.DataFrame:
        """Your ``n`` quickest defeats on the board (forfeits are in ``forfeits()``): the games to look at first."""
        games = self.games()
        lost = games[(games["result"] == "loss") & games["forfeit"].isna()]
        return lost.sort_values(["turns", "game"], kind="stable").head(n).reset_index(drop=True)

    def printed(self, i: int) -> str:
        """The last lines your strategy printed in game ``i`` (the lab hides them while it plays)."""
        record = self._record(i)
        return "\n".join(record.outputs[self._side(record)])

    def replay(self, i: int, strategy: Strategy, opponent: Strategy | None = None) -> Game:
        """Play game ``i`` again in this process with ``strategy`` (and ``opponent``, needed when it is not a bot):
        the same dice, seats and random streams, so the same strategy plays the same turns (a :class:`Game`).

        The code runs here, unprotected: replay your own strategy, not a classmate's.  A strategy that uses the
        module ``random`` instead of its ``rng`` may play differently.
        """
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
        return warning + super()._repr_html_() + str(chart_html(self.chart()))

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
    uncounted: int = 0  # games played (and counted by the progress bar) by entrants that then did not load

    def _players(self) -> Sequence[str]:
        return self.names

    @functools.cached_property
    def ratings(self) -> pd.DataFrame:
        """Bradley–Terry ratings (Elo scale) with 95% bootstrap intervals, refits seeded by the tournament's seed."""
        import pandas as pd

        points = {"first": 1.0, "second": 0.0, None: 0.5}
        games = pd.DataFrame({"first": [r.first for r in self.records], "second": [r.second for r in self.records],
                              "score": [points[r.winner] for r in self.records]})  # fmt: skip
        return ratings(games, self.names, seed=self.seed)

    def table(self) -> pd.DataFrame:
        table = standings(self.to_frame(), "player").merge(self.ratings, on="player")
        table = table.sort_values(["rating", "player"], ascending=[False, True], kind="stable")
        table.insert(0, "rank", range(1, len(table) + 1))
        ranges = _rank_ranges(table)
        table.insert(1, "could_be", [str(best) if best == worst else f"{best}-{worst}" for best, worst in ranges])
        columns = ["rank", "could_be", "player", "games", "wins", "ties", "losses", "win_rate", "ci_low", "ci_high",
                   "rating", "rating_low", "rating_high", "forfeits"]  # fmt: skip
        return table[columns].reset_index(drop=True)

    def plain(self) -> list[str]:
        """No strategy loaded: a sentence instead of an empty table; otherwise what the ranks can and cannot say."""
        if len(self.names) < 2:
            loaded = f"only {self.names[0]} loaded" if self.names else "no strategy loaded"
            return [f"No tournament: {loaded}. Each file that did not load is listed below with its error: fix those "
                    "(or run `amoeboid score FILE.py` on one, `amoeboid score NAME/` on a student folder, to see the "
                    "problem: it plays the hand-in as the tournament does, without the files beside it) and run the "
                    "tournament again."]
        ranges = [value for value in self.table()["could_be"] if "-" in value]
        if not ranges:
            return ["Every rank is clear: no two players' rating intervals or win-rate intervals overlap."]
        return [f"Could be: a rank range under 'could_be' such as {ranges[0]} means that player's rating or win-rate "
                "interval overlaps others', so with other dice they could have finished anywhere in that range: their "
                "order may be luck. Play more games to separate them."]

    @_trusted
    def rating_chart(self) -> alt.TopLevelMixin:
        chart: alt.TopLevelMixin = rating_chart(self.table()[["player", "rating", "rating_low", "rating_high"]],
                                                title=f"{self.title}: Bradley–Terry rating (95% bootstrap interval)")
        return chart

    @_trusted
    def pairwise_chart(self) -> alt.TopLevelMixin:
        chart: alt.TopLevelMixin = pairwise_chart(pairwise_scores(self.to_frame()),
                                                  title=f"{self.title}: mean score, row against column")
        return chart

    def not_loaded_table(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame([{"player": name, "did not load": error} for name, error in self.not_loaded],
                            columns=["player", "did not load"])

    def _notes(self) -> list[tuple[str, object]]:
        return [("Did not load", self.not_loaded_table()), ("Forfeits", self.forfeits())]

    @property
    def title(self) -> str:
        seed = self.seed if self.seed_label is None else self.seed_label
        left_out = (f" (and {self.uncounted:,} of entrants that did not load, not counted)" if self.uncounted
                    else "")
        return f"round robin of {len(self.names)}: {len(self.records)} games{left_out}, seed {seed}"

    def __str__(self) -> str:
        lines = [f"{name}: did not load: {error}" for name, error in self.not_loaded]
        if len(self.names) < 2:
            return "\n".join([*self.plain(), *lines])
        return "\n".join([super().__str__(), *lines])

    def _repr_html_(self) -> str:
        if len(self.names) < 2:
            return str(html_table(self.title, self.not_loaded_table(), caption="\n".join(self.plain())))
        return super()._repr_html_()

    def __repr__(self) -> str:
        return f"<TournamentResult {self.title}>"



def _rank_ranges(table: pd.DataFrame) -> list[tuple[int, int]]:
    """Each row's possible ranks (best, worst): a player is surely above another only when both its rating interval
    and its win-rate interval lie entirely above the other's.  Both, because with few games the bootstrap can give
    ratings intervals that are narrow, even a single point (every refit of four games agrees), while the win rates'
    Wilson intervals stay as wide as the sample size says."""
    rating = list(zip(table["rating_low"], table["rating_high"]))
    rate = list(zip(table["ci_low"], table["ci_high"]))

    def above(j: int, i: int) -> bool:
        return bool(rating[j][0] > rating[i][1] and rate[j][0] > rate[i][1])

    count = len(rating)
    return [(1 + sum(above(j, i) for j in range(count) if j != i), count - sum(above(i, j) for j in range(count) if j != i))
            for i in range(count)]


@_trusted
def write_leaderboard(result: TournamentResult, path: str | os.PathLike[str]) -> Path:
    """The leaderboard as one self-contained HTML file: the table, then the charts as inline SVG (no network).

    Without vl-convert (a browser kernel) the charts are drawn by vega-embed when the page is opened.
    """
    from ..ui.charts import browser_chart_html

    to_svg: Callable[[dict[str, Any]], str] | None
    try:
        from vl_convert import vegalite_to_svg as to_svg
    except ImportError:
        to_svg = None

    charts = [result.rating_chart(), result.chart(), result.pairwise_chart()]
    # drawn to SVG here when vl-convert is installed, else by vega-embed in the reader's browser
    svgs = [to_svg(chart.to_dict()) if to_svg else browser_chart_html(chart) for chart in charts]
    page = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8"><title>Amoeboid tournament</title></head><body>',
            result._repr_html_(), *(f"<div>{svg}</div>" for svg in svgs), "</body></html>"]  # fmt: skip
    written = Path(path)
    write_whole(written, "\n".join(page))  # a fresh file renamed over: a link planted there is never followed
    return written



__all__ = ["ScoreCard", "TournamentResult", "write_leaderboard"]
