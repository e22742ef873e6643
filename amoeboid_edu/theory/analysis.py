"""Numbers and charts about games: tidy frames, Monte Carlo runners, exact dice walks, Altair charts.

Everything here is computed at call time from the rules and seeded streams, so a
lesson's output reproduces exactly.  Three kinds of tools:

* **frames** — :func:`game_frame` (one row per turn of one game) and
  :func:`games_frame` (many games, a ``game`` column), plus :func:`play_games`
  and :func:`random_results` to produce them from seeded games;
* **the dice alone** — delta depends only on the rolls, never on the choices, so
  its law is a random walk: :func:`delta_distribution` (exact, with
  ``Fraction``), :func:`exceedance_curve` (P_M(n) by dynamic programming) and the
  numpy-vectorised :func:`dice_walks` / :func:`exceedance_monte_carlo`;
* **charts** — one function per chart, each taking a tidy frame and returning
  an Altair chart whose every name is explicit (no auto-generated ids), and
  :func:`amoeboid_edu.ui.charts.save_chart` draws any of them to PNG/SVG for slides.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterable, Iterator, Sequence

import altair as alt
import numpy as np
import pandas as pd

from ..engine.game import CAPPED, TURN_CAP, Game, random_playout
from ..engine.seeding import seed_bits, seed_text, seeded_rng
from ..engine.match import play_match
from ..engine.rules import DEFAULT_RULES, Board, Position, Rules, Turn
from ..lab.stats import pairwise_chart, pairwise_scores, rate_chart, tally, wilson_interval
from ..players.strategy import Strategy, strategy_name

FRAME_COLUMNS = (
    "game", "turn", "player", "roll", "notation", "grow", "move", "event", "sigma_A", "sigma_B", "delta",
    "Sigma_A", "Sigma_B", "Delta", "amoebae_A", "amoebae_B", "result", "position",
)  # fmt: skip


# --------------------------------------------------------------------------- frames of games


def turn_event(before: Position, turn: Turn, after: Position) -> str:
    """What a turn did, in the paper's words: ``move``, ``split``, ``eat``, ``neutralise`` or ``pass``.

    An *eat* is a move onto an occupied cell; it is a *neutralise* when the
    amoeba it leaves there is neutral (the paper's Case III tool).
    """
    if turn.src is None or turn.dst is None:  # a pass: a turn has both cells of its move or neither
        return "pass"
    if before[turn.dst] is None:
        return "move" if after[turn.src] is None else "split"
    landed = after[turn.dst]
    assert landed is not None, "a move leaves an amoeba on its destination"
    return "neutralise" if landed.is_neutral else "eat"


def game_frame(game: Game, game_id: int | str = 0, *, start: bool = False) -> pd.DataFrame:
    """One row per turn (the position after it): the paper's quantities and what happened.

    Columns: ``game, turn, player, roll, notation, grow, move, event, sigma_A,
    sigma_B, delta, Sigma_A, Sigma_B, Delta, amoebae_A, amoebae_B, result,
    position`` (the position in notation).  ``start=True`` adds turn 0, the
    start position (event ``start``), so a chart of a game draws a line from
    its first turn on.
    """
    rows = []
    if start:
        first = game.positions[0]
        rows.append(dict(
            turn=0, player="", roll=None, notation="(start)", grow="", move="", event="start",
            **{name: getattr(first, name) for name in ("sigma_A", "sigma_B", "delta", "Sigma_A", "Sigma_B", "Delta")},
            result=first.result, amoebae_A=len(first.owned("A")), amoebae_B=len(first.owned("B")),
        ))  # fmt: skip
    for row, turn, before, after in zip(game.rows(), game.turns, game.positions, game.positions[1:]):
        row.update(
            grow=turn.grow,
            move="-" if turn.is_pass else f"{turn.src}-{turn.dst}",
            event=turn_event(before, turn, after),
            amoebae_A=len(after.owned("A")),
            amoebae_B=len(after.owned("B")),
        )
        rows.append(row)
    for row, position in zip(rows, game.positions if start else game.positions[1:]):
        row.update(game=game_id, position=str(position))
    return pd.DataFrame(rows, columns=list(FRAME_COLUMNS))


def games_frame(games: Iterable[Game], ids: Iterable[int | str] | None = None) -> pd.DataFrame:
    """Many games in one tidy frame, told apart by the ``game`` column (default ids 0, 1, 2, ...)."""
    games = list(games)
    ids = range(len(games)) if ids is None else list(ids)
    frames = [game_frame(game, game_id) for game, game_id in zip(games, ids)]
    if not frames:
        return pd.DataFrame(columns=list(FRAME_COLUMNS))
    return pd.concat(frames, ignore_index=True)


def play_game(
    strategy_a: Strategy,
    strategy_b: Strategy,
    *,
    seed: int | str = 0,
    index: int = 0,
    start: Position | None = None,
    max_turns: int = TURN_CAP,
) -> Game:
    """One seeded game (:func:`~amoeboid_edu.engine.match.play_match`, dice-seed index ``index``) as a :class:`Game`."""
    match = play_match(strategy_a, strategy_b, seed=seed, pair=index, start=start, max_turns=max_turns)
    game = Game(match.start, turn_cap=max_turns)
    for turn in match.turns:
        game.play(turn)
    return game


def play_games(
    strategy_a: Strategy, strategy_b: Strategy, games: int, *, seed: int | str = 0, start: Position | None = None,
    max_turns: int = TURN_CAP,
) -> list[Game]:  # fmt: skip
    """``games`` seeded games (game ``i`` uses streams keyed by ``i``, so any subset reproduces alone)."""
    return [
        play_game(strategy_a, strategy_b, seed=seed, index=i, start=start, max_turns=max_turns) for i in range(games)
    ]


def final_row(position: Position, game_id: int | str, turns: int, label: str) -> dict[str, object]:
    """The end of one game as a row: result and the paper's quantities in the final position."""
    return {
        "game": game_id,
        "players": label,
        "turns": turns,
        "result": position.result if position.is_over else CAPPED,  # not over at its end: stopped by the cap
        "last_mover": "A" if position.to_move == "B" else "B",
        "sigma_A": position.sigma_A,
        "sigma_B": position.sigma_B,
        "delta": position.delta,
        "Sigma_A": position.Sigma_A,
        "Sigma_B": position.Sigma_B,
        "Delta": position.Delta,
    }


def random_results(games: int, *, seed: int | str = 0, board: int | Board = 3, max_turns: int = TURN_CAP) -> pd.DataFrame:
    """Final rows of ``games`` seeded random-player games (fast playouts): one row per game."""
    start = Position.start(board)
    rows = []
    for i in range(games):
        playout = random_playout(start, seeded_rng(seed, "random-game", i), max_turns)
        rows.append(final_row(playout.final, i, playout.turns, "random_turn v random_turn"))
    return pd.DataFrame(rows)


def match_results(
    strategy_a: Strategy, strategy_b: Strategy, games: int, *, seed: int | str = 0, max_turns: int = TURN_CAP
) -> pd.DataFrame:
    """Final rows of ``games`` seeded games between two strategies (labelled ``"A-name v B-name"``)."""
    label = f"{strategy_name(strategy_a)} v {strategy_name(strategy_b)}"
    rows = []
    for i in range(games):
        game = play_game(strategy_a, strategy_b, seed=seed, index=i, max_turns=max_turns)
        rows.append(final_row(game.position, i, len(game), label))
    return pd.DataFrame(rows)


def dkw_band(samples: int, confidence: float = 0.95) -> float:
    """Half-width of a simultaneous band for an empirical CDF (Dvoretzky-Kiefer-Wolfowitz).

    P_M(n) over all n is the CDF of the turn at which delta first passes M, so a
    Monte Carlo curve from ``samples`` walks stays within this distance of the exact
    curve at every n at once with probability at least ``confidence``.
    """
    return math.sqrt(math.log(2 / (1 - confidence)) / (2 * samples))


def win_rates(results: pd.DataFrame, by: str = "players") -> pd.DataFrame:
    """Per group: games, wins of A and B, ties, each rate with a 95% Wilson interval (tidy: one row per outcome)."""
    return tally(results, by, ("A", "B", "tie", CAPPED))


# --------------------------------------------------------------------------- the dice alone: exact


def _half_round_steps(turns: int) -> list[int]:
    """+1 for A's turns, -1 for B's: turn 1 is A's."""
    return [1 if t % 2 == 1 else -1 for t in range(1, turns + 1)]


def _roll(law: dict[int, Fraction], sign: int, outcomes: Iterable[tuple[int, Fraction]]) -> dict[int, Fraction]:
    """The law of delta one roll later: the convolution with the die, added (+1, A) or subtracted (-1, B)."""
    step: dict[int, Fraction] = {}
    for value, p in law.items():
        for roll, q in outcomes:
            key = value + sign * roll
            step[key] = step.get(key, 0) + p * q
    return step


def _delta_laws(turns: int, rules: Rules) -> Iterator[dict[int, Fraction]]:
    """The exact law of delta after turn 0, 1, ..., ``turns`` (one convolution per turn)."""
    law = {0: Fraction(1)}
    outcomes = rules.dice_outcomes()
    yield law
    for sign in _half_round_steps(turns):
        law = _roll(law, sign, outcomes)
        yield law


def delta_distribution(turns: int, rules: Rules = DEFAULT_RULES) -> dict[int, Fraction]:
    """The exact law of delta after ``turns`` turns (A moves first), by convolution with the die.

    delta only counts rolls, and every turn has exactly one roll whatever the
    players choose, so this is the law in every game that lasts that long.
    """
    *_, law = _delta_laws(turns, rules)
    return dict(sorted(law.items()))


def delta_law_frame(turns: int, rules: Rules = DEFAULT_RULES) -> pd.DataFrame:
    """After every turn 0..``turns``: mean, variance and symmetry of delta, exactly (Fractions)."""
    rows = []
    for t, law in enumerate(_delta_laws(turns, rules)):
        mean = sum(k * p for k, p in law.items())
        variance = sum((k - mean) ** 2 * p for k, p in law.items())
        symmetric = all(law.get(-k, 0) == p for k, p in law.items())
        rows.append({"turn": t, "round": t / 2, "after": "start" if t == 0 else ("A" if t % 2 else "B"),
                     "mean": mean, "variance": variance, "symmetric": symmetric,
                     "P(delta>0)": sum(p for k, p in law.items() if k > 0)})  # fmt: skip
    return pd.DataFrame(rows)


def exceedance_exact(level: int, turns: int, rules: Rules = DEFAULT_RULES) -> list[Fraction]:
    """P_M(n) for n = 0..``turns``, exactly: the probability that delta > ``level`` at some turn <= n.

    Dynamic programming over the walk with the walks that have passed ``level``
    absorbed.  Exact but slow (Fractions): for short horizons and cross-checks.
    """
    law = {0: Fraction(1)} if level >= 0 else {}  # below 0 the level is passed before the first turn
    passed = Fraction(1) if level < 0 else Fraction(0)
    curve = [passed]
    outcomes = rules.dice_outcomes()
    for sign in _half_round_steps(turns):
        step = _roll(law, sign, outcomes)
        passed += sum(p for value, p in step.items() if value > level)
        law = {value: p for value, p in step.items() if value <= level}
        curve.append(passed)
    return curve


def exceedance_curve(level: int, turns: int, rules: Rules = DEFAULT_RULES, *, width_sd: float = 12.0) -> np.ndarray:
    """P_M(n) for n = 0..``turns`` by the same dynamic programming in float64 (fast, long horizons).

    Each turn is one ``np.convolve`` with the die, so 60,000 turns take about
    a second.  Walks further than ``width_sd`` standard deviations below
    ``level`` are dropped (mass below 1e-30); rounding error stays far below
    1e-9 (the tests compare with :func:`exceedance_exact`).
    """
    sides = rules.die_sides
    variance_per_turn = (sides * sides - 1) / 12
    size = int(level + width_sd * math.sqrt(variance_per_turn * turns) + 2 * sides + 2)
    # index i <-> delta = level - i: A's rolls move down the array, B's move up; index < 0 has passed the level
    law = np.zeros(size)
    if level >= 0:
        law[level] = 1.0
    passed = 1.0 if level < 0 else 0.0
    curve = np.empty(turns + 1)
    curve[0] = passed
    die = np.full(sides, 1.0 / sides)
    for t in range(1, turns + 1):
        spread = np.convolve(law, die)  # spread[k] = mean of law[k - sides + 1 .. k]
        if t % 2:  # A rolls r: index i -> i - r; the first `sides` entries hold what passes the level
            passed += float(spread[:sides].sum())
            law = np.concatenate((spread[sides:], [0.0]))
        else:  # B rolls r: index i -> i + r; what leaves the far end is dropped
            law = np.concatenate(([0.0], spread[: size - 1]))
        curve[t] = passed
    return curve


def turns_to_reach(curve: Sequence[float], probability: float) -> int | None:
    """The first n with P_M(n) >= ``probability`` on a computed curve (None if not reached)."""
    hits = np.nonzero(np.asarray(curve, dtype=float) >= probability)[0]
    return int(hits[0]) if len(hits) else None


# --------------------------------------------------------------------------- the dice alone: Monte Carlo


def numpy_rng(seed: int | str, *keys: object) -> np.random.Generator:
    """A numpy generator derived from :func:`seeded_rng` (same seed and keys, same stream)."""
    return np.random.default_rng(seed_bits(seed, "numpy", *keys, bits=128))


def dice_walks(walks: int, turns: int, *, seed: int | str = 0, rules: Rules = DEFAULT_RULES) -> np.ndarray:
    """delta after each of ``turns`` turns for ``walks`` independent games' dice, shape (walks, turns).

    Column 0 is after A's first roll.  Vectorised (int8 rolls, int16 sums when
    they fit): a million walks of 100 rounds take about a second (``bench/theory.py``).
    """
    # generated turn-major so that the running sum adds whole contiguous rows (twice as fast as along rows)
    steps = numpy_rng(seed, "dice-walks", walks, turns).integers(
        1, rules.die_sides + 1, size=(turns, walks), dtype=np.int8 if rules.die_sides < 128 else np.int32
    )
    steps[1::2] *= -1  # B's rolls count against A
    total = np.int16 if rules.die_sides * turns < np.iinfo(np.int16).max else np.int64
    walked: np.ndarray = np.cumsum(steps, axis=0, dtype=total).T
    return walked


def exceedance_monte_carlo(
    levels: Sequence[int], turns: int, walks: int, *, seed: int | str = 0, rules: Rules = DEFAULT_RULES,
    chunk: int = 50_000,
) -> pd.DataFrame:  # fmt: skip
    """P_M(n) estimated from ``walks`` seeded dice walks, with 95% Wilson intervals.

    Rows ``turn, M, probability, low, high, method="Monte Carlo"`` for n = 1..turns.
    """
    hits = np.zeros((len(levels), turns), dtype=np.int64)
    for number, begin in enumerate(range(0, walks, chunk)):
        size = min(chunk, walks - begin)
        highest = np.maximum.accumulate(dice_walks(size, turns, seed=seed_text(seed, number), rules=rules), axis=1)
        for i, level in enumerate(levels):
            hits[i] += (highest > level).sum(axis=0)
    rows = []
    for i, level in enumerate(levels):
        for t in range(turns):
            low, high = wilson_interval(int(hits[i, t]), walks)
            rows.append({"turn": t + 1, "M": level, "probability": hits[i, t] / walks, "low": low, "high": high,
                         "method": "Monte Carlo"})  # fmt: skip
    return pd.DataFrame(rows)


def exceedance_frame(
    levels: Sequence[int], turns: int, rules: Rules = DEFAULT_RULES, *, every: int = 1
) -> pd.DataFrame:
    """The exact (dynamic programming) P_M(n) curves as rows ``turn, M, probability, method``."""
    rows = []
    for level in levels:
        curve = exceedance_curve(level, turns, rules)
        for t in range(0, turns + 1, every):
            rows.append({"turn": t, "M": level, "probability": float(curve[t]), "method": "exact (DP)"})
    return pd.DataFrame(rows)


def delta_samples_frame(rounds: int, walks: int, *, seed: int | str = 0, rules: Rules = DEFAULT_RULES) -> pd.DataFrame:
    """delta after ``rounds`` full rounds: Monte Carlo frequencies next to the exact law (long form).

    Rows ``delta, probability, source`` with source ``"exact"`` or ``"Monte Carlo"``.
    """
    final = dice_walks(walks, 2 * rounds, seed=seed, rules=rules)[:, -1] if rounds else np.zeros(walks, dtype=int)
    values, counts = np.unique(final, return_counts=True)
    exact = delta_distribution(2 * rounds, rules)
    rows = [{"delta": k, "probability": float(p), "source": "exact"} for k, p in exact.items()]
    rows += [{"delta": int(k), "probability": c / walks, "source": "Monte Carlo"} for k, c in zip(values, counts)]
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- charts


QUANTITIES = ("δ", "Δ")  # how charts label delta (advantage 1) and Delta (advantage 2)
DELTA_NOTE = "δ is dashed, drawn over Δ: where one line shows, δ = Δ"


def delta_chart(frame: pd.DataFrame, title: str = "Advantage over the game") -> alt.LayerChart:
    """δ and Δ after every turn of one game: zero line, eats marked, a tooltip on every point.

    ``frame`` is a :func:`game_frame` (with ``start=True``, the line begins at
    the start position).  Hovering a point shows its turn, the turn played and
    the position after it.  δ is dashed with round markers and drawn over the
    thick solid Δ, so it stays visible where the two are equal (the subtitle
    says so).
    """
    if frame["game"].nunique() > 1:
        raise ValueError("delta_chart draws one game; filter the frame to one value of 'game' first")
    long = frame.melt(
        id_vars=["turn", "player", "notation", "event", "position"], value_vars=["Delta", "delta"],
        var_name="quantity", value_name="value",
    )  # fmt: skip  (Δ's rows first: δ's line is drawn last, on top)
    long["quantity"] = long["quantity"].map({"delta": "δ", "Delta": "Δ"})
    advantage = "advantage of A (δ, Δ)"
    tooltip = [alt.Tooltip("turn:Q"), alt.Tooltip("quantity:N"), alt.Tooltip("value:Q", title=advantage),
               alt.Tooltip("player:N"), alt.Tooltip("notation:N", title="turn played"), alt.Tooltip("event:N"),
               alt.Tooltip("position:N", title="position after")]  # fmt: skip
    first, turns = (int(frame["turn"].min()), int(frame["turn"].max())) if len(frame) else (1, 0)
    ticks = list(range(first, turns + 1)) if turns <= 15 else alt.Undefined  # whole turns only, even for a short game
    x = alt.X("turn:Q", title="turn", axis=alt.Axis(values=ticks, tickMinStep=1, format="d"))
    y = alt.Y("value:Q", title=advantage)
    color = alt.Color("quantity:N", title="quantity", legend=alt.Legend(symbolType="stroke"),
                      scale=alt.Scale(domain=list(QUANTITIES), range=["#D55E00", "#56B4E9"]))  # Okabe-Ito: both themes
    lines = alt.Chart(name="delta_lines").mark_line().encode(
        x=x, y=y, color=color,
        strokeDash=alt.StrokeDash("quantity:N", title="quantity",
                                  scale=alt.Scale(domain=list(QUANTITIES), range=[[7, 4], [1, 0]])),
        strokeWidth=alt.StrokeWidth("quantity:N", title="quantity",
                                    scale=alt.Scale(domain=list(QUANTITIES), range=[3, 7])),
    )  # fmt: skip
    points = alt.Chart(name="delta_points").mark_point(filled=True, size=60, opacity=1).encode(
        x=x, y=y, color=color, tooltip=tooltip
    )
    zero = alt.Chart(name="delta_zero").mark_rule(strokeDash=[4, 4], color="gray").encode(y=alt.datum(0))
    events = (
        alt.Chart(name="delta_events")
        .transform_filter(alt.FieldOneOfPredicate(field="event", oneOf=["eat", "neutralise"]))
        .transform_filter(alt.FieldEqualPredicate(field="quantity", equal="Δ"))
        .mark_point(size=220, filled=False, strokeWidth=2.5, color="currentColor")
        .encode(x=x, y=y, shape=alt.Shape("event:N", title="event", scale=alt.Scale(domain=["eat", "neutralise"])),
                tooltip=tooltip)  # fmt: skip
    )
    heading = alt.TitleParams(title, subtitle=DELTA_NOTE)
    layers = alt.layer(zero, lines, points, events, data=long)
    chart: alt.LayerChart = layers.properties(name="delta_over_game", title=heading, width=480)
    return chart


def delta_distribution_chart(frame: pd.DataFrame, title: str = "δ after n rounds") -> alt.LayerChart:
    """Exact law of δ (bars) against Monte Carlo frequencies (points), from :func:`delta_samples_frame`."""
    x = alt.X("delta:Q", title="δ = σA − σB")
    y = alt.Y("probability:Q", title="probability")
    tooltip = [alt.Tooltip("delta:Q", title="δ"), alt.Tooltip("source:N"), alt.Tooltip("probability:Q", format=".4f")]
    exact = (
        alt.Chart(name="law_exact")
        .transform_filter(alt.FieldEqualPredicate(field="source", equal="exact"))
        .mark_bar(opacity=0.5, color="steelblue")
        .encode(x=x, y=y, tooltip=tooltip)
    )
    sampled = (
        alt.Chart(name="law_sampled")
        .transform_filter(alt.FieldEqualPredicate(field="source", equal="Monte Carlo"))
        .mark_point(color="darkorange", filled=True)
        .encode(x=x, y=y, tooltip=tooltip)
    )
    chart: alt.LayerChart = alt.layer(exact, sampled, data=frame).properties(name="delta_distribution", title=title,
                                                                             width=480)
    return chart


def exceedance_chart(frame: pd.DataFrame, title: str = "P_M(n): δ has passed M within n turns") -> alt.LayerChart:
    """P_M(n) curves (exact lines) with Monte Carlo points and intervals where the frame has them."""
    x = alt.X("turn:Q", title="n (turns)")
    y = alt.Y("probability:Q", title="P_M(n)", scale=alt.Scale(domain=[0, 1]))
    color = alt.Color("M:N", title="M")
    tooltip = [alt.Tooltip("M:N"), alt.Tooltip("turn:Q"), alt.Tooltip("method:N"),
               alt.Tooltip("probability:Q", format=".4f")]  # fmt: skip
    exact = (
        alt.Chart(name="curve_exact")
        .transform_filter(alt.FieldEqualPredicate(field="method", equal="exact (DP)"))
        .mark_line()
        .encode(x=x, y=y, color=color, tooltip=tooltip)
    )
    sampled = (
        alt.Chart(name="curve_sampled")
        .transform_filter(alt.FieldEqualPredicate(field="method", equal="Monte Carlo"))
        .mark_point(size=20)
        .encode(x=x, y=y, color=color, tooltip=tooltip)
    )
    chart: alt.LayerChart = alt.layer(exact, sampled, data=frame).properties(name="exceedance", title=title, width=480)
    return chart


def win_rate_chart(
    frame: pd.DataFrame, by: str = "players", title: str = "Win rates (95% intervals)"
) -> alt.LayerChart:
    """Rates of A wins, B wins and ties per group with Wilson intervals; ``frame`` from :func:`win_rates`."""
    return rate_chart(frame, by, title)


def score_card_chart(frame: pd.DataFrame, title: str = "Score card: mean score (win 1, tie 1/2)") -> alt.LayerChart:
    """A strategy-against-strategy grid: each cell is the row player's mean score against the column player.

    ``frame`` has columns ``player, opponent, games, score`` (one row per pairing), from :func:`score_card`.
    """
    return pairwise_chart(frame, title)


def score_card(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean score per (player, opponent) for :func:`score_card_chart`.

    Takes the strategy lab's per-side game rows (``lab.tournament(...).to_frame()``
    or a ``ScoreCard.to_frame()``: columns ``player, opponent, result`` with
    win/tie/loss), or final rows of :func:`match_results` (``players`` = ``"X v Y"``,
    ``result`` A/B/tie), which count for both sides.
    """
    if "opponent" not in frame:
        sides = frame["players"].str.split(" v ", n=1, expand=True)
        outcome = {"A": ("win", "loss"), "B": ("loss", "win"), "tie": ("tie", "tie"), CAPPED: ("tie", "tie")}
        first = frame["result"].map(lambda r: outcome[r][0])
        second = frame["result"].map(lambda r: outcome[r][1])
        frame = pd.concat([
            pd.DataFrame({"player": sides[0], "opponent": sides[1], "result": first}),
            pd.DataFrame({"player": sides[1], "opponent": sides[0], "result": second}),
        ], ignore_index=True)  # fmt: skip
    return pairwise_scores(frame)


__all__ = [
    "delta_chart",
    "delta_distribution",
    "delta_distribution_chart",
    "delta_law_frame",
    "delta_samples_frame",
    "dice_walks",
    "dkw_band",
    "exceedance_chart",
    "exceedance_curve",
    "exceedance_exact",
    "exceedance_frame",
    "exceedance_monte_carlo",
    "final_row",
    "game_frame",
    "games_frame",
    "match_results",
    "numpy_rng",
    "play_game",
    "play_games",
    "random_results",
    "score_card",
    "score_card_chart",
    "turn_event",
    "turns_to_reach",
    "wilson_interval",
    "win_rates",
    "win_rate_chart",
]
