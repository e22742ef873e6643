"""The paper's statements: each verdict's word AND scope, counter-lines replayed, cross-checks made independently."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
from fractions import Fraction
from html import escape as html_escape
from pathlib import Path

import pandas as pd
import pytest

from amoeboid_edu import Game, Position, Turn, apply, legal_turns, random_playout
from amoeboid_edu import cli
from amoeboid_edu.theory import analysis, paper, shared_results
from amoeboid_edu.players.bots import PAPER_RULES, paper_choice, paper_options
from amoeboid_edu.engine.examples import PAPER_EXAMPLE_MATRICES
from amoeboid_edu.engine.seeding import seeded_rng
from amoeboid_edu.theory.paper import Verdict

# --------------------------------------------------------------------------- the result object


def test_verdict_shows_its_word_and_scope_in_one_line_and_folds_details_in_a_notebook():
    verdict = Verdict("case-II", "confirmed", "one line", "a paragraph", pd.DataFrame({"x": [1.5, 2]}),
                      scope="3x3 only", plain="Right.")  # fmt: skip
    assert verdict.line == str(verdict) == "case-II: confirmed — one line [scope: 3x3 only]"
    card = verdict._repr_html_()
    assert card.index("Right.") < card.index("<details>") < card.index("a paragraph") < card.index("<table")
    with pytest.raises(ValueError, match="verdict must be one of"):
        Verdict("x", "refuted", "", "", pd.DataFrame())
    with pytest.raises(ValueError, match="verdict must be one of"):
        Verdict("x", "depends", "", "", pd.DataFrame())  # "open" says it: a word per statement, not per reading
    with pytest.raises(ValueError, match="counter-line"):
        Verdict("x", "false as stated", "", "", pd.DataFrame())


def replay(record: str) -> Game:
    """A counter-line through the rules, exactly as ``amoeboid replay`` reads it (comments and header included)."""
    return Game.parse(record)


def claimant_turns(record: str) -> list[tuple[Position, str, str]]:
    """(position before, turn, annotation) for every A turn of an annotated counter-line."""
    game = replay(record)
    lines = [line for line in record.splitlines() if line and not line.startswith(("board", "start", "#"))]
    assert len(lines) == len(game.turns)
    return [(before, str(turn), line.split("# A: ", 1)[1]) for before, turn, line in
            zip(game.positions, game.turns, lines) if before.to_move == "A"]  # fmt: skip


# --------------------------------------------------------------------------- the Advantage section


def test_advantage_claims_rest_on_the_proof_and_say_so():
    results = paper.final_results(random_games=300, bot_games=2, seed=9, boards=(3, 4))
    holds_on = {"delta": "every board and graph, from the standard start of one unit each (the proof)",
                "Delta": "every board and graph (the proof)"}  # delta's proof counts the start's two units
    for check, column in ((paper.advantage_1_claim, "delta"), (paper.advantage_2_claim, "Delta")):
        verdict = check(results=results)
        assert verdict.verdict == "confirmed"
        assert verdict.scope.startswith(holds_on[column]) and "3x3, 4x4" in verdict.scope
        winners = results[results["result"].isin(["A", "B"])]  # independent of the verdict's own counting
        assert ((winners[column] * winners["result"].map({"A": 1, "B": -1})) > 0).all()


def test_a_game_breaking_the_proof_would_not_be_confirmed():
    fake = pd.DataFrame([{"players": "made up", "result": "A", "delta": -2, "Delta": 5}])
    assert paper.advantage_1_claim(results=fake).verdict == "not supported"
    assert paper.advantage_2_claim(results=fake).verdict == "confirmed"


def test_symmetry_theorem_holds_after_every_round_corrected_for_always():
    verdict = paper.symmetry_theorem(rounds=3, games=200)
    assert verdict.verdict == "confirmed with a correction" and "exact laws" in verdict.scope  # 'always': mid-round
    # where the rule's second clause finds it holding, said concretely: whole rounds, the moments the paper's example
    # counts and its proof's 'same conditions' hold
    assert "symmetry after whole rounds, the only moments its example of delta counts" in verdict.scope
    assert "the paper uses the theorem nowhere else" in verdict.scope
    assert "(a round)" in verdict.scope and "correction: 'always' is too strong" in verdict.summary
    assert verdict.summary.startswith("a proof") and "as if play went on" in verdict.scope
    assert "after three turns A has rolled 1,2,3 and B has rolled 4,5,6" in verdict.summary
    assert "(after A's roll) E[delta] = 7/2" in verdict.summary
    assert "E = 7/2 x P(the game ends on A's turn)" in verdict.summary
    means = dict(zip(verdict.evidence["turn"], verdict.evidence["mean"]))
    total = sum(a1 - b1 + a2 for a1, b1, a2 in itertools.product(range(1, 7), repeat=3))  # brute force, A B A
    assert Fraction(total, 6**3) == Fraction(7, 2) == means[3]
    assert means[2] == means[4] == means[6] == 0


def test_unboundedness_is_a_theorem_for_the_dice_corrected_for_games_that_end():
    verdict = paper.unboundedness_conjecture(levels=(2, 4), walks=2_000, mc_turns=100, seed=3, length_games=50)
    # the rule of the symmetry item: fails inside a game (a case its words cover), holds for the dice sums (where the
    # paper applies it): confirmed with a correction, as symmetry is
    assert verdict.verdict == "confirmed with a correction"
    assert "as if play went on" in verdict.summary and "correction: for the dice sums only" in verdict.summary
    assert "a game can end on turn 2" in verdict.summary
    assert "the dice sums alone" in verdict.scope and "3x3, 4x4, 5x5" in verdict.scope and "cut at 1,000" in verdict.scope
    assert "half of them within" in verdict.plain and "in the median" not in verdict.plain
    # the witness that games end early: a game over on turn 2, delta never above 6
    game = Game.parse("start (1,0) . . / . . . / . . (0,1) A\n3 a1 a1-b2\n4 c3 c3-b2")
    assert game.result == "B" and len(game) == 2
    turns_for_2 = verdict.evidence.set_index("M").loc[2, "turns to P_M >= 0.9"]
    exact = [float(p) for p in analysis.exceedance_exact(2, int(turns_for_2))]
    assert exact[-1] >= 0.9 > exact[-2]  # the Fraction DP agrees with the float DP's count


def test_one_rule_decides_the_words_of_symmetry_unboundedness_and_the_neutral_piece():
    """The rule is stated on each card it decides, and the words are what :func:`judged` gives for the facts."""
    from amoeboid_edu.theory.paper import WORD_RULE, judged

    assert judged(True, True) == "confirmed"
    assert judged(False, True) == "confirmed with a correction"
    assert judged(False, False) == "false as stated"
    symmetry = paper.symmetry_theorem(rounds=2, games=50)
    unbounded = paper.unboundedness_conjecture(levels=(2,), walks=200, mc_turns=20, seed=1, length_games=20)
    neutral = paper.verdict("neutral-twice-its-size")
    for card in (symmetry, unbounded, neutral):
        assert WORD_RULE in card.scope, card.item
    assert symmetry.verdict == unbounded.verdict == judged(False, True)  # both: fail in a case, hold where applied
    assert neutral.verdict == judged(False, False)  # fails in the paper's own plan (its counter-line)


def test_judged_gives_every_word_and_every_card_says_which_clause_decided_it():
    from amoeboid_edu.theory.paper import WORD_CLAUSES, judged

    assert judged(None, None) == "open" and judged(None, None, evidence_bears_it=False) == "not supported"
    assert judged(None, False) == "false as stated" and judged(True, None) == "confirmed"
    assert set(WORD_CLAUSES) == set(paper.VERDICTS)
    card = paper.case_I_split(b_sizes=(1, 2))
    assert card.clause == WORD_CLAUSES[card.verdict]
    assert f"## Why this word\n{card.verdict}: {card.clause}" in card.details()
    assert card.clause in card._repr_markdown_() and html_escape(card.clause) in card._repr_html_()


def test_no_item_sets_its_word_by_hand():
    """Every word comes from judged(): no module of the paper's items assigns a word literally."""
    import ast

    from amoeboid_edu.theory.paper import VERDICTS

    folder = Path(paper.__file__).parent
    for path in folder.glob("*.py"):
        if path.name == "verdict.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [n for t in getattr(node, "targets", []) for n in ast.walk(t) if isinstance(n, ast.Name)]
            if isinstance(node, ast.Assign) and any(name.id == "verdict" for name in names):  # tuples too
                literals = [n.value for n in ast.walk(node.value) if isinstance(n, ast.Constant)]
                assert not set(literals) & set(VERDICTS), (path.name, node.lineno)
                assert isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "judged", (path.name, node.lineno)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Verdict" and len(node.args) > 1:
                word = node.args[1]  # Verdict(item, word, ...): the word is a name bound by judged(), never a literal
                assert not (isinstance(word, ast.Constant) and word.value in VERDICTS), (path.name, node.lineno)


def test_case_I_split_is_false_as_stated_at_the_start_of_the_game_with_a_replayable_line():
    card = paper.verdict("case-I-split")
    assert card.verdict == "false as stated" and "Splitting in this case guarantees" in card.quote
    game = replay(card.counter_line)
    assert str(game.positions[0]) == str(paper.opening_position(1, 1))  # the paper's start of the game
    pieces = [game.position[cell].size for cell in game.position.owned("A")]
    (b_piece,) = [game.position[cell].size for cell in game.position.owned("B")]
    assert len(pieces) == 2 and min(pieces) >= b_piece  # neither of A's pieces is smaller than B's
    fails = card.evidence[~card.evidence["every split leaves a piece smaller than B's"]]
    assert ((fails["B size"] <= fails["A's roll r"])).all()  # exactly when B's size <= delta
    assert "case-I-split" in paper.verdict("case-I").scope and "Splitting" not in paper.verdict("case-I").quote


def test_case_II_quotes_only_what_it_tests():
    card = paper.verdict("case-II")
    assert "never going to lose" not in card.quote and "'A is never going to lose' at delta = 6" in card.scope


def test_neutral_twice_its_size_counter_line_says_whether_its_start_is_reachable():
    from amoeboid_edu.theory.paper.lines import dice_sums_fit_the_start

    card = paper.verdict("neutral-twice-its-size")
    game = replay(card.counter_line)
    assert dice_sums_fit_the_start(game.positions[0]) and "fit a game from the paper's start" in card.scope
    # the sentence's own case: B eats the neutral piece A made from B's other half, while Delta > 6
    before, last = game.positions[-2], game.turns[-1]
    eaten, eater = before[last.dst], before[last.grow]
    assert eaten.is_neutral and eaten.size >= 2 * eater.size and eater.owner == "B" and last.grow == last.src
    made = max(i for i, turn in enumerate(game.turns[:-1]) if game.positions[i + 1][turn.dst] == eaten)
    assert game.positions[made].to_move == "A" and game.positions[made].Delta > 6
    assert f"neutralises the bigger half at Delta {game.positions[made].Delta}" in card.summary
    # reachability by the dice sums: A 10 v B 1 with A to move has A rolled 9 and B nothing
    assert not dice_sums_fit_the_start(paper.case_III_start(10, 1))
    assert dice_sums_fit_the_start(Position.start(3))
    case_III = paper.verdict("case-III")
    assert "A 10 v B 1: cannot arise in a game from the paper's start" in case_III.scope


def test_case_II_tie_ends_the_game_so_nobody_rolls_again():
    verdict = paper.verdict("case-II-tie")
    assert verdict.verdict == "false as stated"
    game = replay(verdict.counter_line)
    assert game.result == "tie" and [str(turn).split()[:3] for turn in game.turns] == [["4", "a1", "a1-b2"],
                                                                                      ["4", "c3", "c3-b2"]]
    assert game.position.is_over and not game.position.owned("A") and not game.position.owned("B")
    table = verdict.evidence
    assert set(table["delta"]) == {4, 5, 6} and table["game over after the tie"].all()
    for row in table.itertuples():  # B ties only with a roll of exactly delta (it eats A's centre: a neutral piece)
        assert row[3] == row.delta
    assert "case-II-tie" in paper.verdict("case-II").scope  # case-II's scope points to the item


def test_case_IV_step_2_b_eats_the_neutral_piece_a_has_just_made_during_step_2_and_still_loses_the_game():
    from amoeboid_edu.players.bots import can_end_at_once
    from amoeboid_edu.theory.paper.lines import line_then_candidates
    from amoeboid_edu.theory.search import ForcedWinSearch

    verdict = paper.verdict("case-IV-step-2")
    assert verdict.verdict == "open"  # the game-losing reading, the card's default: the line is no counterexample
    assert "'without losing the game'" in verdict.scope and "without losing anything at once" in verdict.scope
    game = replay(verdict.counter_line)
    assert str(game.positions[0]) == "(60,0) . . / . . . / . . (0,16) A"  # the paper's Case IV start
    during = verdict.evidence[verdict.evidence["during step 2"] & ~verdict.evidence["A can win at once next"]]
    assert len(during)
    for row in during.itertuples():
        # the A turn before B's eat is step 2 itself: it ate B's bigger piece with as many units, leaving it neutral
        a_before, a_turn = game.positions[row.turn - 2], game.turns[row.turn - 2]
        eaten_by_a = a_before[a_turn.dst]
        assert a_before.to_move == "A" and eaten_by_a.owner == "B" and (a_turn.a, a_turn.b) == (eaten_by_a.size, 0)
        made = game.positions[row.turn - 1][a_turn.dst]
        assert made.is_neutral
        # B's eat takes exactly that neutral piece, B still owns a piece after it, and A cannot win at once
        before, turn = game.positions[row.turn - 1], game.turns[row.turn - 1]
        assert before.to_move == "B" and turn.dst == a_turn.dst and before[turn.dst] == made
        after = apply(before, turn)
        assert not after.is_over and not can_end_at_once(after, ties=False)
        assert f"neutral {row.ate}" in verdict.brief and row.ate == f"({made.a},{made.b})"
        # ... but B loses the game all the same: A forces a win in the card's number of turns, and not in fewer
        (column,) = [c for c in verdict.evidence.columns if c.startswith("A forces a win within")]
        within = int(verdict.evidence.set_index("turn").loc[row.turn, column])
        search = ForcedWinSearch(line_then_candidates, legal_turns, symmetric=False)
        assert search.wins(after, within) and not search.wins(after, within - 1)
        assert f"forces a win within {within} A turns" in verdict.brief  # the one-liner says the same
    empty_cells = sum(cell is None for cell in game.positions[int(during.iloc[0]["turn"]) - 1].cells)
    assert empty_cells > 1 and f"{empty_cells} squares still empty" in verdict.summary  # still step 2/3, not step 4
    assert "case-IV-step-2" in paper.verdict("case-IV-max-8").scope


def test_step_2_eats_marks_only_b_eats_right_after_a_step_2_eat():
    from amoeboid_edu.theory.paper.case_IV import step_2_eats

    eats = step_2_eats(paper.paper_steps_line())  # the max-8 line: its B eats come after step 4's captures
    step_2 = step_2_eats(paper.verdict("case-IV-step-2").counter_line)
    assert len(eats) and not eats["during step 2"].any()
    assert step_2["during step 2"].tolist() == [True]


# --------------------------------------------------------------------------- Case I


def test_case_I_premise_by_enumeration():
    assert not paper.split_premise_holds(2, 1)  # the first move: 1 + 1, neither piece smaller than B's 1
    assert not paper.split_premise_holds(6, 3)  # 3 + 3 against 3
    assert paper.split_premise_holds(7, 4)  # every split of 7 has a piece of at most 3 < 4


def test_games_lengths_say_when_too_few_games_ended():
    lengths = paper.game_lengths(games=20, seed=1, boards=(5,), cap=30).set_index("games")
    row = lengths.loc["random v random, 5x5"]
    assert row["unfinished (30 turns)"] > 2 and row["90% end within"] == "> 30"


def test_case_I_word_rests_on_exact_facts_not_on_the_sample():
    verdicts = [paper.case_I((1, 4), games=games, opponents=("greedy", "paper")) for games in (2, 5)]
    assert {verdict.verdict for verdict in verdicts} == {"open"}
    verdict = verdicts[0]
    # right about the adjacent square, the argument against splitting fails exactly when B <= delta, optimality open
    assert "is false when B's size <= delta" in verdict.summary and "B sizes [1] for some r" in verdict.summary
    assert "A rolls 3 to (4,0) and splits 2/2 against B's 1: neither piece is smaller" in verdict.summary
    assert not paper.split_premise_holds(4, 1)  # the example, by enumeration: 1+3 or 2+2, no piece below 1
    assert "probability >= 2/3" in verdict.summary and "delta <= 0, A behind, not tested" in verdict.scope
    assert "counting B's choice to tie: the paper's 'likely loss'" in verdict.summary and "not 'false'" in verdict.explanation
    assert "A continues with the paper bot (stalling repeatedly)" in verdict.scope and "b = 1, 4" in verdict.scope
    assert "cannot tell" not in verdict.plain
    # the plain sentence says what the pooled intervals say, opponent by opponent, at this sample size
    for one in verdicts:
        pooled = one.evidence[one.evidence["B size"] == "all"].set_index("opponent")
        for opponent, name in (("greedy", "the greedy bot"), ("paper", "the paper's own B")):
            label = pooled.loc[opponent, "stall v split"]
            said = {"stall higher": f"stalling did better than splitting against {name}",
                    "split higher": f"splitting did better than stalling against {name}",
                    "not separated": f"against {name} the two were not separated"}[label]
            assert said in one.plain, (label, one.plain)


def test_case_I_sizes_in_the_scope_are_the_sizes_simulated():
    verdict = paper.case_I((1, 2, 3, 4, 6), games=1, opponents=("greedy",))
    assert "b = 1, 2, 3, 4, 6;" in verdict.scope
    assert "b = 1-4;" in paper.case_I((1, 2, 3, 4), games=1, opponents=("greedy",)).scope
    table = verdict.evidence
    adjacent = table[(table["option"] == "adjacent") & (table["B size"] == 1)].iloc[0]
    # A (1+r) on b2 next to B (1): B wins with a roll s > r, ties with s == r; averaged over r = 1, 2, 3
    assert adjacent["P(B wins at once), mean over r = 1-3"] == pytest.approx(float(sum(Fraction(6 - r, 6) for r in (1, 2, 3)) / 3))
    # the bound is the worst roll, r = 3: (7 - 3)/6 = 2/3, not 1/2
    assert adjacent["least P(B ends it at once), r = 1-3"] == "2/3"


# --------------------------------------------------------------------------- Case II and its size-1000 example


def test_case_II_agrees_with_the_paper_on_every_board_with_b_in_its_corner():
    verdict = paper.case_II(bases=(1, 3), boards=(3, 4))
    assert verdict.verdict == "confirmed with a correction" and "every legal B reply" in verdict.scope
    assert "B in its corner (c3, d4)" in verdict.scope and "4x4" in verdict.scope
    for board in ("3x3", "4x4"):
        rows = verdict.evidence[verdict.evidence["board"] == board]
        exact = rows.drop_duplicates("delta").set_index("delta")["exact"]
        assert (exact[4], exact[5], exact[6]) == ("1/2", "1/3", "1/6")
        assert (rows["otherwise A eats at least"] >= 0.5).all()
    assert "the same on 4x4 with B in its corner" in verdict.summary and "run away" not in verdict.summary
    # off its corner on 5x5 B can step away from the center: a case the words cover, so a correction
    away = verdict.evidence[verdict.evidence["B on"] == "d4 (not a corner)"]
    assert len(away) and "correction: on 5x5" in verdict.summary


def test_corner_cells_put_b_in_its_corner_and_the_centre_next_to_both():
    for n in (3, 4, 5):
        a_cell, centre, b_cell = paper.corner_cells(n)
        board = Position.start(n).board
        assert b_cell == board.names[-1] and len(board.neighbours[board.index[b_cell]]) == 3
        assert board.are_adjacent(centre, a_cell) and board.are_adjacent(centre, b_cell)
        assert not board.are_adjacent(a_cell, b_cell)


def test_case_II_table_rows_agree_with_single_turns():
    table = paper.case_II_table(deltas=(4,), bases=(2,)).set_index("B roll")
    centre = apply(paper.opening_position(5, 2), "1 a1 a1-b2")  # A 6 on b2, B 2 on c3
    assert apply(centre, "6 c3 c3-b2").result == "B" and table.loc[6, "B can win"]
    assert apply(centre, "4 c3 c3-b2").result == "tie" and table.loc[4, "B can tie"]
    assert not table.loc[3, "B can win"] and not table.loc[3, "B can tie"]


def test_case_II_streak_is_the_gamblers_fallacy_with_a_replayable_counter_line():
    verdict = paper.case_II_streak(games=2)
    assert verdict.verdict == "false as stated" and "1000 in opposite corners" in verdict.scope
    assert "P(B rolls 5 or 6) = 1/3" in verdict.summary and "1/6 + 2/3 x P(B comes back" in verdict.summary
    # the simulated part only fills in the comeback: the interval for a B win never drops below the exact 1/6
    simulated = verdict.evidence.dropna(subset=["B plays"])
    assert (simulated["P(B wins) low"] >= 1 / 6 - 1e-12).all()
    assert replay(verdict.counter_line).result == "B"
    assert "Case II, delta = 5" in claimant_turns(verdict.counter_line)[0][2]  # A moved to the middle as told
    assert paper.case_II_streak(games=3).verdict == verdict.verdict


def test_case_II_length_both_readings():
    verdict = paper.verdict("case-II-length")  # shared with the CLI test in this process
    rows = verdict.evidence.set_index("reading")["fewest possible"]
    # A grows by at least 1 a turn: after B's j-th turn the gap is at least 1006 + (j - 1) - 6 j, closed at j = 201
    whole = min(j for j in range(1, 400) if 1006 + (j - 1) - 6 * j <= 0)
    assert whole == 201 and rows["B's own turns, A's amoeba whole"] == whole
    assert rows["turns of the game, A's amoeba whole"] == 2 * whole - 1  # B moves first: its k-th turn is 2k - 1
    assert rows["B's own turns, B's rolls alone (A's amoeba not growing)"] == -(-1006 // 6) == 168
    assert verdict.verdict == "confirmed with a correction" and "at least 201 of its own turns, turn 401" in verdict.summary
    assert "A keeping its amoeba whole" in verdict.scope and "A splitting (one replayed line)" in verdict.scope
    assert "exact convolution of 200 dice" in verdict.scope
    assert "287.9 on average" in verdict.explanation


def test_expected_rolls_to_reach_a_total_by_hand():
    from amoeboid_edu.theory.paper.case_II import _expected_rolls

    # up to 6 every roll below the total leaves the same kind of problem: E(n) = (7/6)^(n-1)
    assert [_expected_rolls(n) for n in range(1, 7)] == [Fraction(7, 6) ** (n - 1) for n in range(1, 7)]


# --------------------------------------------------------------------------- the paper bot


def test_paper_bot_cites_a_sentence_for_every_branch():
    assert all(rule.text for rule in PAPER_RULES.values())
    start = Position.start(3)
    choice = paper_choice(start, 2, seeded_rng(0))
    assert choice.rule.key == "I-stall" and choice.turn.dst in ("b1", "a2")
    assert 'Case I: "the best strategy here is to stall' in choice.annotation


def test_paper_bot_resets_to_an_opposite_square_after_eating():
    # A has eaten (its amoeba holds B units), Delta <= 6, B's piece is next to it: "move to an opposite square"
    position = Position.parse(". . . / . (10,2) . / . . (0,13) A")
    choice = paper_choice(position, 1, seeded_rng(0))
    assert choice.rule.key == "III-reset" and "opposite square" in choice.annotation
    assert choice.turn.src == "b2" and not position.board.are_adjacent(choice.turn.dst, "c3")


def test_paper_bot_never_plays_a_turn_that_loses_at_once_when_the_text_allows_another():
    position = Position.parse(". . . / . (8,0) (0,1) / . . (0,4) A")  # Delta 3: eat; capture (2,0) keeps b2
    rule, turns, _ = paper_options(position, 1)
    assert rule.key == "III-eat"
    assert all(apply(position, turn).result == "ongoing" for turn in turns)


def test_annotations_describe_the_turn_played_and_refuse_a_turn_the_text_does_not_allow():
    position = Position.parse(". . . / . (61,0) (0,8) / . . (0,9) A")
    note = paper.annotate_paper_turn(position, Turn.parse("1 b2 b2-c3 9,0"))
    assert note.startswith("Case IV step 2") and "neutralises c3 (0,9), size 9, the biggest" in note
    with pytest.raises(ValueError, match="not a turn the paper's text allows"):
        paper.annotate_paper_turn(position, Turn.parse("1 b2 b2-c2 8,0"))  # the smaller piece
    with pytest.raises(ValueError):
        paper.annotated_record(position, ["A 1 b2 b2-c2 8,0"])


def test_the_bot_plays_the_first_turn_paper_options_allows_found_lazily():
    # paper_choice stops at the first safe turn; paper_options judges them all (searches need every turn)
    # Case III's first eat here would let A end the game at once: the safety default picks a later one
    safety_case = (Position.parse("(7,0) (0,5) . / (15,2) . (2,1) / . . . B"), 3)
    cases = [safety_case]
    for index in range(150):
        rng = seeded_rng(0, "lazy-paper", index)
        position = random_playout(Position.start(3), rng, max_turns=rng.randint(0, 25)).final
        if not position.is_over:
            cases.append((position, rng.randint(1, 6)))
    for position, roll in cases:
        rule, turns, safety = paper_options(position, roll, seeded_rng(1))  # the same shuffle of stall squares
        choice = paper_choice(position, roll, seeded_rng(1))
        assert (choice.turn, choice.rule, choice.safety) == (turns[0], rule, safety), str(position)
    assert paper_choice(*safety_case, seeded_rng(1)).safety


# --------------------------------------------------------------------------- Case III


def test_case_III_is_open_and_lists_every_completion_that_loses_with_its_line():
    verdict = paper.verdict("case-III")  # computed once per process (the CLI test shares it)
    assert verdict.verdict == "open" and not verdict.counter_line  # a losing completion refutes itself, not the plan
    assert "a completion that loses refutes that completion, not the claim" in verdict.explanation
    summary = verdict.summary
    assert "(i) B cannot win on its turn right after the centre move (exact, 2 of 2 set-ups)" in summary
    assert "(ii) A eats B's smaller piece with its whole amoeba (a fixed line) loses: from A 7 v B 1: " in summary
    assert "from A 20 v B 14" in summary
    assert "(iii) A eats with one unit more than the piece, then moves its whole amoeba (a fixed line) loses" in summary
    # (iv), searched as deep as the first turn on which B can win against it, is beaten; its line is on the card
    assert ("(iv) A eats, with its whole amoeba, the biggest of B's pieces next to its centre that it can eat: B wins "
            "on the first turn it can (searched one turn deeper at a time, exhaustive before it) from A 10 v B 1: "
            "A's turns: ") in summary
    head, rest = verdict.explanation.split("From A 10 v B 1 (A's turns: ", 1)
    record = rest.split("):\n", 1)[1].split("\n# ends:")[0] + "\n"
    game = replay(record)
    assert game.result == "B" and len(game.turns) == 6
    assert all(note.startswith("Case") for _, _, note in claimant_turns(record))  # every A turn cites the paper
    # (v) the paper bot is listed too, with what the same search finds
    assert "(v) the course's paper bot (its eat: the biggest of B's pieces next to its centre, with one unit more" \
        in summary
    assert "one turn of the game deeper at a time until B wins" in verdict.scope and "from every set-up named" \
        in verdict.scope
    assert "only the clause 'the opponent cannot win' is tested" in verdict.scope
    assert "'splitting can be ruled out' are optimality claims" in verdict.scope  # a stated reason, not an item
    assert "the paper bot eats with one unit more" in verdict.scope and "B: any legal turn" in verdict.scope
    assert "this card uses the second" in verdict.scope  # delta's two meanings
    assert "expectimax" not in verdict.plain and len(verdict.short) <= paper.SHORT_LINE
    table = verdict.evidence[verdict.evidence["completion"] == "(iv)"].set_index("start")
    assert table.loc[str(paper.case_III_start(10, 1)), "B wins along the plan"].startswith("A 1 a1 a1-b2")


def test_case_III_describes_each_losing_line_from_its_own_turns():
    """The words of each line are computed: which piece each eat takes (by rank among B's pieces next to A's
    amoeba) and which A turns are paper-silent defaults, not the paper's words."""
    from amoeboid_edu.theory.paper.case_III import ONE_MORE_LINE, SMALLER_WHOLE_LINE, describe_line

    card = paper.verdict("case-III")
    summary = card.summary
    # the decisive eat of (iv)'s line takes B's smallest piece (the biggest is too big): said so, not "the biggest"
    iv = summary.split("(iv) ", 1)[1].split("; (v)")[0]
    assert "eats and owns the smallest of B's pieces next to it, a piece of 1" in iv
    start = paper.case_III_start(10, 1)
    iv_rows = card.evidence[card.evidence["completion"] == "(iv)"].set_index("start")
    found = iv_rows.loc[str(start), "B wins along the plan"].split(" ; ")
    assert describe_line(start, found) in iv
    position = start
    for entry in found:  # the eat described is the one played: B's smallest piece next to A's amoeba
        player, text = entry.split(" ", 1)
        turn = Turn.parse(text)
        if player == "A" and position[turn.dst] is not None and not apply(position, turn)[turn.dst].is_neutral:
            sizes = [position[c].size for c in position.board.names if position[c] is not None
                     and position[c].owner == "B" and position.board.are_adjacent(c, turn.src)]  # fmt: skip
            assert position[turn.dst].size == min(sizes) < max(sizes)
        position = apply(position, turn)
    # (iii) loses only through A's turn 5, a paper-silent default: the description says so
    iii = describe_line(paper.case_III_start(7, 1), ONE_MORE_LINE)
    assert iii.endswith("A's turn 5: the paper silent, a default of this line, not the paper's words") and iii in summary
    ii = describe_line(paper.case_III_start(7, 1), SMALLER_WHOLE_LINE)
    assert "the smallest of B's pieces next to it, a piece of 1 on c2 (sizes 6, 1)" in ii and "paper silent" not in ii


def test_case_III_lists_the_paper_bots_lost_games_with_annotated_lines_and_does_not_call_them_too_few(monkeypatch):
    # a played-out game B won (a legal B win is a counterexample to the bot's completion): the frame case_III_games
    # returns, with one B win whose line is known (B wins on turn 4), so the card's handling is what is tested
    import importlib

    module = importlib.import_module("amoeboid_edu.theory.paper.case_III")  # the package's name is the function

    real = module.case_III_games(((7, 1),), 1, "random", max_turns=10)
    won = real.assign(**{"B wins": 1, "A wins": 0})
    won["B win lines"] = pd.Series([(module.SMALLER_WHOLE_LINE,)], index=won.index, dtype=object)  # one line won
    monkeypatch.setattr(module, "case_III_games", lambda *args, **kwargs: won)
    verdict = paper.case_III(((10, 1, 3),), turns=2, games=1, game_starts=((7, 1),), opponent="random")
    assert "too few games" not in verdict.explanation
    assert "the course's paper bot" in verdict.plain and "held B off" not in verdict.plain
    assert "B won 1 played-out games against it" in verdict.summary
    records = verdict.explanation.split("In played-out games against the random bot B won ", 1)[1]
    (body,) = [part.split("\n# ends:")[0] + "\n" for part in records.split("):\nboard ")[1:]]
    record = "board " + body
    assert replay(record).result == "B" and len(replay(record).turns) == 4
    assert all(note.startswith(("Case", "paper silent")) for _, _, note in claimant_turns(record))
    assert module.describe_line(paper.case_III_start(7, 1), module.SMALLER_WHOLE_LINE) in records


def test_case_III_search_skips_a_rolls_that_win_at_once_and_finds_what_the_general_search_finds():
    """The card's search settles an A roll that wins at once without asking the line for its turn: sound because the
    paper bot (and completion (iv), which defers to it) then plays a winning turn; both searches agree."""
    from amoeboid_edu.players.bots import can_end_at_once
    from amoeboid_edu.theory.paper.case_III import b_win_line, whole_eat_line

    for start, line, turns in ((paper.case_III_start(7, 1), paper.paper_line, 4),
                               (paper.case_III_start(10, 1), whole_eat_line, 6),
                               (paper.case_III_start(7, 1), whole_eat_line, 4)):  # fmt: skip
        general = paper.line_counterexample(start, line, turns)
        fast = b_win_line(start, line, turns)
        assert (general is None) == (fast is None)
        if fast is not None:
            assert replay("start " + str(start) + "\n" + "\n".join(e.split(" ", 1)[1] for e in fast)).result == "B"
    rng = seeded_rng("wins at once")
    checked = 0
    for _ in range(300):  # the lines do take a win when there is one
        position = random_playout(paper.case_III_start(10, 1), rng, max_turns=rng.randint(1, 12)).final
        if position.is_over or position.to_move != "A":
            continue
        for roll in range(1, 7):
            if can_end_at_once(position, roll, ties=False):
                checked += 1
                for line in (paper.paper_line, whole_eat_line):
                    assert apply(position, line(position, roll)).result == "A"
    assert checked >= 5


def test_case_III_searches_as_deep_as_the_first_turn_b_can_win_against_completion_iv():
    from amoeboid_edu.theory.paper.case_III import FIRST_B_WIN_TURN, whole_eat_line

    start = paper.case_III_start(10, 1)
    assert paper.line_counterexample(start, whole_eat_line, FIRST_B_WIN_TURN - 1) is None
    assert len(paper.line_counterexample(start, whole_eat_line, FIRST_B_WIN_TURN)) == FIRST_B_WIN_TURN
    assert paper.WORD_SEARCHES["case_III_turns"] >= FIRST_B_WIN_TURN


def test_case_III_searches_the_paper_bot_as_deep_as_the_first_turn_b_can_win_against_it():
    """From every set-up the card searches, the paper bot's shortest losing line is on the card: replayable, every
    A turn the bot's own, and no B win before its last turn (a search without the arithmetic pruning agrees)."""
    from amoeboid_edu.theory.paper.case_III import b_win_line

    card = paper.verdict("case-III")
    bot_rows = card.evidence[card.evidence["completion"] == "(v) the paper bot"]
    assert len(bot_rows) == len(paper.WORD_SEARCHES["case_III_setups"])
    bot_rows = bot_rows[bot_rows["B wins along the plan"] != "none"]  # "none": no B win within the card's depth
    assert len(bot_rows) >= 1  # the bot loses from some set-up: its line is on the card
    for _, row in bot_rows.iterrows():
        start = Position.parse(row["start"])
        line = row["B wins along the plan"].split(" ; ")
        first = int(row["first B win turn"])
        assert len(line) == first <= paper.WORD_SEARCHES["case_III_turns"]
        game = replay(f"start {start}\n" + "\n".join(entry.split(" ", 1)[1] for entry in line))
        assert game.result == "B"
        for before, turn in zip(game.positions, game.turns):
            if before.to_move == "A":
                assert paper.paper_line(before, turn.roll) == turn
        assert b_win_line(start, paper.paper_line, first - 1) is None  # no B win before it: the first turn
        name = f"A {start['a1'].size} v B {start['c3'].size}"
        record = card.explanation.split("(v) the course's paper bot", 1)[1].split(f"From {name} (", 1)[1]
        record = record.split("):\n", 1)[1].split("\n# ends:")[0] + "\n"
        assert replay(record).result == "B" and len(replay(record).turns) == first
    assert "(v) the course's paper bot" in card.summary.split("B wins on the first turn it can")[-2]
    assert "the course's paper bot" in card.plain


def test_case_III_lists_the_reviewers_eight_turn_line_only_while_the_paper_bot_plays_it():
    # the reviewer's line from lesson 6's start lost on turn 8 after the bot's default gave B a win on turn 7; the
    # default now leaves B the fewest winning rolls there, so the line is not the bot's and is not on the card
    from amoeboid_edu.theory.paper.case_III import BOT_LINE_TURN_8, bot_line

    start = paper.case_III_start(10, 5)  # lesson 6's start, A 14 v B 5
    with pytest.raises(ValueError, match="turn 7 .* is not the paper bot's"):
        bot_line(start, BOT_LINE_TURN_8)
    bot_line(start, BOT_LINE_TURN_8[:6])  # its first six turns are still the bot's
    card = paper.verdict("case-III")
    assert "A reviewer's longer line against the paper bot" not in card.explanation
    assert "a reviewer's line, replayed" not in card.summary
    altered = list(BOT_LINE_TURN_8)
    altered[2] = "A 1 b2 b2-c2 4,0"  # eats instead of neutralising: not the bot's turn
    with pytest.raises(ValueError, match="turn 3 .* is not the paper bot's"):
        bot_line(start, altered)


def test_b_out_of_reach_prunes_only_positions_from_which_b_cannot_win():
    """The search's arithmetic pruning: where it says B cannot win within t turns, a search over every turn of both
    sides finds no B win (the game may end on any of the t turns); and it does prune."""
    from amoeboid_edu.theory.paper.case_III import b_out_of_reach

    def b_can_win(position, turns):  # every roll and every legal turn of both sides
        if position.result == "B":
            return True
        if position.is_over or turns == 0:
            return False
        return any(b_can_win(apply(position, turn), turns - 1)
                   for roll in range(1, 7) for turn in legal_turns(position, roll))  # fmt: skip

    rng = seeded_rng("out of reach")
    pruned, kept = {1: 0, 2: 0}, 0
    for _ in range(300):
        start = Position.parse("(3,0) . . / . . . / . . (0,1) A")
        position = random_playout(start, rng, max_turns=rng.randint(0, 4)).final
        if position.is_over:
            continue
        for turns in (1, 2):
            if b_out_of_reach(position, turns) and pruned[turns] < 12:
                pruned[turns] += 1
                assert not b_can_win(position, turns), (position, turns)
        if not b_out_of_reach(position, 1) and b_can_win(position, 1):
            kept += 1
    assert min(pruned.values()) >= 12 and kept >= 3
    for delta, base, board in paper.WORD_SEARCHES["case_III_setups"]:
        start = paper.case_III_start(delta, base, board)
        assert b_out_of_reach(start, 3) and not b_out_of_reach(start, 4)  # B 6 + 6 against A 1 + 1


def test_case_III_names_small_advantages_as_a_correction_with_their_chance():
    """'with an Advantage 2 in your favor' covers Delta 1 to 6 after A's roll: B's amoeba of b rolls r and eats A's
    b + Delta units, owning the result when r > Delta; the card gives each chance and the rule's word for it."""
    card = paper.verdict("case-III")
    for delta in range(1, 7):
        assert f"{Fraction(sum(r > delta for r in range(1, 7)), 6)} at Delta {delta}" in card.summary
    assert f"{paper.judged(False, True)} by the rule for this one-turn claim" in card.summary
    assert "the correction: an Advantage 2 of at least 6 after A's roll" in card.summary
    assert card.verdict == "open"  # the whole claim is still undecided beyond B's next turn
    assert "an Advantage 2 of 1 to 5" in card.plain


def test_the_card_shows_word_sentence_and_scope_and_folds_the_rest():
    verdict = paper.verdict("case-III")  # computed once per process (the CLI test shares it)
    card = verdict._repr_markdown_()
    assert verdict.brief in card and verdict.reach in card and verdict.explanation not in card
    assert len(card) < 600
    html = verdict._repr_html_()
    assert html.index("<details>") < html.index(html_escape(verdict.summary))
    details = verdict.details()
    for section in ("## The paper says", "## In plain words", "## Scope", "## Evidence", "## How it was checked"):
        assert section in details


    # (ii) the shortest losing completion: A eats the piece of 1 with its whole amoeba, B wins on turn 4
    from amoeboid_edu.theory.paper.case_III import SMALLER_WHOLE_LINE, case_III_line_record

    smaller, _ = case_III_line_record(paper.case_III_start(7, 1), SMALLER_WHOLE_LINE)
    assert smaller in verdict.explanation
    game = replay(smaller)
    assert game.result == "B" and len(game.turns) == 4
    moves = claimant_turns(smaller)
    assert [note.split(":")[0] for _, _, note in moves] == ["Case III"] * 2
    before, eat, _ = moves[1]
    eat = Turn.parse(eat)
    enemy = [before[name].size for name in before.board.names if before[name] is not None and before[name].owner == "B"]
    assert before[eat.dst].size == min(enemy) < max(enemy) and apply(before, eat)[eat.src] is None
    # the same from A 20 v B 14, and (iii): A eats with one unit more, resets with its whole amoeba, B wins on turn 6
    from amoeboid_edu.theory.paper.case_III import ONE_MORE_LINE, SMALLER_WHOLE_BIG

    big, result = case_III_line_record(paper.opening_position(20, 14), SMALLER_WHOLE_BIG)
    assert result == "B" and replay(big).result == "B" and big in verdict.explanation
    one_more, result = case_III_line_record(paper.case_III_start(7, 1), ONE_MORE_LINE)
    assert result == "B" and one_more in verdict.explanation
    game = replay(one_more)
    assert game.result == "B" and len(game.turns) == 6
    moves = claimant_turns(one_more)
    eat_before, eat, _ = moves[1]
    eaten = eat_before[Turn.parse(eat).dst]
    assert Turn.parse(eat).a == eaten.size + 1  # one unit more than the piece
    assert Turn.parse(eat) in paper_options(eat_before, 1)[1]  # the paper bot's own III-eat allows it


def test_case_III_reports_played_out_games_with_intervals_and_keeps_its_word():
    verdict = paper.case_III(((10, 1, 3),), turns=4, games=1, game_starts=((8, 1),), game_turns=30)
    assert verdict.verdict == "open"
    assert "1 seeded games per start (8 v 1) against the expectimax bot, at most 30 turns each" in verdict.scope
    played = verdict.evidence.dropna(subset=["B plays"]).iloc[0]
    assert played["games"] == 1 and 0 <= played["low"] <= played["B win rate"] <= played["high"] <= 1
    assert f"B wins {int(played['B wins'])}/1 [{played['low']:.2f}, {played['high']:.2f}] from A 8 v B 1" in verdict.summary


def test_case_III_games_say_whether_b_won_after_the_text_ran_out():
    table = paper.case_III_games(((8, 1),), games=2, max_turns=40)
    row = table.iloc[0]
    assert row["B wins after A played a paper-silent default"] <= row["B wins"]


def test_case_III_issue_start_has_no_b_win_along_the_plan_within_six_turns():
    # the issue's counter-line turned on a greedy fallback; with the paper's instructions followed it is gone
    # (six turns: A's three and B's three, every B roll and legal reply; the verdict's own bound is four)
    start = paper.case_III_start(7, 1)
    assert str(start) == "(7,0) . . / . . . / . . (0,1) A"
    assert paper.line_counterexample(start, paper.paper_line, 6) is None


def test_line_counterexample_finds_a_b_win_against_a_careless_line():
    def careless(position, roll):  # A walks its whole amoeba next to B
        return f"{roll} a1 a1-b2" if position["a1"] else next(legal_turns(position, roll))

    start = Position.parse("(1,0) . . / . . . / . . (0,1) A")
    found = paper.line_counterexample(start, careless, 2)
    assert found is not None and found[0].startswith("A ") and found[1].startswith("B ")
    position = start
    for entry in found:
        position = apply(position, entry.split(" ", 1)[1])
    assert position.result == "B"


def test_neutral_piece_twice_its_size_is_false_for_small_pieces_with_a_paper_line():
    verdict = paper.neutral_twice_its_size(sizes=(1, 3, 7))
    assert verdict.verdict == "false as stated" and "every roll and legal turn" in verdict.scope
    assert "from 7 units on the sentence is true" in verdict.plain and "always for k = 1" in verdict.summary
    assert "so B owns it" in verdict.explanation
    table = verdict.evidence.dropna(subset=["B's piece k"])  # the exact table (the line's rows follow it)
    rolls = dict(zip(table["B's piece k"].astype(int), table["rolls that let B eat it"]))
    assert rolls == {1: (1, 2, 3, 4, 5, 6), 3: (3, 4, 5, 6), 7: ()}  # k + r >= 2k, by hand
    # the counter-line: A follows the paper, B halves, and a half eats the neutral piece twice its size
    game = replay(verdict.counter_line)
    for before, turn, note in claimant_turns(verdict.counter_line):
        assert Turn.parse(turn) in paper_options(before, Turn.parse(turn).roll)[1] and note.startswith("Case")
    before, last = game.positions[-2], game.turns[-1]
    eaten = before[last.dst]
    assert eaten.is_neutral and sum((last.a, last.b)) == eaten.size and game.position[last.dst].owner == "B"
    assert eaten.size >= 2 * before[last.src].size  # the neutral piece is at least twice B's eating piece


# --------------------------------------------------------------------------- Case IV


def test_case_IV_paper_example_takes_nine_a_turns():
    assert paper.paper_example_a_turns() == 9


def annotation_is_true(before: Position, turn: str, note: str) -> None:
    """An A annotation names a sentence that allows the turn, and what it says the turn does is what it does."""
    parsed = Turn.parse(turn)
    assert Turn.parse(turn) in paper.plan_options(before, parsed.roll), (turn, note)
    assert note.startswith(("Case", "paper silent")), note
    if "[here: " in note:
        target, after = before[parsed.dst], apply(before, parsed)[parsed.dst]
        assert ("neutralises" in note) == after.is_neutral
        enemy = [before[j].size for j in before.owned("B") if before.board.are_adjacent(parsed.src, j)]
        if "the biggest" in note or "the only one" in note:
            assert target.size == max(enemy), note
        else:  # a smaller piece: never under Case IV step 2's "the bigger of the two"
            assert target.size < max(enemy) and not note.startswith("Case IV step 2"), note


def test_case_IV_max_8_is_open_proved_v_the_halving_b_not_by_the_papers_steps():
    verdict = paper.verdict("case-IV-max-8")
    assert verdict.verdict == "open" and not verdict.counter_line  # a forced win is over every B: the same word as
    assert verdict.summary.startswith("proved against a B that always splits in half")  # case-IV-forced-win's
    forced = verdict.evidence[verdict.evidence["A plays"] == "eats only (forced-win search)"].iloc[0]
    assert forced["A wins for every roll"] is True or forced["A wins for every roll"] == True  # noqa: E712
    assert "A forces a win within 4 A turns (the centre move counted), for every roll" in verdict.summary
    assert "8 A turns counting the centre move: not always won" in verdict.summary
    assert "8 A turns after the centre move (9 in all): not always won" in verdict.summary
    assert "not always won v any B" not in verdict.summary and "A's turns restricted to the paper's steps" in verdict.summary
    assert "for some sequence of B's rolls" in verdict.summary and "picks its rolls" not in verdict.summary
    assert "only eats of a piece B owns" in verdict.scope and "a player with no legal turn passes" in verdict.scope
    assert "8, 9 and 10 A turns in all" in verdict.scope
    assert "against a B free to play any legal turn: undecided, and no B is known that holds out" in verdict.summary
    assert "which the split-in-half item rates 'not supported'" in verdict.summary
    # the illustration (in the explanation, not the word's evidence): the paper's steps have not won after 9 A turns
    record = paper.paper_steps_line()
    assert record and record in verdict.explanation
    game = replay(record)
    assert game.result == "ongoing"
    moves = claimant_turns(record)
    assert len(moves) == 9
    for before, turn, note in moves:
        annotation_is_true(before, turn, note)


def test_case_IV_eats_only_forced_win_agrees_with_the_reviewers_independent_search():
    # /tmp/attack15/trap.py (A eats only, B halves): forced from delta 17 (A 32 v B 16), not at 16
    from amoeboid_edu.theory.paper.case_IV import halving_forced_win

    assert halving_forced_win(16)[0] is False and halving_forced_win(17)[0] is True


def test_split_in_half_counter_line_survives_and_halving_does_not():
    verdict = paper.verdict("split-in-half")
    assert verdict.verdict == "not supported" and "the paper's dice" in verdict.scope
    assert "measure: B still owns something" in verdict.scope and "Case III: 3x3" in verdict.scope
    assert "the rolls of the paper's example" in verdict.plain and "not B's best move" not in verdict.explanation
    assert replay(verdict.counter_line).result == "ongoing"
    moves = claimant_turns(verdict.counter_line)
    assert len(moves) == 9
    for before, turn, note in moves:
        annotation_is_true(before, turn, note)
    survives = verdict.evidence.dropna(subset=["B's replies (Case IV, paper's dice)"])["B survives 9 A turns"]
    assert list(survives) == [False, True]
    # Case III, one turn: keeping one amoeba loses at once, every split survives it
    case_III = verdict.evidence.dropna(subset=["Case III reply"]).set_index("Case III reply")
    column = "A then wins at once whatever it rolls"
    assert case_III.loc["keeps one amoeba", column] == case_III.loc["keeps one amoeba", "replies (all B rolls)"]
    assert case_III.loc["splits in half", column] == case_III.loc["splits otherwise", column] == 0


def test_case_IV_forced_win_is_open_and_says_its_bound():
    verdict = paper.case_IV_forced_win(depths=(1, 2))
    assert verdict.verdict == "open" and "every legal turn to 1 A turns" in verdict.scope
    assert "far short of the 8 claimed" in verdict.summary and "as the paper plays it" in verdict.scope


def test_case_IV_forced_win_against_the_papers_halving_b_within_four():
    verdict = paper.verdict("case-IV-forced-win")
    assert verdict.verdict == "open"
    assert "against B as the paper plays it (splitting in half): A forces a win within 4 A turns" in verdict.summary
    assert verdict.summary.startswith("about a B free to play any legal turn: no forced win within 4 A turns")
    assert "Against a B that always splits in half, as the paper assumes, A can force a win" in verdict.plain
    # the free B's 4 turns: A's candidate turns do not force a win; the search names the B that lasts
    free = verdict.evidence.iloc[0]
    assert free["A turns"] == 4 and free["forced win"] == False  # noqa: E712 (numpy's bool)
    assert "a B splitting off single units lasts" in verdict.explanation


def test_case_IV_threshold_reuses_case_IV_max_8s_search_at_45():
    from amoeboid_edu.theory.paper.case_IV import halving_forced_win

    paper.verdict("case-IV-max-8")  # searches delta 45 (cached for the process)
    before = halving_forced_win.cache_info().misses
    paper.case_IV_threshold(deltas=(45,), extra=(), line_deltas=range(45, 46))
    assert halving_forced_win.cache_info().misses == before  # the same search, not a second one


def test_case_IV_threshold_is_decided_by_the_forced_win_search():
    verdict = paper.case_IV_threshold(deltas=(45, 60), extra=(16, 17), line_deltas=range(40, 50))
    assert verdict.verdict == "open" and verdict.summary.startswith("proved against a B that always splits in half")
    assert "the leads in between were not searched" in verdict.plain
    table = verdict.evidence.set_index("delta")
    forced = table["A forces a win within 4 A turns v halving B"]
    assert forced[45] and forced[60] and forced[17] and not forced[16]
    assert "a forced win at every delta searched: 17, 45, 60; none within 4 A turns at 16" in verdict.summary
    assert "from 17 on" not in verdict.summary  # 18..44 were not searched here
    assert "against a B free to play any legal turn: not tested" in verdict.summary
    # Every lead in a range searched (as `amoeboid paper --full` searches 7..60): one run of leads in the words.  The
    # failing leads' clause is the one checked above; 43 and 44 are two searches more (the card's ten leads aside).
    every = paper.case_IV_threshold(deltas=(45,), extra=(43, 44), line_deltas=range(42, 44))
    assert every.verdict == "open" and "every lead from 43 to 45" in every.plain
    assert "a forced win at every delta from 43 to 45 (every delta 43..45 searched) (the deltas above 44" in every.summary
    assert "picks its rolls" not in verdict.summary and "for some sequence of B's rolls" in verdict.summary
    assert "a B free to play any legal turn: not tested" in verdict.scope and "45, 60 in every run" in verdict.scope
    nine = table["paper's steps win within 9 A turns v halving B (A 1s, B 6s)"]
    assert not nine[42] and nine[43:49].all()  # the paper's own dice: 43, kept as an extra figure
    assert "from delta = 43 on" in verdict.summary
    eight = table["paper's steps win within 8 A turns v halving B (A 1s, B 6s)"]
    assert not eight[47] and eight[48:49].all()


# --------------------------------------------------------------------------- the generic searches


def test_line_outcomes_on_positions_with_known_answers():
    def never_called(position, roll):
        raise AssertionError("A does not move within this horizon")

    position = Position.parse("(6,0) (0,1) . / . . . / . . . B")  # B eats A and owns it only with a 6
    assert paper.LineOutcomes(never_called).value(position, 1) == Fraction(1, 6)
    assert paper.LineOutcomes(never_called, "A has not won").value(position, 1) == 1


def test_forced_win_search_and_its_refutation():
    def every_candidate(position, roll):
        from amoeboid_edu.players.strategy import candidate_turns

        return candidate_turns(position, roll)

    easy = Position.parse("(5,0) (0,1) . / . . . / . . . A")
    assert paper.ForcedWinSearch(every_candidate).wins(easy, 1)
    two = Position.parse("(5,0) (0,1) . / . . . / . . (0,1) A")
    search = paper.ForcedWinSearch(every_candidate)
    assert not search.wins(two, 1)
    path, end = search.refutation(two, 1)
    assert len(path) == 1 and end.result != "A"
    with pytest.raises(paper.SearchBudgetExceeded):
        paper.ForcedWinSearch(every_candidate, budget=5).wins(paper.case_IV_position(), 3)


def test_grid_symmetries_preserve_adjacency():
    board = Position.start(3).board
    for perm in paper.grid_symmetries(board):
        assert sorted(perm) == list(range(9))
        for i, j in itertools.combinations(range(9), 2):
            assert (j in board.neighbours[i]) == (perm[j] in board.neighbours[perm[i]])


# --------------------------------------------------------------------------- the example game and the CLI


def test_example_game_matches_every_matrix():
    verdict = paper.verdict("example-game")
    assert verdict.verdict == "confirmed" and "every turn checked" in verdict.scope
    assert "winning the game" in verdict.quote
    assert verdict.evidence["matches"].all() and len(verdict.evidence) == len(PAPER_EXAMPLE_MATRICES)


def test_items_are_the_nineteen_in_the_papers_order():
    assert len(paper.ITEMS) == 19 and paper.ITEMS.index("case-I") < paper.ITEMS.index("case-I-split") < paper.ITEMS.index("case-II")
    assert paper.ITEMS.index("case-IV-max-8") < paper.ITEMS.index("example-game")
    assert paper.ITEMS.index("case-II") < paper.ITEMS.index("case-II-tie") < paper.ITEMS.index("case-II-streak")
    assert paper.ITEMS.index("case-IV-max-8") < paper.ITEMS.index("case-IV-step-2")
    assert "case-IV" not in paper.ITEMS


def test_cli_paper_item_prints_its_details_in_sections_and_its_counter_line_replays(tmp_path):
    run = subprocess.run([sys.executable, "-m", "amoeboid_edu", "paper", "case-II-streak", "example-game"],
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert run.returncode == 0, run.stderr
    heads = [line[3:] for line in run.stdout.splitlines() if line.startswith("## ")]
    assert [head for head in heads if ": " in head] == ["case-II-streak: false as stated", "example-game: confirmed"]
    for section in ("The paper says", "Scope", "Evidence", "How it was checked"):
        assert heads.count(section) == 2, section
    assert heads.count("Counter-line (replay it with `amoeboid replay`)") == 1  # only the 'false as stated' item
    record = tmp_path / "streak.txt"
    record.write_text(paper.case_II_streak(games=1).counter_line)
    run = subprocess.run([sys.executable, "-m", "amoeboid_edu", "replay", str(record)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "B" in run.stdout


def test_every_false_as_stated_counter_line_replays_with_the_cli(tmp_path):
    from amoeboid_edu.theory.paper.case_III import ONE_MORE_LINE, SMALLER_WHOLE_LINE, case_III_line_record

    verdicts = [paper.case_II_streak(games=1), paper.verdict("neutral-twice-its-size"), paper.verdict("case-II-tie")]
    records = []
    for verdict in verdicts:
        assert verdict.verdict == "false as stated" and verdict.counter_line
        records.append((verdict.item, verdict.counter_line))
    step_2 = paper.verdict("case-IV-step-2")  # open; its line refutes only the weaker reading, and replays too
    records.append((step_2.item, step_2.counter_line))
    records.append(("case-III smaller piece", case_III_line_record(paper.case_III_start(7, 1), SMALLER_WHOLE_LINE)[0]))
    records.append(("case-III one unit more", case_III_line_record(paper.case_III_start(7, 1), ONE_MORE_LINE)[0]))
    records.append(("case-IV-max-8 illustration", paper.paper_steps_line()))
    for item, counter_line in records:
        record = tmp_path / f"{item}.txt"
        record.write_text(counter_line)
        run = subprocess.run([sys.executable, "-m", "amoeboid_edu", "replay", str(record)], capture_output=True,
                             text=True, timeout=120)  # fmt: skip
        assert run.returncode == 0, (item, run.stderr)
        if item.startswith("case-III"):
            assert replay(counter_line).result == "B"  # B wins: 'the opponent cannot win' fails on this line
        for before, turn, note in claimant_turns(counter_line):  # every claimant turn cites the paper
            assert note.startswith(("Case", "paper silent")), (item, turn, note)


def test_cli_paper_prints_every_item_once_and_the_readme_table_has_its_words():
    # in this process, so that the verdicts it computes are the ones the other tests ask paper.verdict for (issue 22:
    # the command and the tests computed the same verdicts twice); the command's own process is tested above
    out = io.StringIO()
    assert cli.main(["paper", "--workers", "1"], out) == 0  # the parallel default: the test below
    lines = out.getvalue().splitlines()
    assert max(map(len, lines)) <= paper.SHORT_LINE, max(lines, key=len)
    words = dict(line.split(" — ")[0].split(": ", 1) for line in lines)
    assert list(words) == list(paper.ITEMS)
    readme = (Path(__file__).resolve().parents[2] / "docs" / "paper.md").read_text()
    table = dict(row.split(" | ")[:2] for row in (line.strip("| ") for line in readme.splitlines())
                 if row.split(" | ")[0] in paper.ITEMS)  # fmt: skip
    assert set(table) == set(paper.ITEMS)
    assert all(words[item].startswith(word) for item, word in table.items()), (table, words)


def test_items_computed_in_parallel_processes_are_the_verdicts_computed_here(monkeypatch):
    items = ("case-I-split", "case-II-tie", "case-II-streak", "case-IV-matrices")  # the streak's games are seeded
    monkeypatch.delenv(shared_results.ENVIRONMENT, raising=False)  # each process computes: none read from the session
    monkeypatch.setattr(paper, "_COMPUTED", {})
    here = list(paper.check_all(only=items, seed=3))
    monkeypatch.setattr(paper, "_COMPUTED", {})
    apart = list(paper.check_all(only=items, seed=3, workers=2))
    assert [verdict.item for verdict in apart] == [item for item in paper.ITEMS if item in items]
    for mine, theirs in zip(here, apart):
        assert theirs is not mine  # made in another process, sent back
        pd.testing.assert_frame_equal(mine.evidence, theirs.evidence)
        assert {**vars(mine), "evidence": None} == {**vars(theirs), "evidence": None}
    out, again = io.StringIO(), io.StringIO()
    monkeypatch.setattr(paper, "_COMPUTED", {})
    assert cli.main(["paper", "--explain", "--seed", "3", *items], out) == 0  # default: one process per core
    monkeypatch.setattr(paper, "_COMPUTED", {})
    assert cli.main(["paper", "--explain", "--seed", "3", "--workers", "1", *items], again) == 0
    assert out.getvalue() == again.getvalue() and out.getvalue().count("case-II-tie") >= 1


def test_cli_paper_rejects_unknown_items_in_one_line():
    run = subprocess.run([sys.executable, "-m", "amoeboid_edu", "paper", "case-V"], capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("error: unknown item 'case-V'")
    out = io.StringIO()
    assert cli.main(["paper", "--workers", "0"], out) == 2 and out.getvalue() == ""


def test_item_charts_are_built_from_the_computations():
    results = paper.final_results(random_games=100, bot_games=2, seed=1)
    spec = paper.advantage_chart(results).to_dict()
    (rows,) = spec["datasets"].values()
    assert {row["players"] for row in rows} == set(results["players"])
    spec = paper.example_game_chart().to_dict()
    assert spec["name"] == "delta_over_game" and spec["title"]["text"] == "The paper's example game"
