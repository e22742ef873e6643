"""The paper's statements: verdict structure, small sizes, and cross-checks made independently of the code."""

from __future__ import annotations

import itertools
import subprocess
import sys
from fractions import Fraction

import pandas as pd
import pytest

from amoeboid_edu import Position, analysis, apply, legal_turns, paper
from amoeboid_edu.examples import PAPER_EXAMPLE_MATRICES
from amoeboid_edu.paper import VERDICTS, Verdict
from amoeboid_edu.strategy import candidate_turns

# --------------------------------------------------------------------------- the result object


def test_verdict_shows_in_one_line_and_in_a_notebook():
    verdict = Verdict("case-II", "confirmed", "one line", "a paragraph", pd.DataFrame({"x": [1, 2]}))
    assert verdict.line == str(verdict) == "case-II: confirmed — one line"
    assert "<table" in verdict._repr_html_() and "a paragraph" in verdict._repr_html_()
    assert verdict._repr_markdown_().startswith("**case-II: confirmed**")
    with pytest.raises(ValueError, match="verdict must be one of"):
        Verdict("x", "probably", "", "", pd.DataFrame())


# --------------------------------------------------------------------------- 1. the Advantage claims


def test_advantage_claims_hold_on_seeded_games():
    results = paper.final_results(random_games=400, bot_games=2, seed=9)
    assert len(results) >= 400
    for check, column in ((paper.advantage_1_claim, "delta"), (paper.advantage_2_claim, "Delta")):
        verdict = check(results=results)
        assert verdict.verdict == "confirmed"
        assert verdict.evidence[f"A wins with {column} <= 0"].sum() == 0
        assert verdict.evidence["games"].sum() == len(results)
        # independent of the verdict logic: every winner's final quantity has the winner's sign
        winners = results[results["result"].isin(["A", "B"])]
        sign = winners["result"].map({"A": 1, "B": -1})
        assert ((winners[column] * sign) > 0).all()


def test_advantage_claim_is_refuted_by_a_counterexample():
    fake = pd.DataFrame([{"players": "made up", "result": "A", "delta": -2, "Delta": 5}])
    assert paper.advantage_1_claim(results=fake).verdict == "refuted"
    assert paper.advantage_2_claim(results=fake).verdict == "confirmed"


# --------------------------------------------------------------------------- 2. and 3. the dice


def test_symmetry_theorem_holds_after_full_rounds_only():
    verdict = paper.symmetry_theorem(rounds=3, games=300)
    assert verdict.verdict == "confirmed with a correction"
    means = dict(zip(verdict.evidence["turn"], verdict.evidence["mean"]))
    # brute force, independent of the convolution: mean of delta after 3 turns (A, B, A)
    total = sum(a1 - b1 + a2 for a1, b1, a2 in itertools.product(range(1, 7), repeat=3))
    assert means[3] == str(Fraction(total, 6**3)) == "7/2"  # the paper says 0
    assert means[2] == means[4] == means[6] == "0"


def test_unboundedness_conjecture_curves_and_turn_counts():
    verdict = paper.unboundedness_conjecture(levels=(2, 4), target=0.9, walks=5_000, mc_turns=100, seed=3)
    assert verdict.verdict == "confirmed"
    assert "Chung-Fuchs" in verdict.explanation
    turns_for_2 = verdict.evidence.set_index("M").loc[2, "turns to P_M >= 0.9"]
    exact = [float(p) for p in analysis.exceedance_exact(2, turns_for_2)]
    assert exact[-1] >= 0.9 > exact[-2]  # the Fraction DP agrees with the float DP's count


# --------------------------------------------------------------------------- 4. and 5. the opening cases


def test_case_I_lookahead_matches_hand_reasoning_from_the_rules():
    table = paper.case_I_table(rolls=(1, 2), games=30, seed=1)
    assert list(table["option"].unique()) == ["stall", "adjacent", "split"]
    for _, row in table[table["option"] == "adjacent"].iterrows():
        r = row["A roll"]
        # A (1+r) on b2 next to B (1) on c3: B eats with 1+s >= 1+r, owning the result iff s > r, a tie iff s == r
        assert row["P(B can win next)"] == str(Fraction(6 - r, 6))
        assert row["P(B can only tie next)"] == str(Fraction(1, 6))
    assert set(table.loc[table["option"] != "adjacent", "P(B can win next)"]) == {"0"}
    assert set(table["continuation"]) == {"random", "greedy"}
    # the same seeded games whatever else is computed: the random continuation alone gives the same scores
    alone = paper.case_I_table(rolls=(1, 2), games=30, continuations=("random",), seed=1)
    both = table[table["continuation"] == "random"].reset_index(drop=True)
    assert alone["A score (sim)"].tolist() == both["A score (sim)"].tolist()
    verdict = paper.case_I(rolls=(1, 2), games=30, seed=1)
    assert verdict.verdict in VERDICTS and "greedy afterwards" in verdict.summary


def test_case_II_agrees_with_the_paper():
    verdict = paper.case_II(bases=(1, 3))
    assert verdict.verdict == "confirmed"
    by_delta = verdict.evidence.drop_duplicates("delta").set_index("delta")
    assert by_delta.loc[4, "P(A not winning)"] == "1/2"  # the paper: "at least 1/2"
    assert by_delta.loc[5, "P(A not winning)"] == "1/3"  # the paper: "at least 1/3"
    assert by_delta.loc[6, "P(B can win)"] == "0" and by_delta.loc[6, "B ties with"] == (6,)
    assert set(verdict.evidence["otherwise A eats at least"]) == {"1/2"}


def test_case_II_table_rows_agree_with_single_turns():
    table = paper.case_II_table(deltas=(4,), bases=(2,)).set_index("B roll")
    centre = apply(paper.opening_position(5, 2), "1 a1 a1-b2")  # A 6 on b2, B 2 on c3
    assert apply(centre, "6 c3 c3-b2").result == "B" and table.loc[6, "B can win"]
    assert apply(centre, "4 c3 c3-b2").result == "tie" and table.loc[4, "B can tie"]
    assert not table.loc[3, "B can win"] and not table.loc[3, "B can tie"]


# --------------------------------------------------------------------------- the searches on tiny positions


def test_line_outcomes_on_positions_with_known_answers():
    def never_called(position, roll):
        raise AssertionError("A does not move within this horizon")

    # B (1) next to A (6), B to move: B eats A and owns the result only with a 6
    position = Position.parse("(6,0) (0,1) . / . . . / . . . B")
    assert paper.LineOutcomes(never_called).value(position, 1) == Fraction(1, 6)
    assert paper.LineOutcomes(never_called, "A has not won").value(position, 1) == 1
    # B (5) next to A (1): B always can
    assert paper.LineOutcomes(never_called).value(Position.parse("(1,0) (0,5) . / . . . / . . . B"), 1) == 1


def test_forced_win_search_and_its_refutation():
    def every_candidate(position, roll):
        return candidate_turns(position, roll)

    easy = Position.parse("(5,0) (0,1) . / . . . / . . . A")  # A eats B's only amoeba whatever the roll
    assert paper.ForcedWinSearch(every_candidate).wins(easy, 1)
    two = Position.parse("(5,0) (0,1) . / . . . / . . (0,1) A")  # B's second amoeba is out of reach
    search = paper.ForcedWinSearch(every_candidate)
    assert not search.wins(two, 1)
    path, end = search.refutation(two, 1)
    assert len(path) == 1 and path[0].startswith("A ") and end.result != "A"
    with pytest.raises(paper.SearchBudgetExceeded):
        paper.ForcedWinSearch(every_candidate, budget=5).wins(paper.case_IV_position(), 3)


def test_grid_symmetries_preserve_adjacency():
    board = Position.start(3).board
    for perm in paper._grid_symmetries(board):
        assert sorted(perm) == list(range(9))
        for i, j in itertools.combinations(range(9), 2):
            assert (j in board.neighbours[i]) == (perm[j] in board.neighbours[perm[i]])


# --------------------------------------------------------------------------- 6. and 7. along the paper's line


def test_case_III_short_horizon():
    verdict = paper.case_III(deltas=(7,), bases=(1,), turns=4, chance_turns=2)
    assert verdict.verdict == "verified up to a bound"
    assert verdict.evidence.loc[0, "B wins along the line"] == "none"
    assert verdict.evidence.loc[0, "max P(B wins)"] == "0"


def test_case_III_b_win_replays_along_the_paper_line():
    start = paper.opening_position(7, 1)
    found = paper.line_counterexample(start, paper.paper_line, 6)
    if found is None:
        pytest.skip("no B win within 6 turns along this engine's paper line: nothing to replay")
    position = start
    for entry in found:
        player, turn = entry.split(" ", 1)
        assert position.to_move == player
        if player == "A":  # A's turns are the paper bot's
            assert str(paper.paper_line(position, int(turn.split()[0]))) == turn
        position = apply(position, turn)
    assert position.result == "B" and len(found) <= 6


def test_case_IV_paper_line_refutation_replays():
    start = paper.case_IV_position()
    row = paper.forced_win_report(start, paper.only_the_line, legal_turns, 8, 100_000)
    if row["forced win"] is not False:
        pytest.skip("the paper's line is not refuted by this engine: nothing to replay")
    # replay the refutation through the rules: A moved 8 times at most and has not won
    position, a_turns = start, 0
    for entry in row["refutation"].split(" ; "):
        player, turn = entry.split(" ", 1)
        assert position.to_move == player
        position = apply(position, turn)
        a_turns += player == "A"
    assert str(position) == row["refutation ends"] and position.result != "A" and a_turns <= 8


# --------------------------------------------------------------------------- 8. the example game and the CLI


def test_example_game_matches_every_matrix():
    verdict = paper.example_game_check()
    assert verdict.verdict == "confirmed"
    assert verdict.evidence["matches"].all() and len(verdict.evidence) == len(PAPER_EXAMPLE_MATRICES)
    assert paper.example_game().result == "A"


def test_cli_paper_prints_one_line_per_item():
    run = subprocess.run([sys.executable, "-m", "amoeboid_edu", "paper", "case-II", "example-game"],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["case-II", "example-game"]
    assert all(line.split(": ", 1)[1].split(" — ")[0] in VERDICTS for line in lines)


def test_cli_paper_rejects_unknown_items_in_one_line():
    run = subprocess.run([sys.executable, "-m", "amoeboid_edu", "paper", "case-V"], capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("error: unknown item 'case-V'")


def test_item_charts_are_built_from_the_computations():
    results = paper.final_results(random_games=100, bot_games=2, seed=1)
    spec = paper.advantage_chart(results).to_dict()
    (rows,) = spec["datasets"].values()
    assert {row["players"] for row in rows} == set(results["players"])
    spec = paper.unboundedness_chart(levels=(3,), turns=400, points=40, walks=500, mc_turns=100).to_dict()
    (rows,) = spec["datasets"].values()
    exact = [row for row in rows if row["method"] == "exact (DP)"]
    assert len(exact) == 41 and exact[-1]["turn"] == 400
    assert exact[-1]["probability"] == pytest.approx(analysis.exceedance_curve(3, 400)[-1])
    spec = paper.symmetry_chart(rounds=2, walks=1_000).to_dict()
    (rows,) = spec["datasets"].values()
    law = {row["delta"]: row["probability"] for row in rows if row["source"] == "exact"}
    assert all(law[k] == pytest.approx(law[-k]) for k in law)
    spec = paper.example_game_chart().to_dict()
    assert spec["name"] == "delta_over_game" and spec["title"] == "The paper's example game"
