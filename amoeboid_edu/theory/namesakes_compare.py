"""The three games called Amoeba measured with the same tools (lesson 11).

This is the one namesakes module that touches Amoeboid: it sits at the
analysis layer, above all three engines, and plays seeded self-play games to
give one row per ply (how many legal moves there were) and one row per game
(length, who won, how it ended).  First-player win rates carry 95% Wilson
intervals from :func:`amoeboid_edu.lab.stats.wilson_interval`.
"""

from __future__ import annotations

import math
from typing import Callable

import altair as alt
import pandas as pd

from ..engine.game import CAPPED
from ..engine.match import play_match
from ..engine.game import random_turn as amoeboid_random_turn
from ..engine.seeding import seeded_rng, seed_text
from ..lab.stats import rate_chart, tally, wilson_interval
from ..namesakes import nakajima, oosterwal
from ..namesakes.bots import NAKAJIMA_BOTS, OOSTERWAL_BOTS

GAMES = ("Amoeboid", "Nakajima", "Oosterwal")
Ending = dict[str, object]
"""How one game ended: ``plies``, ``outcome`` (first / second / draw / capped) and ``ended_by``."""

CHANCE = {"Amoeboid": "a die roll every turn", "Nakajima": "none", "Oosterwal": "none"}


def _amoeboid_game(index: int, seed: int | str) -> tuple[list[int], Ending]:
    """A random-player Amoeboid game on 3x3: legal turns for each roll actually rolled, and how it ended."""
    branching: list[int] = []
    match = play_match(amoeboid_random_turn, amoeboid_random_turn, seed=seed_text(seed, "amoeboid"), pair=index,
                       observe=lambda position, roll: branching.append(position.count_legal_turns(roll)))
    outcome = CAPPED if match.capped else {"A": "first", "B": "second", "tie": "draw"}[match.position.result]
    return branching, {"plies": len(match.turns), "outcome": outcome, "ended_by": "cap" if match.capped else "capture"}


def _nakajima_game(index: int, seed: int | str, bot: str) -> tuple[list[int], Ending]:
    game = nakajima.Game()
    choose = NAKAJIMA_BOTS[bot]
    rng = seeded_rng(seed, "nakajima", bot, index)
    branching = []
    while not game.is_over:
        branching.append(sum(1 for _ in nakajima.legal_moves(game.position)))
        game.play(choose(game.position, rng))
    outcome = {"white": "first", "black": "second", "draw": "draw"}[game.result]
    return branching, {"plies": len(game.moves), "outcome": outcome, "ended_by": game.reason}


def _oosterwal_game(index: int, seed: int | str, bot: str) -> tuple[list[int], Ending]:
    game = oosterwal.Game(oosterwal.Position.start(2))
    choose = OOSTERWAL_BOTS[bot]
    rng = seeded_rng(seed, "oosterwal", bot, index)
    branching = []
    while not game.is_over:
        position = game.position
        branching.append(len(oosterwal.placements(position)) * len(position.chip_spots()))
        game.play(choose(position, rng))
    outcome = {"A": "first", "B": "second"}.get(game.result, "draw")
    ended_by = "shared win" if outcome == "draw" else "all placed"
    return branching, {"plies": len(game.turns), "outcome": outcome, "ended_by": ended_by}


def self_play(
    games: int, *, seed: int | str = 0, bot: str = "random", only: tuple[str, ...] = GAMES
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``games`` seeded self-play games of each game: ``(plies, games)`` frames.

    ``plies`` has a row per ply (``game``, ``id``, ``ply``, ``moves``: the legal
    moves there); ``games`` a row per game (``plies``, ``outcome`` first /
    second / draw / capped, ``ended_by``).  Amoeboid is always played by
    its random player (its bots are a lesson of their own); ``bot`` chooses
    the namesakes' player on both sides: ``random`` or ``greedy``; ``only``
    picks which of the three games to play.
    """
    ply_rows, game_rows = [], []
    players: dict[str, Callable[[int], tuple[list[int], Ending]]] = {
        "Amoeboid": lambda i: _amoeboid_game(i, seed),
        "Nakajima": lambda i: _nakajima_game(i, seed, bot),
        "Oosterwal": lambda i: _oosterwal_game(i, seed, bot),
    }
    for name in only:
        play = players[name]
        for index in range(games):
            branching, ending = play(index)
            ply_rows += [{"game": name, "id": index, "ply": ply, "moves": moves} for ply, moves in enumerate(branching)]
            game_rows.append({"game": name, "id": index, "players": "random" if name == "Amoeboid" else bot, **ending})
    return pd.DataFrame(ply_rows), pd.DataFrame(game_rows)


def summary(plies: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """One row per game: chance, branching (median and largest), length, first-player wins with a Wilson interval.

    ``log10_tree`` estimates the size of the game tree the way Allis (1994)
    does: the product of the legal moves met along a game, averaged (as a
    log) over the games played, times 6 per turn for Amoeboid's die.
    """
    rows = []
    for name, group in games.groupby("game", sort=False):
        moves = plies[plies["game"] == name]["moves"]
        per_game = (
            plies[plies["game"] == name]
            .groupby("id")["moves"]
            .agg(lambda counts: sum(math.log10(max(count, 1)) for count in counts))
        )
        dice = math.log10(6) * group["plies"].mean() if name == "Amoeboid" else 0.0
        wins, count = int((group["outcome"] == "first").sum()), len(group)
        low, high = wilson_interval(wins, count)
        rows.append(
            {
                "game": name,
                "chance": CHANCE[name],
                "median_branching": float(moves.median()),
                "max_branching": int(moves.max()),
                "mean_plies": round(float(group["plies"].mean()), 1),
                "log10_tree": round(float(per_game.mean()) + dice, 1),
                "games": count,
                "first_wins": wins,
                "first_rate": round(wins / count, 3),
                "ci_low": round(low, 3),
                "ci_high": round(high, 3),
                "draws": int((group["outcome"] == "draw").sum()),
                "capped": int((group["outcome"] == CAPPED).sum()),
            }
        )
    return pd.DataFrame(rows)


def branching_chart(plies: pd.DataFrame, title: str = "Legal moves at each ply (median over games)") -> alt.Chart:
    """Median legal moves by ply, one line per game, on a log scale (the games differ by orders of magnitude)."""
    frame = plies[plies["moves"] > 0].groupby(["game", "ply"], as_index=False)["moves"].median()
    chart: alt.Chart = (
        alt.Chart(frame, title=title)
        .mark_line()
        .encode(
            x=alt.X("ply:Q", title="ply (turns played)"),
            y=alt.Y("moves:Q", scale=alt.Scale(type="log"), title="legal moves (log scale)"),
            color=alt.Color("game:N", title="game"),
        )
        .properties(width=420, height=240)
    )
    return chart


def length_chart(games: pd.DataFrame, title: str = "Game length") -> alt.Chart:
    chart: alt.Chart = (
        alt.Chart(games, title=title)
        .mark_tick(thickness=2)
        .encode(
            x=alt.X("plies:Q", title="plies to the end"),
            y=alt.Y("game:N", title=None),
            color=alt.Color("outcome:N", title="outcome"),
        )
        .properties(width=420, height=120)
    )
    return chart


def first_player_chart(games: pd.DataFrame, title: str = "How often the first player wins (95% Wilson interval)"
                       ) -> alt.LayerChart:
    """The first player's win rate per game with its interval: the course's one rate chart (:func:`stats.rate_chart`)."""
    return rate_chart(tally(games, "game", ("first",), column="outcome"), "game", title, even=True)


__all__ = ["branching_chart", "first_player_chart", "length_chart", "self_play", "summary"]
