"""Counting games: the one tally, its Wilson intervals, Bradley–Terry ratings, and their tables and charts.

Everything that counts wins uses :func:`tally` (long form: one row per group
and outcome, each rate with its 95% Wilson interval); the lab's score card and
tournament table (:func:`standings`), ``analysis.win_rates`` and the
tournament's leaderboard are views of it, drawn by the one :func:`rate_chart`
and, strategy against strategy, :func:`pairwise_chart`.  Below the lab, so
analysis can count without importing the sandbox.  pandas and Altair load on
first use.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

from ..engine.seeding import seed_bits

if TYPE_CHECKING:  # all three load on first use, not at import (every pool process of the lab imports this module)
    import altair as alt
    import numpy as np
    import pandas as pd


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate: honest even for 0 or all wins and few games."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def sign_test(better: int, worse: int) -> float:
    """The exact two-sided sign test's p-value: how likely a split at least this uneven is if both sides are equal.

    Exact for any count (the binomial law, no normal approximation), so it is honest with 5 pairs as with 5,000.
    """
    n, k = better + worse, min(better, worse)
    if n == 0:
        return 1.0
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


SIGNIFICANCE = 0.05
"""A paired difference is called when a split this uneven would come from equal strategies less than 5% of the time."""


def paired_verdict(pair_points: Sequence[float], opponent: str, alpha: float = SIGNIFICANCE) -> tuple[str, str]:
    """What the paired games support, in words: ``("beats greedy" | "loses to greedy" | "too close to call", why)``.

    ``pair_points``: the player's points (win 1, tie 1/2) in each dice pair's two games (seats swapped, same dice),
    so 0 to 2 and 1 is even.  The pairs that are not even go to a sign test (:func:`sign_test`): on the same dice,
    luck cancels out of a pair, and the test needs no assumption on how big a pair's difference may be.
    """
    if not pair_points:
        return "not enough games", "no dice pair was played in full (both seats)"
    better = sum(1 for points in pair_points if points > 1)
    worse = sum(1 for points in pair_points if points < 1)
    even = len(pair_points) - better - worse
    p = sign_test(better, worse)
    counts = (f"on the same dice (seats swapped) it did better on {better} of {len(pair_points)} dice pairs, worse on "
              f"{worse}, the same on {even}")
    if p < alpha:
        word = f"beats {opponent}" if better > worse else f"loses to {opponent}"
        chance = "less than 0.1%" if p < 0.001 else f"{p:.1%}"
        return word, f"{counts}; two equally good strategies split this unevenly {chance} of the time"
    return "too close to call", f"{counts}: could be luck; more games may tell them apart"


def rank_ranges(low: Sequence[float], high: Sequence[float]) -> list[tuple[int, int]]:
    """Each player's possible ranks (best, worst) given intervals ``[low, high]`` (higher is better).

    A player's rank is certain only against players whose interval does not overlap its own: it ranks below each
    player entirely above it, above each entirely below it, and could be on either side of the others.
    """
    ranges = []
    for i in range(len(low)):
        above = sum(1 for j in range(len(low)) if j != i and low[j] > high[i])
        below = sum(1 for j in range(len(low)) if j != i and high[j] < low[i])
        ranges.append((above + 1, len(low) - below))
    return ranges


# --------------------------------------------------------------------------- the tally


def tally(frame: pd.DataFrame, by: str, outcomes: Sequence[str], column: str = "result") -> pd.DataFrame:
    """Per group of ``by`` and per outcome: ``games, count, rate, low, high`` (95% Wilson), one row each."""
    import pandas as pd

    rows = []
    for key, group in frame.groupby(by, sort=False):
        games = len(group)
        for outcome in outcomes:
            count = int((group[column] == outcome).sum())
            low, high = wilson_interval(count, games)
            rows.append({by: key, "outcome": outcome, "games": games, "count": count, "rate": count / games,
                         "low": low, "high": high})  # fmt: skip
    return pd.DataFrame(rows, columns=[by, "outcome", "games", "count", "rate", "low", "high"])


SIDE_OUTCOMES = ("win", "tie", "loss")


def standings(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """From per-side game rows (``result`` win/tie/loss): wins, ties, losses and the win rate's interval per ``by``.

    Also the mean length and the forfeits by that side (``forfeit == "player"``).
    """
    import pandas as pd

    counts = tally(frame, by, SIDE_OUTCOMES).set_index([by, "outcome"])
    rows = []
    for key, group in frame.groupby(by, sort=False):
        win = counts.loc[(key, "win")]
        rows.append({by: key, "games": int(win["games"]), "wins": int(win["count"]),
                     "ties": int(counts.loc[(key, "tie"), "count"]), "losses": int(counts.loc[(key, "loss"), "count"]),
                     "win_rate": win["rate"], "ci_low": win["low"], "ci_high": win["high"],
                     "mean_turns": float(group["turns"].mean()),
                     "forfeits": int((group["forfeit"] == "player").sum())})  # fmt: skip
    return pd.DataFrame(rows, columns=[by, "games", "wins", "ties", "losses", "win_rate", "ci_low", "ci_high",
                                       "mean_turns", "forfeits"])  # fmt: skip


def pairwise_scores(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean score (win 1, tie 1/2) per ``(player, opponent)`` from per-side rows: ``player, opponent, games, score``."""
    points = frame["result"].map({"win": 1.0, "tie": 0.5, "loss": 0.0})
    grouped = frame.assign(points=points).groupby(["player", "opponent"], sort=True)["points"]
    return grouped.agg(games="size", score="mean").reset_index()


# --------------------------------------------------------------------------- ratings


def bradley_terry(score: np.ndarray, games: np.ndarray, prior: float = 1.0, tolerance: float = 1e-10) -> np.ndarray:
    """Bradley–Terry strengths, ``P(i beats j) = s_i / (s_i + s_j)``, by maximum likelihood (Newton's method).

    ``score[i, j]`` is what i scored against j (a tie counts 1/2 to each side),
    ``games[i, j]`` how many games they played.  ``prior`` virtual games, half
    won, against a reference player of strength 1 keep an unbeaten or winless
    strategy finite and fix the scale (0 for the plain maximum likelihood, which
    then needs a connected set of results and is normalised to a geometric mean of 1).
    The log-likelihood is concave in ``log s``, so Newton steps (capped at 2) converge
    in a few iterations where the classic MM iteration (Hunter 2004) needs thousands
    on lopsided results.
    """
    import numpy as np

    score, games = np.asarray(score, dtype=float), np.asarray(games, dtype=float)
    wins = score.sum(axis=1) + prior / 2
    theta = np.zeros(len(wins))
    for _ in range(200):
        p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j] = P(i beats j)
        reference = 1 / (1 + np.exp(-theta))
        gradient = wins - (games * p).sum(axis=1) - prior * reference
        weight = games * p * (1 - p)
        information = np.diag(weight.sum(axis=1) + prior * reference * (1 - reference)) - weight
        step = np.linalg.lstsq(information, gradient, rcond=None)[0] if prior == 0 else np.linalg.solve(
            information, gradient)
        theta += np.clip(step, -2, 2)
        if prior == 0:
            theta -= theta.mean()
        if np.max(np.abs(step)) < tolerance:
            break
    strengths: np.ndarray = np.exp(theta)
    return strengths


ELO_SCALE = 400 / math.log(10)
RATING_REFERENCE = 1500


def ratings(results: pd.DataFrame, names: Sequence[str], *, resamples: int = 200, seed: int | str = 0
            ) -> pd.DataFrame:
    """Bradley–Terry ratings on the Elo scale with 95% bootstrap intervals, one row per name.

    ``results`` has one row per game: ``first, second`` (names) and ``score`` (what
    ``first`` scored: 1, 1/2 or 0).  Rating = 1500 + 400·log10(strength), 1500 being the
    reference player of the prior (one virtual tie each).  Interval: the 2.5 and 97.5
    percentiles over ``resamples`` refits, each drawing every pairing's games again with
    replacement (seeded by ``seed``).
    """
    import numpy as np
    import pandas as pd

    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    firsts = results["first"].map(index).to_numpy()
    seconds = results["second"].map(index).to_numpy()
    scores = results["score"].to_numpy(dtype=float)

    def fit(weights: np.ndarray) -> np.ndarray:
        score, games = np.zeros((n, n)), np.zeros((n, n))
        np.add.at(score, (firsts, seconds), weights * scores)
        np.add.at(score, (seconds, firsts), weights * (1 - scores))
        np.add.at(games, (firsts, seconds), weights)
        np.add.at(games, (seconds, firsts), weights)
        fitted: np.ndarray = RATING_REFERENCE + ELO_SCALE * np.log(bradley_terry(score, games))
        return fitted

    rating = fit(np.ones(len(scores)))
    generator = np.random.default_rng(seed_bits(seed, "bootstrap", bits=128))
    pairing = firsts * n + seconds
    groups = [np.flatnonzero(pairing == key) for key in np.unique(pairing)]
    draws = np.empty((resamples, n))
    for b in range(resamples):
        weights = np.zeros(len(scores))
        for rows in groups:
            np.add.at(weights, generator.choice(rows, size=len(rows)), 1)
        draws[b] = fit(weights)
    low, high = np.percentile(draws, [2.5, 97.5], axis=0) if resamples else (rating, rating)
    # Rounded so that the last bits, which differ between CPUs' vector paths, reach no chart or saved notebook.
    rating, low, high = (np.round(values, 4) for values in (rating, low, high))
    return pd.DataFrame({"player": list(names), "rating": rating, "rating_low": low, "rating_high": high})


# --------------------------------------------------------------------------- tables and charts


FORMATS = {"win_rate": "{:.3f}".format, "ci_low": "{:.3f}".format, "ci_high": "{:.3f}".format,
           "mean_turns": "{:.1f}".format, "rating": "{:.0f}".format, "rating_low": "{:.0f}".format,
           "rating_high": "{:.0f}".format}  # fmt: skip


INTERVALS = (("win_rate", "ci_low", "ci_high", "win_rate (95%)"), ("rating", "rating_low", "rating_high", "rating (95%)"))
"""Columns a table shows as one, "value (low–high)" in :data:`FORMATS`' format: a leaderboard keeps its columns at
1280x720 with JupyterLab's file browser open (the frame itself keeps all three)."""


def with_intervals(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` for the eye: each value and its interval in one column (:data:`INTERVALS`); other columns as they are."""
    import pandas as pd

    shown = table.copy()
    for value, low, high, name in INTERVALS:
        if {value, low, high} <= set(shown.columns):
            form = FORMATS[value]
            merged = ["" if any(pd.isna(x) for x in row) else f"{form(row[0])} ({form(row[1])}–{form(row[2])})"
                      for row in zip(shown[value], shown[low], shown[high])]
            at = list(shown.columns).index(value)
            shown = shown.drop(columns=[value, low, high])
            shown.insert(at, name, pd.Series(merged, index=shown.index, dtype=object))
    return shown


def html_table(title: str, table: pd.DataFrame, notes: Sequence[tuple[str, pd.DataFrame]] = (), caption: str = "",
               details: str = "") -> str:
    """A titled table (``caption`` under the title, one paragraph a line), then each ``(heading, frame)`` note that
    has rows, then ``details`` folded under a "details" line (what only a teacher needs).

    A value and its interval share a column (:func:`with_intervals`); long text cells are kept in ``<pre>``.
    """
    from html import escape

    parts = [f"<div><strong>{escape(title)}</strong>", *(f"<p>{escape(line)}</p>" for line in caption.splitlines()),
             with_intervals(table).to_html(index=False, formatters=FORMATS)]
    for heading, frame in notes:
        if len(frame):
            def cell(text: object) -> str:
                text = escape(str(text))
                return f'<pre style="margin:0; text-align:left">{text[-600:]}</pre>' if "\n" in text or len(text) > 60 \
                    else text

            formatters = {column: cell for column in frame.columns}
            parts += [f"<p>{escape(heading)}</p>", frame.to_html(index=False, escape=False, formatters=formatters)]
    if details:
        parts.append(f"<details><summary>details</summary><p>{escape(details)}</p></details>")
    return "\n".join(parts) + "</div>"


def text_table(title: str, table: pd.DataFrame) -> str:
    return "\n".join([title, table.to_string(index=False, formatters=FORMATS)])


def rate_chart(frame: pd.DataFrame, by: str, title: str, *, even: bool = False) -> alt.LayerChart:
    """Rates per ``by`` with their 95% intervals; ``frame`` from :func:`tally` (one bar per outcome).

    ``even``: a dashed line at 1/2, where a win rate against equals lies.
    """
    import altair as alt

    outcomes = list(dict.fromkeys(frame["outcome"]))
    y = alt.Y(f"{by}:N", sort=None, title=None)
    rate = "rate (95% Wilson interval)"
    x = alt.X("rate:Q", scale=alt.Scale(domain=[0, 1]), title=rate)
    offset = alt.YOffset("outcome:N", scale=alt.Scale(domain=outcomes))
    color = alt.Color("outcome:N", scale=alt.Scale(domain=outcomes), legend=None if len(outcomes) == 1 else alt.Legend())
    tooltip = [alt.Tooltip(f"{by}:N"), alt.Tooltip("outcome:N"), alt.Tooltip("count:Q"), alt.Tooltip("games:Q"),
               alt.Tooltip("rate:Q", title=rate, format=".3f"),
               alt.Tooltip("low:Q", title="95% interval from", format=".3f"),
               alt.Tooltip("high:Q", title="to", format=".3f")]  # fmt: skip
    bars = alt.Chart(name="rate_bars").mark_bar().encode(x=x, y=y, yOffset=offset, color=color, tooltip=tooltip)
    whiskers = alt.Chart(name="rate_intervals").mark_rule(color="currentColor").encode(  # the theme's text colour
        x="low:Q", x2="high:Q", y=y, yOffset=offset
    )
    layers = [bars, whiskers]
    if even:
        layers.append(alt.Chart(name="rate_even").mark_rule(strokeDash=[4, 4], color="gray").encode(x=alt.datum(0.5)))
    chart: alt.LayerChart = alt.layer(*layers, data=frame).properties(name="win_rates", title=title, width=420)
    return chart


def pairwise_chart(frame: pd.DataFrame, title: str = "Score card: mean score (win 1, tie 1/2)") -> alt.LayerChart:
    """Strategy against strategy: each cell is the row player's mean score against the column player.

    ``frame`` from :func:`pairwise_scores` (columns ``player, opponent, games, score``).
    """
    import altair as alt

    x = alt.X("opponent:N", title="against")
    y = alt.Y("player:N", title="player")
    tooltip = [alt.Tooltip("player:N"), alt.Tooltip("opponent:N"), alt.Tooltip("games:Q"),
               alt.Tooltip("score:Q", format=".3f")]  # fmt: skip
    cells = alt.Chart(name="card_cells").mark_rect().encode(
        x=x, y=y, color=alt.Color("score:Q", scale=alt.Scale(domain=[0, 1], scheme="redblue")), tooltip=tooltip
    )
    labels = alt.Chart(name="card_labels").mark_text(fontSize=14).encode(
        x=x, y=y, text=alt.Text("score:Q", format=".2f"),
        color=alt.condition("datum.score < 0.2 || datum.score > 0.8", alt.value("#ffffff"), alt.value("#1a1a1a")),
    )  # dark text on the pale middle of the scale, white on its dark ends
    cell = {"width": alt.Step(64), "height": alt.Step(34)}  # room for "0.80" at 14 px, one number a cell
    chart: alt.LayerChart = alt.layer(cells, labels, data=frame).properties(name="score_card", title=title, **cell)
    return chart


def rating_chart(frame: pd.DataFrame, title: str = "Bradley–Terry rating (95% bootstrap interval)"
                 ) -> alt.LayerChart:
    """Each player's rating as a point with its interval; ``frame`` from :func:`ratings`."""
    import altair as alt

    y = alt.Y("player:N", sort=None, title=None)
    x = alt.X("rating:Q", title="rating (Elo scale)", scale=alt.Scale(zero=False))
    tooltip = [alt.Tooltip("player:N"), alt.Tooltip("rating:Q", format=".0f"),
               alt.Tooltip("rating_low:Q", format=".0f"), alt.Tooltip("rating_high:Q", format=".0f")]  # fmt: skip
    whiskers = alt.Chart(name="rating_intervals").mark_rule(color="currentColor").encode(  # the theme's text colour
        x="rating_low:Q", x2="rating_high:Q", y=y
    )
    points = alt.Chart(name="rating_points").mark_point(filled=True, size=60).encode(x=x, y=y, tooltip=tooltip)
    chart: alt.LayerChart = alt.layer(whiskers, points, data=frame).properties(name="ratings", title=title, width=420)
    return chart


__all__ = [
    "bradley_terry",
    "paired_verdict",
    "rank_ranges",
    "sign_test",
    "pairwise_chart",
    "pairwise_scores",
    "rate_chart",
    "rating_chart",
    "ratings",
    "standings",
    "tally",
    "wilson_interval",
]
