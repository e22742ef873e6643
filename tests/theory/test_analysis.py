"""Frames, seeded runners, exact dice laws (against brute force) and chart specs."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from fractions import Fraction
from xml.etree import ElementTree

import altair as alt
import numpy as np
import pandas as pd
import pytest

from amoeboid_edu import Game, legal_turns
from amoeboid_edu.theory import analysis
from amoeboid_edu.ui import charts
from amoeboid_edu.ui.charts import chart_svg
from amoeboid_edu.engine.examples import PAPER_EXAMPLE_RECORD

EXAMPLE = Game.parse(PAPER_EXAMPLE_RECORD)


def first_legal(position, roll, rng):
    return next(legal_turns(position, roll))


# --------------------------------------------------------------------------- frames


def test_game_frame_has_one_row_per_turn_with_the_positions_quantities():
    frame = analysis.game_frame(EXAMPLE, game_id="paper")
    assert list(frame.columns) == list(analysis.FRAME_COLUMNS)
    assert len(frame) == len(EXAMPLE.turns)
    for row, after in zip(frame.itertuples(index=False), EXAMPLE.positions[1:]):
        assert row.game == "paper"
        assert (row.delta, row.Delta) == (after.delta, after.Delta)
        assert (row.amoebae_A, row.amoebae_B) == (len(after.owned("A")), len(after.owned("B")))
    assert frame["result"].iloc[-1] == "A"


def test_events_follow_what_the_move_did():
    frame = analysis.game_frame(EXAMPLE)
    for row, turn, before, after in zip(frame.itertuples(index=False), EXAMPLE.turns, EXAMPLE.positions,
                                        EXAMPLE.positions[1:]):  # fmt: skip
        landed = after[turn.dst]
        if before[turn.dst] is not None:
            assert row.event == ("neutralise" if landed.a == landed.b else "eat")
        else:
            assert row.event == ("move" if after[turn.src] is None else "split")
    # the paper's own words for its example game: two neutralisations, then eats
    assert list(frame.loc[frame["event"] == "neutralise", "turn"]) == [11, 13]
    assert {"eat", "split", "move"} <= set(frame["event"])


def test_game_frame_may_start_with_the_start_position():
    frame = analysis.game_frame(EXAMPLE, start=True)
    assert list(frame["turn"]) == list(range(len(EXAMPLE.turns) + 1))
    first = frame.iloc[0]
    start = EXAMPLE.positions[0]
    assert (first["notation"], first["event"], first["position"]) == ("(start)", "start", str(start))
    assert (first["delta"], first["Delta"]) == (start.delta, start.Delta)
    assert list(frame["position"][1:]) == [str(after) for after in EXAMPLE.positions[1:]]
    assert frame.iloc[1:].drop(columns="roll").reset_index(drop=True).equals(
        analysis.game_frame(EXAMPLE).drop(columns="roll"))


def test_games_frame_keeps_games_apart_and_runners_reproduce():
    games = analysis.play_games(first_legal, first_legal, 3, seed=5, max_turns=40)
    again = analysis.play_games(first_legal, first_legal, 3, seed=5, max_turns=40)
    assert [str(g) for g in games] == [str(g) for g in again]
    frame = analysis.games_frame(games)
    assert sorted(frame["game"].unique()) == [0, 1, 2]
    assert [len(frame[frame["game"] == i]) for i in range(3)] == [len(g) for g in games]
    assert analysis.games_frame([]).empty


def test_random_results_are_seeded_and_end_every_game():
    first = analysis.random_results(200, seed=3)
    assert first.equals(analysis.random_results(200, seed=3))
    assert not first.equals(analysis.random_results(200, seed=4))
    assert set(first["result"]) <= {"A", "B", "tie"}
    rates = analysis.win_rates(first)
    assert rates["count"].sum() == 200
    assert (rates["low"] <= rates["rate"]).all() and (rates["rate"] <= rates["high"]).all()


def test_wilson_interval_edges_and_mirror():
    assert analysis.wilson_interval(0, 50)[0] == 0.0
    assert analysis.wilson_interval(50, 50)[1] == 1.0
    low, high = analysis.wilson_interval(12, 40)
    mirror_low, mirror_high = analysis.wilson_interval(28, 40)
    assert low == pytest.approx(1 - mirror_high) and high == pytest.approx(1 - mirror_low)
    assert low < 12 / 40 < high


# --------------------------------------------------------------------------- exact laws against brute force


def brute_force_walks(turns):
    """Every sequence of rolls, A first: (delta after each turn) with probability 6^-turns."""
    for rolls in itertools.product(range(1, 7), repeat=turns):
        yield list(itertools.accumulate(r if i % 2 == 0 else -r for i, r in enumerate(rolls)))


@pytest.mark.parametrize("turns", [1, 2, 3, 4, 5])
def test_delta_distribution_matches_enumeration(turns):
    counts = {}
    for path in brute_force_walks(turns):
        counts[path[-1]] = counts.get(path[-1], 0) + 1
    expected = {k: Fraction(c, 6**turns) for k, c in counts.items()}
    assert analysis.delta_distribution(turns) == dict(sorted(expected.items()))


@pytest.mark.parametrize("level", [-1, 0, 2, 5])
def test_exceedance_dp_matches_enumeration(level):
    turns = 5
    paths = list(brute_force_walks(turns))
    expected = [Fraction(sum(any(d > level for d in path[:n]) or level < 0 for path in paths), len(paths))
                for n in range(turns + 1)]  # fmt: skip
    assert analysis.exceedance_exact(level, turns) == expected


def test_float_dp_agrees_with_fractions_and_monte_carlo():
    exact = [float(p) for p in analysis.exceedance_exact(4, 80)]
    assert np.abs(analysis.exceedance_curve(4, 80) - exact).max() < 1e-12
    walks = 20_000
    sampled = analysis.exceedance_monte_carlo([4], 80, walks, seed=11)
    assert list(sampled["turn"]) == list(range(1, 81))
    # P_M(n) over n is a CDF (of the first passage time): DKW gives a simultaneous band
    assert np.abs(sampled["probability"].to_numpy() - exact[1:]).max() <= analysis.dkw_band(walks)


def test_dice_walks_are_seeded_and_follow_the_die():
    walks = analysis.dice_walks(50_000, 6, seed=1)
    assert walks.shape == (50_000, 6)
    assert np.array_equal(walks, analysis.dice_walks(50_000, 6, seed=1))
    assert set(np.unique(walks[:, 0])) == set(range(1, 7))  # after A's first roll
    law = analysis.delta_distribution(6)
    for k in (-3, 0, 4):  # frequencies within 5 standard errors of the exact law
        p = float(law[k])
        assert abs((walks[:, 5] == k).mean() - p) < 5 * (p * (1 - p) / 50_000) ** 0.5


def test_turns_to_reach():
    assert analysis.turns_to_reach([0, 0.2, 0.6, 0.95], 0.5) == 2
    assert analysis.turns_to_reach([0, 0.2], 0.5) is None


# --------------------------------------------------------------------------- charts


def names_in(spec):
    """Every "name" given anywhere in a Vega-Lite spec (views, params, data)."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("name"), str):
                found.append(node["name"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec)
    return found


def test_delta_chart_spec():
    spec = analysis.delta_chart(analysis.game_frame(EXAMPLE)).to_dict()
    assert spec["name"] == "delta_over_game"
    assert [layer["name"] for layer in spec["layer"]] == ["delta_zero", "delta_lines", "delta_points", "delta_events"]
    zero, lines, points, events = spec["layer"]
    assert zero["encoding"]["y"] == {"datum": 0}
    assert lines["encoding"]["x"]["field"] == "turn" and lines["encoding"]["color"]["field"] == "quantity"
    assert "tooltip" not in lines["encoding"]  # a line's one path could only describe its first point
    assert {t["field"] for t in points["encoding"]["tooltip"]} >= {"turn", "notation", "value", "position"}
    assert "params" not in spec  # a static SVG has no clickable legend
    assert events["encoding"]["shape"]["field"] == "event"
    (rows,) = spec["datasets"].values()
    assert len(rows) == 2 * len(EXAMPLE.turns)
    assert {row["notation"] for row in rows} == {str(turn) for turn in EXAMPLE.turns}
    assert not [name for name in names_in(spec) if name.startswith(("view_", "param_", "selector"))]


def test_an_svg_chart_gives_each_mark_of_a_tooltip_layer_a_hover_title():
    svg = chart_svg(analysis.delta_chart(analysis.game_frame(EXAMPLE, start=True)))
    ElementTree.fromstring(svg)  # still well-formed
    titles = re.findall(r"<title>([^<]*)</title>", svg)
    frame = analysis.game_frame(EXAMPLE, start=True)
    events = frame["event"].isin(["eat", "neutralise"]).sum()
    assert len(titles) == 2 * len(frame) + events  # a δ and a Δ point per turn, and a marker per eat
    fifth = EXAMPLE.turns[4]
    assert (f"turn: 5\nadvantage of A (δ, Δ): {EXAMPLE.positions[5].delta}\nquantity: δ\nplayer: A\n"
            f"turn played: {fifth}\nevent: move\nposition after: {EXAMPLE.positions[5]}") in titles
    assert any(title.startswith("turn: 0\n") and "turn played: (start)" in title for title in titles)
    assert not re.search(r'aria-roledescription="(line|rule) mark"[^>]*><title>', svg)  # lines and the zero rule


def test_a_chart_without_tooltips_gets_no_titles_and_texts_are_escaped():
    frame = pd.DataFrame({"x": [1, 2], "y": [3, 4], "t": ["a<b", "c"]})
    plain = alt.Chart(frame).mark_point().encode(x="x", y="y")
    assert "<title>" not in chart_svg(plain)
    tipped = alt.Chart(frame).mark_point().encode(x="x", y="y", tooltip=["t"])
    svg = chart_svg(tipped)
    assert [title.text for title in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}title")] == [
        "x: 1\ny: 3\nt: a<b", "x: 2\ny: 4\nt: c"]


def test_delta_chart_refuses_many_games():
    games = analysis.games_frame([EXAMPLE, EXAMPLE])
    with pytest.raises(ValueError, match="one game"):
        analysis.delta_chart(games)


def test_chart_specs_are_identical_in_a_fresh_process():
    code = (
        "import json; from amoeboid_edu import Game; from amoeboid_edu.theory import analysis; from amoeboid_edu.engine.examples import PAPER_EXAMPLE_RECORD; "
        "print(json.dumps(analysis.delta_chart(analysis.game_frame(Game.parse(PAPER_EXAMPLE_RECORD))).to_dict(), "
        "sort_keys=True))"
    )
    here = json.dumps(analysis.delta_chart(analysis.game_frame(EXAMPLE)).to_dict(), sort_keys=True)
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert here == there


def test_distribution_and_exceedance_chart_specs():
    samples = analysis.delta_samples_frame(3, 2_000, seed=2)
    assert set(samples["source"]) == {"exact", "Monte Carlo"}
    exact = samples[samples["source"] == "exact"]
    assert exact["probability"].sum() == pytest.approx(1.0)
    spec = analysis.delta_distribution_chart(samples).to_dict()
    assert [layer["name"] for layer in spec["layer"]] == ["law_exact", "law_sampled"]
    assert spec["layer"][0]["encoding"]["x"]["field"] == "delta"

    curves = pd.concat([analysis.exceedance_frame([2, 5], 40), analysis.exceedance_monte_carlo([2, 5], 40, 1_000)])
    spec = analysis.exceedance_chart(curves).to_dict()
    assert spec["name"] == "exceedance"
    assert spec["layer"][0]["encoding"]["color"]["field"] == "M"
    (rows,) = spec["datasets"].values()
    assert {row["method"] for row in rows} == {"exact (DP)", "Monte Carlo"}


def test_win_rate_and_score_card_specs():
    results = pd.concat([
        analysis.match_results(first_legal, first_legal, 5, seed=1, max_turns=30),
        analysis.random_results(30, seed=1),
    ])  # fmt: skip
    rates = analysis.win_rates(results)
    spec = analysis.win_rate_chart(rates).to_dict()
    assert [layer["name"] for layer in spec["layer"]] == ["rate_bars", "rate_intervals"]
    assert spec["layer"][1]["encoding"]["x2"]["field"] == "high"
    card = analysis.score_card(results)
    as_a = card.set_index(["player", "opponent"])
    # each game counts for both sides: first_legal v first_legal twice, random_turn v itself twice
    assert as_a.loc[("first_legal", "first_legal"), "games"] == 10
    assert as_a.loc[("random_turn", "random_turn"), "games"] == 60
    own = results[results["players"] == "random_turn v random_turn"]["result"]
    assert as_a.loc[("random_turn", "random_turn"), "score"] == pytest.approx(0.5)  # both sides of the same games
    assert set(own) <= {"A", "B", "tie"}
    spec = analysis.score_card_chart(card).to_dict()
    assert spec["layer"][0]["encoding"]["color"]["field"] == "score"
    assert spec["layer"][0]["encoding"]["x"]["field"] == "opponent"


def test_score_card_reads_the_labs_tournament_frames():
    from amoeboid_edu import lab

    result = lab.tournament(["random", "greedy"], games=4, seed=2, progress=False)
    frame = result.to_frame()
    card = analysis.score_card(frame).set_index(["player", "opponent"])
    wins = frame[(frame["player"] == "greedy") & (frame["result"] == "win")]
    ties = frame[(frame["player"] == "greedy") & (frame["result"] == "tie")]
    games = (frame["player"] == "greedy").sum()
    assert card.loc[("greedy", "random"), "games"] == games
    assert card.loc[("greedy", "random"), "score"] == pytest.approx((len(wins) + 0.5 * len(ties)) / games)
    assert card.loc[("greedy", "random"), "score"] + card.loc[("random", "greedy"), "score"] == pytest.approx(1.0)


def test_save_chart_writes_png_and_svg(tmp_path):
    chart = analysis.delta_chart(analysis.game_frame(EXAMPLE))
    png = charts.save_chart(chart, tmp_path / "delta.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = charts.save_chart(chart, tmp_path / "delta.svg")
    assert "<svg" in svg.read_text()[:200]
    with pytest.raises(ValueError, match=".png or .svg"):
        charts.save_chart(chart, tmp_path / "delta.pdf")
