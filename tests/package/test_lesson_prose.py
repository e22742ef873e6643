"""The lessons' prose says what the computations beside it say: a number, rank or fact that code produces is written
by that code (a Markdown cell built from the result), never typed by hand next to it.

Each lesson's prose cell is run here on the card the lesson shows (computed with the lesson's own arguments or smaller
ones that give the same figure), and its text is compared with the card.  The first cases are the four places where
hand-typed prose once contradicted the cards beside it.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pandas as pd
import pytest
from IPython.display import Markdown

from amoeboid_edu import Game, Position
from amoeboid_edu.theory import analysis, paper

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("build_lessons", ROOT / "scripts" / "build_lessons.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)


def lesson(number: str):
    (source,) = [path for path in build.sources() if path.stem.startswith(number)]
    return build.read_source(source).cells


def prose_cell(number: str, needle: str) -> str:
    """The one code cell of lesson ``number`` that builds Markdown and mentions ``needle``."""
    (cell,) = [cell.source for cell in lesson(number) if cell.cell_type == "code" and "Markdown(" in cell.source
               and needle in cell.source]  # fmt: skip
    return cell


def run_cell(source: str, namespace: dict) -> str:
    """Run a notebook cell as Jupyter does (its last expression is its output) and return the Markdown's text."""
    tree = ast.parse(source)
    last = tree.body.pop()
    namespace = {"paper": paper, "Markdown": Markdown, **namespace}
    exec(compile(tree, "<cell>", "exec"), namespace)  # noqa: S102 - the lesson's own cell
    shown = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)  # noqa: S307
    assert isinstance(shown, Markdown)
    return shown.data


def markdown_text(number: str) -> str:
    return "\n".join(cell.source for cell in lesson(number) if cell.cell_type == "markdown")


@pytest.mark.parametrize("number, typed", [
    ("03", r"median is \d+ turns"),            # the card computes the median (it once said 12 where this said 13)
    ("05", r"all twelve"),                     # the CLI's B sizes are paper.SIZES, printed by the lesson
    ("05", r"true except with a tiny chance"),  # the card says 'surely' under both readings
    ("07", r"\b(two|three|four|\d+) misprints"),  # the misprints are counted by case-IV-matrices
    ("06", r"no B win within \d+ turns"),      # the search depth and its findings are the card's
    ("03", r"a dozen turns"),                  # the card measures game lengths
    ("03", r"about 1,500 turns"),              # the exact curve gives the turns delta needs
    ("05", r"CLI's 60"),                       # the CLI plays paper.SIZES[...]["case_I_games"] per size and option
    ("08", r"B's turn 15"),                    # turn 15 is A's: the review's frame names the player
    ("08", r"seeds 0 to 9"),                   # the seed sweep is computed by the lesson
    ("08", r"\d+ to \d+ points"),              # drops come from the reviews
    ("08", r"large \(turns 11 and 13\)"),      # the eats and neutralisations are listed from the game's frame
    ("07", r"not sharp"),                      # jargon for students
    ("07", r"paper's (own )?dice"),            # jargon: say which rolls
    ("05", r"A does \*not\* win at once"),      # against a B that splits A never wins at once: the 1/3 is B's
    ("06", r"After turn 4, B could"),          # positions[3] is the position before turn 4
    ("07", r"one less than the claim's"),      # 44 is the threshold; 45 the smallest delta 'delta > 44' covers
    ("07", r"eats the small neutral piece A has just made, losing nothing\."),  # loses the game: case-IV-step-2
    ("08", r"pours most of its centre"),       # the bot's turn 13 is computed beside the sentence
    ("03", r"about four times"),               # the exact curves give the ratio (4.8 at probability 1/2)
    ("06", r"B wins on turn 6"),               # the card's lines say on which turn B wins
    ("05", r"moving next to B is a mistake"),  # case-I computes only B's next turn after that step
    ("05", r"the paper says\s+#?\s*B splits in half"),  # Case II's words: "A eating half of B's size"
    ("06", r"win when the board is full"),     # the lesson's line ends with empty cells left
    ("07", r"below 44 as well"),               # the card finds no forced win at 15 and 16: which δ below 44 it is
    ("07", r"once the board is full"),         # the steps line leaves a cell empty: B's piece has no empty neighbour
    ("07", r"within 4 of its turns"),          # the forced-win search's depth is the card's
    ("07", r"δ = 17 too|15 and 16|from δ = 43 on"),  # the leads are case-IV-threshold's
    ("03", r"`ongoing` game hit"),             # the engine names a game stopped at the turn cap: game.CAPPED
    ("09", r"centre never loses"),             # lesson 5: only B's next turn is computed
    ("09", r"otherwise wins half of B"),       # lesson 5: "gains at least half of B's units"
])  # fmt: skip
def test_no_hand_typed_figure_that_a_card_computes(number, typed):
    assert not re.search(typed, markdown_text(number)), typed


def test_lesson_3_medians_are_the_cards():
    card = paper.unboundedness_conjecture(walks=200, length_games=60)
    text = run_cell(prose_cell("03", "half end within"), {"unbounded": card, "analysis": analysis})
    three = card.evidence.dropna(subset=["half end within"]).iloc[0]
    assert f"{three['half end within']} turns ({three['games']})" in text
    # how far the dice alone take delta in as many turns as half the games last, exact (P_10 at the median)
    chance = analysis.exceedance_curve(10, int(three["half end within"]))[int(three["half end within"])]
    assert f"{'<1%' if 0 < chance < 0.005 else format(chance, '.0%')} ({three['games']})" in text
    assert f"within {three['half end within']} turns" in card.brief  # the card's own sentence, the same figure


def test_lesson_5_length_says_what_the_card_says():
    card = paper.case_II_length()
    text = run_cell(prose_cell("05", "more than 200?"), {"length": card, "Game": Game})
    assert "the correction: 'while A keeps its amoeba whole'" in card.summary
    for _, row in card.evidence.iterrows():
        assert f"Counted as {row['reading']}: at least {row['fewest possible']} turns" in text
        assert f"**{row['more than 200?']}**" in text
    game = Game.parse(card.counter_line)
    b_turns = sum(1 for position in game.positions[:-1] if position.to_move == "B")
    assert f"B wins on its turn {b_turns} (result: {game.result})" in text and game.result == "B"
    assert "tiny chance" not in text


def test_lesson_5_prints_the_clis_sizes_rather_than_naming_them():
    cells = [cell.source for cell in lesson("05") if cell.cell_type == "code"]
    assert any('paper.SIZES["quick"]["case_I_sizes"]' in cell for cell in cells)


def test_lesson_7_counts_the_misprints_the_replay_finds():
    card = paper.case_IV_matrices()
    text = run_cell(prose_cell("07", "matrices."), {"matrices": card})
    differing = card.evidence
    distinct = len(set(zip(differing["cell"], differing["paper"], differing["replay"])))
    assert f"{distinct} misprints" in text and f"({len(differing)} in all" in text
    assert card.verdict in text


def test_lesson_6_question_4_is_answered_by_the_card_from_the_lessons_own_start():
    (start_cell,) = [cell.source for cell in lesson("06") if "CASE_III_START = " in cell.source]
    start = Position.parse(re.search(r'CASE_III_START = "([^"]+)"', start_cell).group(1))
    named = [paper.case_III_start(delta, base, board) for delta, base, board in paper.WORD_SEARCHES["case_III_setups"]]
    assert start in named  # the card searches the lesson's own start
    card = paper.verdict("case-III")  # the card the lesson shows, computed once per process
    assert f"From A {start['a1'].size} v B {start['c3'].size} (A's turns: " in card.explanation


def test_lesson_6_summary_tells_the_cards_line_from_the_lessons_start():
    """The summary's account of A 14 v B 5: B eats a neutral more than twice its piece before A's eat of B's
    smallest piece, then neutralises A's new amoeba (which holds a unit of B's) and wins."""
    from amoeboid_edu import Game

    text = markdown_text("06")
    assert "more than twice its size" in text and 'eats a neutral piece "twice its size"' not in text
    (start_cell,) = [cell.source for cell in lesson("06") if "CASE_III_START = " in cell.source]
    start = re.search(r'CASE_III_START = "([^"]+)"', start_cell).group(1)
    explanation = paper.verdict("case-III").explanation
    record = explanation[explanation.index(f"start {start}"):]
    game = Game.parse("board 3x3\n" + record[: record.index("# ends")])
    assert game.result == "B"
    positions, turns = game.positions, game.turns
    b_eats = [i for i, t in enumerate(turns) if positions[i].to_move == "B" and positions[i][t.dst] is not None]
    a_eats = [i for i, t in enumerate(turns) if positions[i].to_move == "A" and positions[i][t.dst] is not None
              and positions[i][t.dst].owner == "B"]  # fmt: skip
    first, last = b_eats[0], b_eats[-1]
    eaten = positions[first][turns[first].dst]
    assert eaten.is_neutral and eaten.size > 2 * positions[first][turns[first].src].size  # before its roll
    assert first < a_eats[-1] < last  # B's eat of the neutral comes before A's decisive eat
    a_piece = positions[last][turns[last].dst]
    assert a_piece.owner == "A" and a_piece.b > 0 and positions[last + 1][turns[last].dst].is_neutral


def test_lesson_3_says_the_turns_delta_needs_from_the_card():
    card = paper.unboundedness_conjecture(walks=200, length_games=60)
    text = run_cell(prose_cell("03", "half end within"), {"unbounded": card, "analysis": analysis})
    levels = card.evidence.dropna(subset=["M"]).set_index("M")
    need = int(levels.loc[10, 'turns to P_M >= 0.9'])
    assert f"δ needs {need:,} turns ({need / 2:,g} rounds) to pass 10" in text


def test_lesson_3_tells_our_turns_from_the_papers_rounds():
    """The paper's "turn" is a round (its example: three turns, three rolls each); the course's turn is one roll.
    The lesson says which it counts wherever it gives a number of turns, and its example game has as many of our
    turns as the paper's rounds times two."""
    text = markdown_text("03")
    assert "a **turn** is one player's roll and move" in text and "a **round** is A's turn followed by B's" in text
    assert "n turns are n/2 rounds" in text
    (cell,) = [cell.source for cell in lesson("03") if cell.cell_type == "code" and "game.play(turn)" in cell.source]
    played = re.findall(r'"(\d) [a-c]\d', cell)
    assert [int(r) for r in played[0::2]] == [1, 2, 3] and [int(r) for r in played[1::2]] == [4, 5, 6]
    assert "three rounds, six turns" in text and len(played) == 6


def test_lesson_5_prints_the_clis_game_counts_rather_than_naming_them():
    cells = [cell.source for cell in lesson("05") if cell.cell_type == "code"]
    assert any('paper.SIZES["quick"]["case_I_games"]' in cell and 'paper.SIZES["full"]["case_I_games"]' in cell
               for cell in cells)  # fmt: skip


def test_lesson_8_lists_the_eats_with_their_players_from_the_game():
    from amoeboid_edu.theory import analysis

    game = paper.example_game()
    text = run_cell(prose_cell("08", 'frame["event"]'), {"game": game, "analysis": analysis})
    frame = analysis.game_frame(game)
    for row in frame[frame["event"].isin(["eat", "neutralise"])].itertuples():
        assert f"turn {row.turn} ({row.player}) {row.event}s" in text
    assert "turn 15 (A)" in text  # the reviewer's case: turn 15 is A's, as every odd turn


def test_lesson_8_seed_sweep_names_each_flagged_turns_player_from_the_reviews():
    from types import SimpleNamespace

    from amoeboid_edu.theory import coach

    game = paper.example_game()
    quick = SimpleNamespace(MISTAKES=coach.MISTAKES, review=lambda game, seed: coach.review(game, seed=seed, rollouts=8))
    first = quick.review(game, seed=2010)
    text = run_cell(prose_cell("08", "sweep_seeds"), {"game": game, "coach": quick, "example_review": first})
    lines = [line for line in text.splitlines() if line.startswith("- turn ")]
    assert lines
    for line in lines:
        number, player = re.match(r"- turn (\d+) \((\w)'s\)", line).groups()
        assert player == game.positions[int(number) - 1].to_move


def test_lesson_5_names_the_splitting_sentences_word_as_its_card_gives_it_and_scopes_never_lose():
    card = paper.case_I_split(b_sizes=(1, 2, 3))
    text = markdown_text("05")
    assert f"*{card.verdict}*" in text and "paper.verdict(\"case-I-split\")" in "\n".join(
        cell.source for cell in lesson("05") if cell.cell_type == "code")
    assert "for δ = 6 A never loses" not in text  # only B's next turn is computed (card case-II)
    assert "never going to lose" not in paper.verdict("case-II").quote


def test_lesson_3_computes_how_many_times_as_many_turns_twice_the_level_takes():
    from amoeboid_edu.theory import analysis

    text = run_cell(prose_cell("03", "twice"), {"analysis": analysis})
    exact = analysis.exceedance_frame([10, 20], 600)
    turns = {m: exact[(exact["M"] == m) & (exact["probability"] >= 0.5)]["turn"].min() for m in (10, 20)}
    assert f"within {turns[10]} turns" in text and f"{turns[20] / turns[10]:.1f} times as many" in text


def test_lesson_6_says_on_which_turn_the_card_finds_b_beating_the_paper_bot():
    card = paper.verdict("case-III")  # the card the lesson shows, computed once per process
    text = run_cell(prose_cell("06", "fills in the plan's gaps"), {"card_III": card, "Position": Position, "pd": pd})
    rows = card.evidence[card.evidence["completion"] == "(v) the paper bot"]
    assert len(rows) == len(paper.WORD_SEARCHES["case_III_setups"])
    for _, row in rows.iterrows():
        start = Position.parse(row["start"])
        name = f"from A {start['a1'].size} v B {start['c3'].size}"
        if pd.notna(row["first B win turn"]):
            assert f"{name} B beats it on turn {int(row['first B win turn'])}" in text
        else:
            assert f"{name} B cannot beat it within the {int(row['turns searched'])} turns searched" in text


def test_lesson_5_exercise_3_checks_the_dice_chance_and_shows_the_sampling_error():
    cells = [cell.source for cell in lesson("05") if cell.cell_type == "code"]
    (answer,) = [cell for cell in cells if "dice have no memory" in cell and "check(" in cell]
    assert "Fraction(1, 3))" not in answer and "range(1, 7)" in answer  # the chance comes from the die's faces
    (sample,) = [cell for cell in cells if "after_streak" in cell and "randint" in cell]
    assert "wilson_interval" in sample and "95% interval" in sample


def test_lesson_7_forced_win_and_threshold_sentences_are_the_cards():
    forced = paper.verdict("case-IV-forced-win")
    text = run_cell(prose_cell("07", "forced_win.evidence"), {"forced_win": forced})
    free_b, halving_b = (row for _, row in forced.evidence.iterrows())
    assert f"within {halving_b['A turns']} of its turns" in text and f"afford {free_b['A turns']} of A's turns" in text
    assert f"**{forced.verdict}**" in text
    threshold = paper.case_IV_threshold(deltas=(45,), extra=(16, 17), line_deltas=range(42, 45))
    text = run_cell(prose_cell("07", "threshold.evidence"), {"threshold": threshold})
    assert "δ = 17, 45 (none within 4 turns at δ = 16)" in text and "from δ = 43 on" in text
    assert "from delta = 43 on" in threshold.summary  # the card's own figure, the same


def test_lesson_7_exercise_2_answer_comes_from_the_line():
    cells = [cell.source for cell in lesson("07") if cell.cell_type == "code"]
    (exercise,) = [cell for cell in cells if "my_answer" in cell and "8 turns" in cell]
    assert 'check(my_answer, broken' in exercise and 'end.result' in exercise


def test_lesson_3_names_a_capped_game_as_the_engine_does():
    from amoeboid_edu.engine.game import CAPPED, TURN_CAP

    text = run_cell(prose_cell("03", "CAPPED"), {})
    assert f"`{CAPPED}`" in text and f"{TURN_CAP} turns" in text


def test_lesson_6_other_opponents_table_accounts_for_every_game():
    """Every game of the table is in one of its columns: a game stopped at the turn cap has a column of its own."""
    from types import SimpleNamespace

    import pandas as pd

    from amoeboid_edu.engine.game import CAPPED

    (cell,) = [cell.source for cell in lesson("06") if cell.cell_type == "code" and "B plays" in cell.source]
    outcomes = ["A", "B", "tie", CAPPED, "A"]

    def play_games(first, second, games, seed, start):
        return [SimpleNamespace(result=outcomes[k % len(outcomes)]) for k in range(games)]

    namespace = {"analysis": SimpleNamespace(play_games=play_games), "paper_bot": None, "start": None, "pd": pd,
                 "BOTS": {name: None for name in ("random", "greedy", "paper", "expectimax")}, "CAPPED": CAPPED}
    tree = ast.parse(cell)
    last = tree.body.pop()
    exec(compile(tree, "<cell>", "exec"), namespace)  # noqa: S102 - the lesson's own cell
    table = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)  # noqa: S307
    counted = table.drop(columns=["B plays", "games"]).sum(axis=1)
    assert (counted == table["games"]).all(), table


def test_lesson_9_quotes_lesson_5_on_the_centre_with_delta_6():
    five, nine = " ".join(markdown_text("05").split()), " ".join(markdown_text("09").split())
    for claim in ("A cannot lose on B's next turn", "gains at least half of B's units with probability 5/6"):
        assert claim in five and claim in nine, claim
    assert "not tested" in nine  # the paper's "A is never going to lose" is about the whole game


def test_lesson_9_prints_the_review_with_the_coachs_stable_classes():
    """``summary()`` is text: printed, not shown as a quoted string with ``\\n``; and the review uses the coach's
    own rollouts (refined near a class line), not a handful that make "mistake" and "blunder" noise."""
    (cell,) = [cell.source for cell in lesson("09") if cell.cell_type == "code" and "coach.review(" in cell.source]
    assert "print(" in cell and ".summary()" in cell
    assert "rollouts=" not in cell


def test_lesson_3s_one_sentence_results_use_the_words_of_their_cards():
    text = markdown_text("03")
    bullets = dict(re.findall(r"^- \*(.+?)\*: \*\*(.+?)\*\*", text, re.M))
    items = {"A player can only win with advantage 1": "advantage-1-claim",
             "The expected δ is always 0": "symmetry-theorem",
             "δ eventually passes any level": "unboundedness-conjecture"}  # fmt: skip
    assert set(bullets) == set(items)
    for claim, item in items.items():
        assert bullets[claim] == paper.verdict(item).verdict, claim


def test_lesson_6s_answer_to_question_4_comes_from_the_plan_search():
    card = paper.case_III(((10, 5, 3),), turns=6, plan_turns=6)
    start = "(14,0) . . / . . . / . . (0,5) A"
    text = run_cell(prose_cell("06", "For the teacher (question 4)"), {"card_III": card, "CASE_III_START": start,
                                                                      "pd": pd})
    row = card.evidence[card.evidence["start"] == start].dropna(subset=["turns visited"]).iloc[0]
    assert f"{row['turns searched']} turns" in text
    assert pd.isna(row["holding completion plays"]) or str(row["holding completion plays"]) in text


def test_lesson_5_summary_gives_case_IIs_chances_and_correction_as_its_card_does():
    from fractions import Fraction

    card = paper.verdict("case-II")
    on_3x3 = card.evidence[card.evidence["board"] == "3x3"]
    chances = {int(row.delta): Fraction(row.exact) for row in on_3x3.itertuples()}
    assert chances == {4: Fraction(1, 2), 5: Fraction(1, 3), 6: Fraction(1, 6)}
    text = markdown_text("05")
    assert "exactly 1/2, 1/3 and 1/6 for δ = 4, 5, 6" in text
    assert "bigger board the opponent can step away" in card.plain and "bigger board the opponent can step away" in text
