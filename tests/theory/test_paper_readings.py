"""The cards say what was computed and how each sentence was read: the scope in the one-liner where the claim is
wider, counter-lines that survive the stronger reading, one rule for every word (outside Case III)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

from amoeboid_edu import Game, Position, apply, legal_turns
from amoeboid_edu.theory import paper

ROOT = Path(__file__).resolve().parents[2]


def test_case_I_says_what_it_computes_about_the_square_next_to_b_and_that_only_equal_sizes_were_tried():
    card = paper.case_I((1, 2), games=1, opponents=("greedy",))
    adjacent = card.evidence[card.evidence["option"] == "adjacent"]
    least = min(Fraction(x) for x in adjacent["least P(B ends it at once), r = 1-3"])
    for text in (card.brief, card.plain):
        assert "mistake" not in text and str(least) in text
    assert "at once" in card.brief and "very next turn" in card.plain and "not what happens later" in card.plain
    assert "all that is computed there" in card.brief and len(card.short) <= paper.SHORT_LINE
    assert "only delta = 1..3 with equal sizes" in card.scope and "unequal sizes not tested" in card.scope
    assert "equal sizes only" in card.reach


def test_case_I_split_counter_line_leaves_no_smaller_piece_even_after_bs_roll():
    card = paper.case_I_split(b_sizes=(1, 2, 3))
    game = Game.parse(card.counter_line)
    assert game.positions[0] == paper.opening_position(1, 1) and len(game.turns) == 2
    (a_turn, b_turn), (start, split, end) = game.turns, game.positions
    assert split.to_move == "B" and len(split.owned("A")) == 2 and len(end.owned("B")) == 1
    for position in (split, end):  # B's size before its roll, and after its roll and move
        (b_cell,) = position.owned("B")
        assert min(position[cell].size for cell in position.owned("A")) >= position[b_cell].size
    assert end[end.owned("B")[0]].size > start[start.owned("B")[0]].size  # B did roll: the stronger reading
    # the same case the case-I card quotes: A's roll of 3, split 2 + 2
    quoted = paper.case_I((1,), games=1, opponents=("greedy",)).summary
    assert f"A rolls {a_turn.roll} to ({1 + a_turn.roll},0) and splits 2/2 against B's 1" in quoted
    assert "after it (2)" in card.summary


def test_case_II_reads_the_center_over_every_placement_and_corrects_the_bigger_boards():
    from amoeboid_edu.theory.paper.case_II import BIG_CENTRE, placements
    from amoeboid_edu.theory.search import grid_symmetries

    card = paper.case_II(bases=(1, 2), boards=(3,))
    assert card.verdict == "confirmed with a correction" and "confirmed with a correction" == paper.judged(False, True)
    # every non-adjacent pair off the centre of 3x3 is one of the placements up to symmetry (counted independently)
    board = Position.start(3).board
    off = [name for name in board.names if name != "b2"]
    pairs = {(a, b) for a, b in itertools.permutations(off, 2) if not board.are_adjacent(a, b)}
    images = {(board.names[m[board.index[a]]], board.names[m[board.index[b]]])
              for a, _, b in placements(3) for m in grid_symmetries(board)}  # fmt: skip
    assert images == pairs and len(pairs) == 32
    on_3x3 = card.evidence[(card.evidence["board"] == "3x3") & (card.evidence["A moves to"] == "b2")]
    assert set(zip(on_3x3["A on"], on_3x3["B on"])) >= {(a, b) for a, _, b in placements(3)}
    assert set(on_3x3["exact"]) == {"1/2", "1/3", "1/6"} and (on_3x3["otherwise A eats at least"] >= 0.5).all()
    # the failing case the words cover: 5x5, A moves to the center c3, B on d4 steps to e5, out of A's reach
    size, (a_cell, centre, b_cell) = BIG_CENTRE
    grid = Position.start(size).board
    assert centre == grid.names[len(grid) // 2] and not grid.are_adjacent(a_cell, b_cell)
    moved = apply(apply(paper.opening_position(5, 1, a_cell, b_cell, board=size), f"1 {a_cell} {a_cell}-{centre}"),
                  f"1 {b_cell} {b_cell}-e5")  # fmt: skip
    assert not any(grid.are_adjacent(centre, cell) for cell in moved.owned("B"))
    away = card.evidence[card.evidence["board"] == f"{size}x{size}"]
    assert len(away) and (away["otherwise A eats at least"] == 0).all()
    assert "correction" in card.summary and "n x n Board" in card.explanation and "outside" not in card.summary
    assert len(card.short) <= paper.SHORT_LINE


def test_case_II_length_is_certain_while_a_stays_whole_and_its_split_line_is_a_fast_b_win():
    from amoeboid_edu.theory.paper.case_II import _p_sum_at_least

    card = paper.verdict("case-II-length")
    chance = f"{float(_p_sum_at_least(200, 1006)):.1e}"
    # the correction is the set-up's own condition; the split line shows what happens without it (reader 12)
    assert "while A's amoeba stays whole" in card.brief and "if A splits" in card.brief
    assert "the correction: 'while A keeps its amoeba whole'" in card.summary and chance in card.summary
    game = Game.parse(card.counter_line)
    assert str(game.positions[0]) == ". . . / . . . / . (1006,502) (0,502) B"  # the paper's (1006,502) and (0,502)
    assert game.result == "B" and len(game.turns) < 200
    b_turns = sum(1 for position in game.positions[:-1] if position.to_move == "B")
    assert f"B can win on its turn {b_turns}" in card.brief and f"win on its turn {b_turns}" in card.plain
    assert len(game.positions[1].owned("A")) == 1 and len(game.positions[2].owned("A")) == 2  # A's turn: a split
    assert "almost surely" not in card.summary + card.brief + card.plain  # a chance above 0 is not 'almost sure'
    assert card.verdict == "confirmed with a correction"
    assert len(card.short) <= paper.SHORT_LINE


def test_neutral_piece_counter_line_eat_is_no_blunder_from_lesson_6s_start():
    card = paper.neutral_twice_its_size(sizes=(1, 3, 7))
    assert card.verdict == "false as stated"
    game = Game.parse(card.counter_line)
    lesson = (ROOT / "lessons" / "src" / "06-case-3-neutralisation.py").read_text()
    assert f'CASE_III_START = "{game.positions[0]}"' in lesson  # the lesson's own start
    before, last, after = game.positions[-2], game.turns[-1], game.position
    eaten = before[last.dst]
    assert eaten.is_neutral and after[last.dst].owner == "B" and eaten.size > 2 * before[last.grow].size
    # A made that neutral piece on its turn before, with Delta > 6 (the paper's condition to neutralise)
    made = game.positions[-3]
    assert made.to_move == "A" and made[last.dst].owner == "B" and made.Delta > 6
    # not suicidal: A has no win at once whatever it rolls (every legal A turn tried)
    assert all(apply(after, turn).result != "A" for roll in range(1, 7) for turn in legal_turns(after, roll))
    assert "A has no win at once with any roll (checked for each)" in card.summary
    assert "case-IV-step-2" in card.explanation and "rules' cannot" in card.scope
    assert "one rule with neutral-twice-its-size" in paper.verdict("case-IV-step-2").scope


def test_case_IV_one_liners_carry_their_set_up_and_the_bigger_boards_where_max_8_fails():
    from amoeboid_edu.theory.paper.case_IV import far_shuttle

    max_8, threshold = paper.verdict("case-IV-max-8"), paper.verdict("case-IV-threshold")
    start = paper.case_IV_position(45)
    a_size, b_size = start["a1"].size, start["c3"].size
    assert f"3x3, A {a_size} v B {b_size} (delta 45)" in max_8.brief and f"3x3, B {b_size}" in threshold.brief
    # reader 13: A can get next to a far-corner B within 8 turns; what it cannot do is reach (eat) its cell
    assert "reach B's cell in 8" in max_8.brief and "A cannot even reach the cell of a B" in max_8.plain
    # reader 13: 'at every lead searched, some below 44' hid the leads where A has no forced win within the turns
    forced = next(column for column in threshold.evidence.columns if column.startswith("A forces a win within"))
    searched = threshold.evidence.dropna(subset=[forced]).set_index("delta")[forced].astype(bool)
    first = max(delta for delta, wins in searched.items() if not wins) + 1
    assert all(searched[searched.index >= first]) and f"at each lead searched from {first} on, not " in threshold.brief
    for card in (max_8, threshold):
        assert card.verdict == "open" and "10x10" in card.brief and len(card.short) <= paper.SHORT_LINE
        assert "n x n Board" in card.summary and "king distance 9" in card.summary
    # the distance argument, independently: king distance from a1 is max(|dx|, |dy|); A moves one step a turn
    for n in (10, 11):
        row = far_shuttle(n)
        assert row["king distance from a1"] == max(n - 1, n - 2) == n - 1
        game = Game.parse(row["line"])
        assert game.result == "ongoing" and game.position.owned("B")
        assert sum(before.to_move == "A" for before in game.positions[:-1]) == n - 2
    assert "for A's candidate turns" in paper.verdict("case-IV-forced-win").summary


def test_case_IV_matrices_count_a_s_eats_one_way_and_note_step_5s_neutral_amoeba():
    card = paper.case_IV_matrices()
    game = Game.parse(f"start {paper.case_IV_position(44)}\n{paper.PAPER_CASE_IV_LINE}")
    for row in card.evidence.itertuples():
        eats = sum(1 for before, turn in zip(game.positions[: row.matrix], game.turns[: row.matrix])
                   if before.to_move == "A" and before[turn.dst] is not None)  # fmt: skip
        assert f"({row.caption}, after A's eat number {eats}) {row.cell}:" in card.summary
    last = game.turns[-1]
    assert game.position[last.dst].is_neutral and game.result == "A"
    assert "winning control of the new amoeba" in card.summary and "neutral (12,12)" in card.summary
    # the word is about the sentence 'A eats and wins' (its one line is legal and A wins); the pictures' cells listed
    assert card.verdict == "confirmed" and "the example's line is legal and A wins" in card.brief
    assert "a misprint of the pictures" in card.explanation and f"{len(card.evidence)} printed cells" in card.plain
    docs = (ROOT / "docs" / "paper.md").read_text()
    a1 = card.evidence[(card.evidence["cell"] == "a1") & (card.evidence["matrix"] < len(paper.PAPER_CASE_IV_MATRICES))]
    ordinal = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth"}
    eats = int(a1.iloc[0]["A's eats so far"])
    assert f"a1 after A's {ordinal[eats]}" in docs and "after the sixth" not in docs


def test_one_liners_of_case_I_case_III_step_2_forced_win_and_split_carry_their_set_up():
    from amoeboid_edu.theory.paper.case_IV import STEP_2_START

    case_I = paper.case_I((1, 2), games=1, opponents=("greedy",))
    assert case_I.brief.startswith("3x3, equal sizes, A's roll 1-3 ahead: ") and len(case_I.short) <= paper.SHORT_LINE
    start = paper.case_IV_position(45)
    setup = f"3x3, A {start['a1'].size} v B {start['c3'].size}"
    assert paper.verdict("case-IV-forced-win").brief.startswith(f"{setup} (delta 45): ")
    assert paper.verdict("split-in-half").brief.startswith(f"{setup}: ")
    step_2 = Position.parse(STEP_2_START)
    sizes = [step_2[cell].size for cell in (step_2.owned("A")[0], step_2.owned("B")[0])]
    assert paper.verdict("case-IV-step-2").brief.startswith(f"3x3, A {sizes[0]} v B {sizes[1]}: ")
    case_III = paper.case_III(((10, 1, 3),), turns=6, plan_turns=4)
    assert case_III.brief.startswith(f"3x3, {case_III_names(case_III)}: ")
    for item in ("case-IV-forced-win", "split-in-half", "case-IV-step-2"):
        assert len(paper.verdict(item).short) <= paper.SHORT_LINE


def case_III_names(card) -> str:
    """The set-ups of a case-III card, from its evidence (A's and B's sizes in each start searched)."""
    starts = [Position.parse(text) for text in card.evidence["start"].dropna().unique()]
    return " and ".join(f"A {p[p.owned('A')[0]].size} v B {p[p.owned('B')[0]].size}" for p in starts)
