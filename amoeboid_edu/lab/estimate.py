"""How long a run of games will take, said near its start when it is long, and again if it turns out longer or shorter.

``score``, ``compare`` and ``tournament`` time their first games and, when the rest would take more than
:data:`LONG_RUN` seconds, print one line: the estimate and how to make the run shorter (fewer games, fewer
opponents, more worker processes), in both spellings (the API's ``games=40`` and the command line's
``--games 40``), since the same lab runs under both.  A student who asked for 200 games against four bots then
learns within seconds, not after ten minutes, that the card will take a while and what to change.

The estimate is the rate at which games have finished since the first ones did, times the games left: the first
games' wait (starting worker processes, importing the strategy) is a fixed cost, not a rate, and would make a
short run look long.  It is measured over :data:`CALIBRATION_SECONDS` or :data:`CALIBRATION_GAMES` games,
whichever comes first.  The run goes on being timed: a run that looked short on its first games but turns out
long says so then, and an estimate off by more than :data:`OFF_BY` is corrected (at most :data:`CORRECTIONS`
times, and not in the run's last :data:`LONG_RUN` / 2 seconds, where the progress bar says the rest).
"""

from __future__ import annotations

import math
import os
import time
from typing import Callable

LONG_RUN = 30.0
"""Seconds of games left above which a run says how long it will take and how to make it shorter."""
CALIBRATION_SECONDS = 3.0
"""The estimate is made once games have been finishing for this long (or :data:`CALIBRATION_GAMES` have)."""
CALIBRATION_GAMES = 20
"""... or once this many games have finished after the first ones."""
OFF_BY = 1.5
"""Once said, the estimate is said again (corrected) when the run, timed again as it goes, would take more than this
many times the duration said, or less than the duration said divided by it."""
CORRECTIONS = 2
"""Lines a run says at most after its first estimate: the run was timed again and turned out long, or off."""
RETIME_SECONDS = 30.0
"""After its first estimate, a run is timed again on the games of the last this many seconds (or the last tenth of
its games, at least :data:`CALIBRATION_GAMES`): recent games, so that a run that slows down is seen to."""
BURST = 0.25
"""Games that finish within this many seconds of each other's first count as one burst, timed at its end (a
tournament's batch reports its games all at once): the rate is measured from the end of the first burst to the end
of a later one."""

CLOCK: Callable[[], float] = time.monotonic
"""The seconds a run is timed with, unless it is given its own clock."""

Advice = Callable[[float], list[str]]
"""Given the factor by which the run is longer than :data:`LONG_RUN`, the ways to make it shorter, each a phrase."""


def cores() -> int:
    """The cores this process may use (what a suggestion of more workers can go up to)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def duration(seconds: float) -> str:
    """``seconds`` in words a student reads at a glance: "45 s", "9 min", "2.5 h"."""
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def fewer_games(games: int, factor: float, what: str = "games") -> str:
    """The phrase suggesting an even number of games (at least 2) that would take about :data:`LONG_RUN` seconds."""
    shorter = max(2, math.floor(games / factor / 2) * 2)
    return (f"fewer {what}, e.g. games={shorter} / --games {shorter} "
            f"(about {duration(LONG_RUN * factor * shorter / games)})")


def score_advice(games: int, opponents: list[str], workers: int, lanes: int) -> Advice:
    """How a score card (or a comparison) gets shorter: fewer games; fewer opponents, when it has several (naming
    them); more workers, when fewer are used than cores and lanes (an opponent and a seat) allow."""

    def ways(factor: float) -> list[str]:
        found = [fewer_games(games, factor)]
        if len(opponents) > 1:
            names = ",".join(opponents)
            found.append(f"fewer opponents (now {names}), e.g. opponents=[{opponents[0]!r}] / --opponents "
                         f"{opponents[0]}")
        more = min(cores(), lanes)
        if workers < more:
            found.append(f"more workers, workers={more} / --workers {more} (now {workers})")
        return found

    return ways


def tournament_advice(games: int, bots: list[str], processes: int | None) -> Advice:
    """How a tournament gets shorter: fewer games per pairing; fewer baseline bots, when it adds any; more processes,
    when it runs serially or on fewer processes than cores (``processes`` None: another executor, say Dask)."""

    def ways(factor: float) -> list[str]:
        found = [fewer_games(games, factor, "games per pairing")]
        if bots:
            found.append(f"fewer baseline bots (now {','.join(bots)}; opponents= / --opponents)")
        if processes is not None and processes < cores():
            found.append(f"more processes, executor=\"processes:{cores()}\" / --executor processes:{cores()}")
        return found

    return ways


class RunEstimate:
    """Times the games of one run as they finish (:meth:`finished`) and, once calibrated, writes one line with
    ``write`` if the games left would take more than :data:`LONG_RUN` seconds.

    ``what`` names the run ("scoring nina", "the tournament"); ``total`` is the number of games it plays;
    ``advice`` gives the ways to shorten it.  ``clock`` is the time in seconds (default :data:`CLOCK`).
    """

    def __init__(self, what: str, total: int, advice: Advice, write: Callable[[str], None],
                 clock: Callable[[], float] | None = None) -> None:
        self.what, self.total, self.advice, self.write = what, total, advice, write
        self.clock = CLOCK if clock is None else clock
        self.started = self.clock()
        self.done = 0
        self.burst: float | None = None  # when the latest burst of games began to finish
        self.first: tuple[float, int] | None = None  # the time and the games done at the end of the first burst
        self.last = (self.started, 0)  # the time and the games done at the latest report
        self.decided = False  # calibrated: the estimate was made (and said, if the run is long)
        self.mark: tuple[float, int] | None = None  # the time and the games done when it was last timed
        self.over = False  # every game has finished
        self.told: float | None = None  # the total duration said last, if any
        self.corrections = 0  # lines said after the first estimate
        self.said: str | None = None  # the line written last, if any

    def finished(self, games: int = 1) -> None:
        """``games`` more games of the run have finished."""
        if games <= 0 or self.over:
            return
        self.done += games
        now = self.clock()
        if self.done >= self.total:  # over: nothing more to say
            self.over = True
            return
        if self.burst is None or now - self.burst > BURST:  # a new burst: the one before it is over
            if self.burst is not None and self.first is None:
                self.first = self.last
            elif self.first is not None and not self.decided:
                since, counted = self.last[0] - self.first[0], self.last[1] - self.first[1]
                if since >= CALIBRATION_SECONDS or counted >= CALIBRATION_GAMES:
                    self._decide(now, since / counted * (self.total - self.done))
                    self.mark = self.last
            elif self.mark is not None:  # timed again on the games since the last time it was timed
                since, counted = self.last[0] - self.mark[0], self.last[1] - self.mark[1]
                if since >= RETIME_SECONDS or counted >= max(CALIBRATION_GAMES, self.total // 10):
                    self._decide(now, since / counted * (self.total - self.done))
                    self.mark = self.last
            self.burst = now
        self.last = (now, self.done)

    def _decide(self, now: float, left: float) -> None:
        """Say the estimate once calibrated, if the run is long; then, timed again at each burst, say it again when
        the run turns out long after all, or when the estimate said is off by more than :data:`OFF_BY`."""
        total = now - self.started + left
        if not self.decided:
            self.decided = True
            if left > LONG_RUN:
                self._say(total)
            return
        if self.corrections >= CORRECTIONS or left < LONG_RUN / 2:  # nearly over: the bar says the rest
            return
        if self.told is None:
            if left > LONG_RUN:  # it looked short on its first games
                self.corrections += 1
                self._say(total, again=True)
        elif not self.told / OFF_BY <= total <= self.told * OFF_BY:
            self.corrections += 1
            was = self.told
            self.told = total
            self.said = (f"{self.what}: now about {duration(total)} in all, {duration(left)} left (timed again after "
                         f"{self.done:,} of {self.total:,} games; it said about {duration(was)} before).")
            self.write(self.said)

    def _say(self, total: float, again: bool = False) -> None:
        ways = self.advice(total / LONG_RUN)
        shorten = f" To make it shorter: {'; or '.join(ways)}." if ways else ""
        timed = f"timed again after {self.done:,} games" if again else f"timed on the first {self.done:,}"
        self.told = total
        self.said = f"{self.what}: about {duration(total)} for {self.total:,} games ({timed}).{shorten}"
        self.write(self.said)


__all__ = ["LONG_RUN", "RunEstimate", "cores", "duration", "fewer_games", "score_advice", "tournament_advice"]
