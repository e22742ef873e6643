"""Lesson 11's measurements: one row per ply and per game, the same seeded games every run, honest intervals."""

from __future__ import annotations

import math

from amoeboid_edu.lab import wilson_interval
from amoeboid_edu.theory import namesakes_compare as compare
from amoeboid_edu.namesakes import nakajima, oosterwal


def test_self_play_rows_agree_with_the_games_they_describe():
    plies, games = compare.self_play(4, seed=5)
    assert list(games["game"].unique()) == ["Amoeboid", "Nakajima", "Oosterwal"]
    per_game = plies.groupby(["game", "id"]).size()
    for row in games.itertuples():
        assert per_game[(row.game, row.id)] == row.plies  # one branching count per ply played
    assert set(games[games["game"] == "Oosterwal"]["plies"]) == {30}  # 15 pyramids each, two players
    first_moves = plies[(plies["game"] == "Nakajima") & (plies["ply"] == 0)]["moves"]
    assert set(first_moves) == {nakajima.perft(nakajima.Position.start(), 1)}
    start = oosterwal.Position.start(2)
    oosterwal_first = plies[(plies["game"] == "Oosterwal") & (plies["ply"] == 0)]["moves"]
    assert set(oosterwal_first) == {len(oosterwal.placements(start)) * len(start.chip_spots())}


def test_self_play_is_seeded():
    first = compare.self_play(3, seed=9, only=("Nakajima",))
    again = compare.self_play(3, seed=9, only=("Nakajima",))
    assert first[0].equals(again[0]) and first[1].equals(again[1])


def test_summary_counts_first_player_wins_with_the_labs_wilson_interval():
    plies, games = compare.self_play(6, seed=2, bot="greedy", only=("Nakajima", "Oosterwal"))
    table = compare.summary(plies, games).set_index("game")
    for name, group in games.groupby("game"):
        wins = int((group["outcome"] == "first").sum())
        low, high = wilson_interval(wins, len(group))
        assert table.loc[name, "first_wins"] == wins
        assert (table.loc[name, "ci_low"], table.loc[name, "ci_high"]) == (round(low, 3), round(high, 3))
        logs = plies[plies["game"] == name].groupby("id")["moves"].agg(lambda c: sum(math.log10(x) for x in c))
        assert table.loc[name, "log10_tree"] == round(logs.mean(), 1)


def test_charts_build_from_the_frames():
    plies, games = compare.self_play(2, seed=1, only=("Oosterwal",))
    table = compare.summary(plies, games)
    for chart in (compare.branching_chart(plies), compare.length_chart(games), compare.first_player_chart(games)):
        assert chart.to_dict()["$schema"].startswith("https://vega.github.io/schema/vega-lite/")
