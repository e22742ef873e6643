"""The rules: legality, counts, errors, quantities, variants and graph boards."""

from __future__ import annotations

import itertools
import json
import pickle
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amoeboid_edu import (
    Amoeba,
    Board,
    IllegalTurnError,
    InvalidPositionError,
    InvalidTurnError,
    Position,
    Rules,
    Turn,
    apply,
    count_legal_turns,
    dice_outcomes,
    is_legal,
    legal_move_pairs,
    legal_turns,
)
from amoeboid_edu.engine.rules import ILLEGAL_REASONS, Splits, cells_after_legal, count_splits


def brute_force_turns(position: Position, roll: int) -> set[str]:
    """Every legal turn by trying every grow, source, destination and count: slow but obviously right."""
    found: set[str] = set()
    if position.is_over:
        return found
    mover = position.to_move
    most = max(max(a.a, a.b) for a in position.amoebae().values()) + roll
    for grow, amoeba in position.amoebae().items():
        if amoeba.owner != mover:
            continue
        moved = False
        for src, dst in itertools.product(position.board.names, repeat=2):
            for x in range(0, most + 2):
                for y in range(0, most + 2):
                    turn = Turn(roll, grow, src, dst, x, y)
                    if is_legal(position, turn):
                        found.add(str(turn))
                        moved = True
        if not moved:
            found.add(str(Turn(roll, grow)))
    return found


# --------------------------------------------------------------------------- amoebae and quantities


def test_amoeba_owner_size_and_neutrality():
    assert Amoeba(3, 1).owner == "A" and Amoeba(1, 3).owner == "B"
    assert Amoeba(2, 2).owner is None and Amoeba(2, 2).is_neutral
    assert Amoeba(5, 7).size == 12 and str(Amoeba(5, 7)) == "(5,7)"


def test_paper_quantities_on_a_hand_made_position():
    # A owns (14,4) (size 18); B owns (0,3) twice; units: a = 14 -> sigma_A = 13, b = 4+3+3 = 10 -> sigma_B = 9
    p = Position.parse(". . . / (14,4) . . / (0,3) (0,3) . A")
    assert (p.sigma_A, p.sigma_B, p.delta) == (13, 9, 4)
    assert (p.Sigma_A, p.Sigma_B, p.Delta) == (18, 6, 12)
    neutral = Position.parse("(2,2) (1,0) / . (0,1) B")
    assert (neutral.Sigma_A, neutral.Sigma_B) == (1, 1)  # the neutral (2,2) counts for nobody


def test_results():
    assert Position.start().result == "ongoing"
    assert Position.parse("(3,1) . / . (2,2) B").result == "A"
    assert Position.parse("(1,3) . / . . A").result == "B"
    assert Position.parse("(2,2) . / . (1,1) A").result == "tie"


def test_dice_outcomes_are_exact():
    outcomes = dice_outcomes()
    assert [roll for roll, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert all(p == Fraction(1, 6) for _, p in outcomes)
    assert sum(roll * p for roll, p in outcomes) == Fraction(7, 2)
    assert [r for r, _ in dice_outcomes(Rules(die_sides=4))] == [1, 2, 3, 4]


# --------------------------------------------------------------------------- golden counts (perft)


@pytest.mark.parametrize("roll", range(1, 7))
def test_start_counts_by_hand(roll):
    # a1 grows to (roll+1, 0); it has 3 empty neighbours (b1, a2, b2); any x in 1..roll+1 may move.
    assert count_legal_turns(Position.start(), roll) == 3 * (roll + 1)
    # rook adjacency: 2 neighbours (b1, a2)
    assert count_legal_turns(Position.start(rules=Rules(adjacency="rook")), roll) == 2 * (roll + 1)


def test_hand_counted_positions():
    # 2x2 start, roll 1: a1 = (2,0); b1, a2 empty (2 counts each); b2 = (0,1) size 1 (x in 1..2: 2 counts) -> 6
    assert count_legal_turns(Position.start(2), 1) == 6
    # Blocked: a1 = (6,0) after the roll, every neighbour has size 9: only "1 a1 -"
    blocked = Position.parse("(5,0) (0,9) / (0,9) (0,9) A")
    assert [str(t) for t in legal_turns(blocked, 1)] == ["1 a1 -"]
    # B to move, two owned amoebae (0,1) on a1 and b1 of a 1x3 board with c1 = (2,0).
    # Grow a1 -> (0,2): a1->b1 (size 1): y in 1..2 -> 2; b1->a1 (size 2 > 1) no; b1->c1 (2 > 1) no -> 2
    # Grow b1 -> (0,2): a1->b1 (size 2 > 1) no; b1->a1 (size 1 <= 2): 2; b1->c1 (size 2 <= 2): y=2 -> 1 -> 3
    line = Position.parse("(0,1) (0,1) (2,0) B")
    assert count_legal_turns(line, 1) == 5
    assert sorted(str(t) for t in legal_turns(line, 1)) == sorted(
        ["1 a1 a1-b1 0,1", "1 a1 a1-b1 0,2", "1 b1 b1-a1 0,1", "1 b1 b1-a1 0,2", "1 b1 b1-c1 0,2"]
    )


def test_golden_counts_on_the_paper_example_position():
    # Before the paper's 11th turn: A owns (18,4) in the centre, B owns (0,3) at a3 and (0,7) at c3.
    p = Position.parse(". . . / . (18,4) . / (0,3) . (0,7) A")
    assert count_legal_turns(p, 6) == len(brute_force_turns(p, 6)) == sum(1 for _ in legal_turns(p, 6))


def test_count_does_not_enumerate_big_amoebae():
    # (1000,500) has about half a million splits per destination; counting is instant
    big = Position.parse("(1000,500) . / . (0,1) A")
    assert count_legal_turns(big, 6) == sum(count_splits(1006, 500, need) for need in (0, 0, 1))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 30))
def test_splits_match_enumeration(a, b, need):
    expected = [(x, y) for x in range(a + 1) for y in range(b + 1) if x + y >= max(1, need)]
    splits = Splits(a, b, need)
    assert len(splits) == count_splits(a, b, need) == len(expected)
    assert list(splits) == expected


# --------------------------------------------------------------------------- generated positions


@st.composite
def positions(draw, max_side=4, max_units=6):
    rows, cols = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    if rows * cols < 2:
        cols = 2
    cells = draw(
        st.lists(
            st.one_of(st.none(), st.tuples(st.integers(0, max_units), st.integers(0, max_units)).filter(lambda c: sum(c))),
            min_size=rows * cols,
            max_size=rows * cols,
        )
    )
    adjacency = draw(st.sampled_from(["king", "rook"]))
    return Position(Board.grid(rows, cols, adjacency), tuple(cells), draw(st.sampled_from("AB")), Rules(adjacency))


@settings(max_examples=200, deadline=None)
@given(positions(), st.integers(1, 6))
def test_generator_count_and_legality_agree(position, roll):
    turns = list(legal_turns(position, roll))
    assert len(turns) == count_legal_turns(position, roll)
    assert len({str(t) for t in turns}) == len(turns)  # no duplicates
    for turn in turns[:200]:
        after = apply(position, turn)
        assert after.to_move != position.to_move
        assert tuple(cells_after_legal(position, turn)) == after.cells  # the bots' unchecked fast path agrees
        # units are conserved apart from the roll
        gained = (sum(c.a for c in after.amoebae().values()), sum(c.b for c in after.amoebae().values()))
        before = (sum(c.a for c in position.amoebae().values()), sum(c.b for c in position.amoebae().values()))
        assert gained == ((before[0] + roll, before[1]) if position.to_move == "A" else (before[0], before[1] + roll))


@settings(max_examples=40, deadline=None)
@given(positions(max_side=3, max_units=3), st.integers(1, 3))
def test_generator_matches_brute_force(position, roll):
    assert {str(t) for t in legal_turns(position, roll)} == brute_force_turns(position, roll)


# --------------------------------------------------------------------------- illegal turns


@pytest.mark.parametrize(
    "position, turn, reason, code",
    [
        ("(1,0) . . / . . . / . . (0,1) A", "3 c3 c3-b3", "A must grow an amoeba they own, and c3 holds (0,1)", "grow-not-owned"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 b2 b2-b3", "b2 is empty", "grow-not-owned"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 a1 a1-c1", "c1 is not adjacent to a1", "not-adjacent"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 a1 a1-b1 5,0", "cannot move 5,0 units out of a1", "counts"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 a1 a1-b1 0,1", "cannot move 0,1 units out of a1", "counts"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 a1 a1-b1 0,0", "at least one unit", "empty-move"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 a1 -", "a move is compulsory", "move-compulsory"),
        ("(1,0) (0,1) A", "1 a1 -", "a move is compulsory when one exists (for example a1-b1)", "move-compulsory"),
        ("(1,0) . . / . . . / . . (0,1) A", "7 a1 a1-b1", "a roll is a whole number from 1 to 6", "roll"),
        ("(1,0) . . / . . . / . . (0,1) A", "0 a1 a1-b1", "a roll is a whole number from 1 to 6", "roll"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 z9 a1-b1", "there is no cell z9 on this 3x3 board", "no-cell"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 a1 a1-z9", "there is no cell z9 on this 3x3 board", "no-cell"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 a1 z9-a1", "there is no cell z9 on this 3x3 board", "no-cell"),
        ("(1,0) (0,9) / . . A", "1 a1 a1-b1", "b1 holds (0,9) of size 9", "too-big"),
        ("(1,0) (0,9) / . . A", "1 a1 a1-b1 1,0", "a move of size 1 can only eat size <= 1", "too-big"),
        ("(3,0) (0,1) / (0,1) . A", "1 a1 b1-a2", "A must move from an amoeba they own, and b1 holds (0,1)", "source-not-owned"),
        ("(3,0) . / (0,1) . A", "1 a1 b1-a2", "A must move from an amoeba they own, and b1 is empty", "source-not-owned"),
        ("(3,1) . / . (2,2) B", "1 a1 -", "the game is over (won by A)", "game-over"),
        ("(2,2) . / . (1,1) A", "1 a1 -", "the game is over (a tie)", "game-over"),
        ("(1,0) (2,2) / . (0,1) A", "1 b1 b1-a1", "A must grow an amoeba they own, and b1 holds (2,2), which is neutral", "grow-not-owned"),
    ],
)
def test_illegal_turns_name_the_rule_and_change_nothing(position, turn, reason, code):
    p = Position.parse(position)
    before = (str(p), hash(p))
    with pytest.raises(IllegalTurnError) as caught:
        apply(p, turn)
    error = caught.value
    assert str(error) == f"illegal turn '{Turn.parse(turn)}' in position {p}: {error.rule}"
    assert reason in error.rule and "\n" not in str(error)
    assert error.reason == code and code in ILLEGAL_REASONS
    assert (str(p), hash(p)) == before and not is_legal(p, turn) and not p.is_legal(turn)
    again = pickle.loads(pickle.dumps(error))  # errors cross process boundaries in the lab
    assert (str(again), again.reason, again.rule) == (str(error), error.reason, error.rule)


@pytest.mark.parametrize("text", ["", "3", "3 a1", "x a1 -", "3 a1 a1b1", "3 a1 a1-b1 4", "3 a1 a1-b1 4,0 x", "3 a1 - 1,0", "3 a! -"])
def test_malformed_turns(text):
    with pytest.raises(InvalidTurnError):
        Turn.parse(text)
    assert not is_legal(Position.start(), text)


def test_omitted_counts_mean_the_whole_amoeba():
    p = Position.start()
    assert str(apply(p, "3 a1 a1-b1")) == ". (4,0) . / . . . / . . (0,1) B"
    assert apply(p, "3 a1 a1-b1") == apply(p, "3 a1 a1-b1 4,0")


def test_a_move_can_hand_the_source_over_to_the_opponent():
    # A moves all of its own units out of (3,2): what stays behind, (0,2), is B's
    p = Position.parse("(3,2) . . / . . . / . . (0,1) A")
    after = apply(p, "1 a1 a1-b1 4,0")
    assert after["a1"] == Amoeba(0, 2) and after["a1"].owner == "B" and after["b1"] == Amoeba(4, 0)


def test_legal_move_pairs():
    assert legal_move_pairs(Position.start(), 1, "a1") == [("a1", "b1"), ("a1", "a2"), ("a1", "b2")]
    with pytest.raises(IllegalTurnError):
        legal_move_pairs(Position.start(), 1, "c3")


# --------------------------------------------------------------------------- variants and graphs


def test_rook_adjacency_and_die_sides():
    rook = Position.start(rules=Rules(adjacency="rook"))
    assert rook.board.neighbours_of("b2") == ("b1", "a2", "c2", "b3")
    assert not is_legal(rook, "3 a1 a1-b2")
    four = Position.start(rules=Rules(die_sides=4))
    assert is_legal(four, "4 a1 a1-b1") and not is_legal(four, "5 a1 a1-b1")
    with pytest.raises(ValueError):
        Rules(adjacency="queen")


def test_graph_boards_from_mapping_and_networkx():
    networkx = pytest.importorskip("networkx")
    cycle = Board.graph(networkx.cycle_graph(5), start=(0, 2))
    mapping = Board.graph({0: [1, 4], 1: [2], 2: [3], 3: [4], 4: []}, start=(0, 2))
    assert cycle == mapping and mapping.neighbours_of("0") == ("1", "4")
    p = Position.start(mapping)
    assert p["0"] == Amoeba(1, 0) and p["2"] == Amoeba(0, 1)
    assert count_legal_turns(p, 2) == 2 * 3  # two empty neighbours, x in 1..3
    assert Position.from_json(p.to_json()) == p
    assert repr(p).startswith("Position.from_json(")
    with pytest.raises(InvalidPositionError):
        Board.graph({"a-b": []}, start=("a-b", "a-b"))


# --------------------------------------------------------------------------- position notation


@settings(max_examples=200, deadline=None)
@given(positions(max_side=6, max_units=1000))
def test_position_notation_round_trips(position):
    text = str(position)
    assert Position.parse(text, position.rules) == position
    assert str(Position.parse("  " + text.replace(" ", "   ").replace("(", "( ").replace(",", " , "), position.rules)) == text
    assert eval(repr(position), {"Position": Position, "Rules": Rules}) == position


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 6), positions())
def test_turn_notation_round_trips(roll, position):
    for turn in itertools.islice(legal_turns(position, roll), 20):
        assert Turn.parse(str(turn)) == turn
        assert eval(repr(turn), {"Turn": Turn}) == turn


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "empty position"),
        ("(1,0) . . / . . . / . . (0,1)", "ends with the side to move"),
        ("(1,0) . . / . . . / . . (0,1) C", "ends with the side to move"),
        ("(1,0) . . / . . / . . (0,1) A", "rows have different lengths"),
        ("(1,0) x . / . . . / . . (0,1) A", "'x' is neither"),
        ("(1,-1) . . / . . . / . . (0,1) A", "neither"),
        ("(0,0) . . / . . . / . . (0,1) A", "(0,0) is not an amoeba"),
        ("(1,0) . . / / . . (0,1) A", "row 2 is empty"),
        (" ".join(["."] * 27) + " A", "1..26 x 1..26"),
    ],
)
def test_malformed_positions(text, reason):
    with pytest.raises(InvalidPositionError) as caught:
        Position.parse(text)
    assert reason in str(caught.value)


def test_position_values_are_immutable_and_hashable():
    p = Position.start()
    with pytest.raises(AttributeError):
        p.to_move = "B"  # type: ignore[misc]
    assert {p: 1}[Position.parse(str(p))] == 1


def test_svg_display_is_deterministic_and_labelled():
    p = Position.parse(". . . / (5,5) (22,15) . / . . (8,8) B")
    svg = p._repr_svg_()
    assert svg == Position.parse(str(p))._repr_svg_()
    assert "(22,15)" in svg and "(5,5)" in svg and "stroke-dasharray" in svg  # neutral amoebae are dashed
    assert "0x" not in repr(p)


# --------------------------------------------------------------------------- holes found by mutation testing


def test_a_grow_without_a_move_does_not_end_the_listing():
    # Grow a1 -> (2,0): b1 (size 5) is too big and c1 cannot reach it either: "1 a1 -".
    # Grow c1 -> (5,0): c1 eats b1 with all five units; the listing goes on after the pass.
    p = Position.parse("(1,0) (0,5) (4,0) A")
    assert [str(t) for t in legal_turns(p, 1)] == ["1 a1 -", "1 c1 c1-b1 5,0"]
    assert count_legal_turns(p, 1) == 2 == p.count_legal_turns(1)
    assert [str(t) for t in p.legal_turns(1)] == ["1 a1 -", "1 c1 c1-b1 5,0"]


@pytest.mark.parametrize(
    "text, roll, expected",
    [
        ("(5,0) (0,9) / (0,9) (0,9) A", 1, 1),  # only the pass
        ("(1,0) (0,1) A", 1, 2),  # a1 = (2,0) eats b1 with 1 or 2 units
        ("(1,0) (0,1) B", 2, 3),  # b1 = (0,3) eats a1 (size 1) with 1, 2 or 3 units
        # a1 = (3,1): b1 and a2 are empty (4 * 2 - 1 = 7 splits each); b2 = (0,1) needs size >= 1 (7 more)
        ("(2,1) . / . (0,1) A", 1, 21),
        # a1 = (3,1) again, but b2 = (0,3) needs size >= 3: (2,1) (3,0) (3,1) -> 7 + 7 + 3
        ("(2,1) . / . (0,3) A", 1, 17),
    ],
)
def test_counts_by_hand_and_by_brute_force(text, roll, expected):
    p = Position.parse(text)
    brute = brute_force_turns(p, roll)
    assert count_legal_turns(p, roll) == len(brute) == expected
    assert {str(t) for t in legal_turns(p, roll)} == brute


def test_game_over_positions_have_no_turns():
    over = Position.parse("(3,1) . / . (2,2) B")
    assert list(legal_turns(over, 1)) == [] and count_legal_turns(over, 1) == 0
    with pytest.raises(IllegalTurnError, match="from 1 to 6"):
        count_legal_turns(over, 7)
    with pytest.raises(IllegalTurnError, match="from 1 to 6"):
        next(legal_turns(over, 0))


def test_cells_after_legal_fills_in_omitted_counts_and_passes():
    p = Position.start()
    whole = Turn.parse("3 a1 a1-b1")
    assert tuple(cells_after_legal(p, whole)) == apply(p, whole).cells
    assert cells_after_legal(p, whole)[1] == Amoeba(4, 0) and cells_after_legal(p, whole)[0] is None
    blocked = Position.parse("(5,0) (0,9) / (0,9) (0,9) A")
    assert cells_after_legal(blocked, Turn.parse("1 a1 -"))[0] == Amoeba(6, 0)
    assert tuple(cells_after_legal(blocked, Turn.parse("1 a1 -"))) == apply(blocked, "1 a1 -").cells


def test_splits_index_from_both_ends_and_refuse_outside():
    splits = Splits(3, 2, 2)
    listed = list(splits)
    assert [splits[i] for i in range(len(splits))] == listed
    assert [splits[-i] for i in range(1, len(splits) + 1)] == listed[::-1]
    assert splits[-1] == (3, 2) and splits[-len(splits)] == listed[0] == (0, 2)
    for outside in (len(splits), -len(splits) - 1, 10**30):
        with pytest.raises(IndexError):
            splits[outside]
    assert splits[1:3] == listed[1:3] and splits[::-1] == listed[::-1]
    assert (1, 1) in splits and (0, 1) not in splits and (4, 0) not in splits and "1,1" not in splits
    assert list(Splits(0, 0, 0)) == [] and len(Splits(0, 0, 0)) == 0


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 15), st.integers(0, 15), st.integers(0, 35))
def test_splits_indexing_matches_enumeration(a, b, need):
    expected = [(x, y) for x in range(a + 1) for y in range(b + 1) if x + y >= max(1, need)]
    splits = Splits(a, b, need)
    assert [splits[i] for i in range(len(expected))] == expected
    assert all((x, y) in splits for x, y in expected)


def test_splits_of_huge_amoebae_index_exactly():
    a = b = 10**20
    splits = Splits(a, b, 10**19)
    # the rows x = 0 .. 10**19 - 1 start at y = 10**19 - x (widths 10**20 - 10**19 + 1, + 1, + 1, ...);
    # the rows from x = 10**19 on hold y = 0 .. b
    rows = 10**19
    sloped_count = rows * (b - 10**19 + 1) + rows * (rows - 1) // 2
    assert count_splits(a, b, 10**19) == sloped_count + (a - 10**19 + 1) * (b + 1)
    assert splits[sloped_count - 1] == (10**19 - 1, b)
    assert splits[sloped_count] == (10**19, 0)
    assert splits[sloped_count + b + 1] == (10**19 + 1, 0)
    assert splits[0] == (0, 10**19) and splits[b - 10**19] == (0, b) and splits[b - 10**19 + 1] == (1, 10**19 - 1)
    assert splits[-1] == (a, b) and splits[count_splits(a, b, 10**19) - 1] == (a, b)


def test_rules_die_sides_bounds():
    assert Rules(die_sides=1).dice_outcomes() == ((1, Fraction(1)),)
    assert len(Rules(die_sides=20).dice_outcomes()) == 20
    for bad in (0, -1, 2.0, "6", None):
        with pytest.raises(ValueError, match="die_sides"):
            Rules(die_sides=bad)  # type: ignore[arg-type]
    one = Position.start(rules=Rules(die_sides=1))
    assert count_legal_turns(one, 1) == 6 and not is_legal(one, "2 a1 a1-b1")


def test_json_round_trips_and_exact_form():
    start = Position.start()
    assert start.to_json() == (
        '{"amoebae":{"a1":[1,0],"c3":[0,1]},"board":{"adjacency":"king","cols":3,"rows":3},"to_move":"A"}'
    )
    variant = Position.parse("(3,1) . (0,2) / . (2,2) . B", Rules(adjacency="rook", die_sides=4))
    data = json.loads(variant.to_json())
    assert data["die_sides"] == 4 and data["board"] == {"rows": 2, "cols": 3, "adjacency": "rook"}
    assert data["amoebae"] == {"a1": [3, 1], "c1": [0, 2], "b2": [2, 2]} and data["to_move"] == "B"
    again = Position.from_json(variant.to_json())
    assert again == variant and again.rules == Rules(adjacency="rook", die_sides=4)
    assert Board.from_dict(variant.board.to_dict()) == variant.board


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("not json", "not a position in JSON form"),
        ("[]", "not a position in JSON form"),
        ('{"amoebae": {}, "to_move": "A"}', "not a position in JSON form"),
        ('{"board": {"rows": 2, "cols": 2}, "amoebae": {"z9": [1, 0]}, "to_move": "A"}', "no cell 'z9'"),
        ('{"board": {"rows": 2, "cols": 2}, "amoebae": {"a1": [1, 0, 1]}, "to_move": "A"}', "JSON form"),
        ('{"board": {"rows": 2, "cols": 2}, "amoebae": {"a1": [1.5, 0]}, "to_move": "A"}', "whole numbers >= 0"),
        ('{"board": {"rows": 2, "cols": 2}, "amoebae": {"a1": [-1, 2]}, "to_move": "A"}', "whole numbers >= 0"),
        ('{"board": {"rows": 2, "cols": 2}, "amoebae": {"a1": [0, 0]}, "to_move": "A"}', "size >= 1"),
        ('{"board": {"rows": 2, "cols": 2}, "amoebae": {}, "to_move": "C"}', "'A' or 'B'"),
        ('{"board": {"rows": 2, "cols": 2}, "amoebae": {}, "to_move": "A", "die_sides": 0}', "die_sides"),
    ],
)
def test_json_errors_are_invalid_positions(text, fragment):
    with pytest.raises(InvalidPositionError) as caught:
        Position.from_json(text)
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    "cells, fragment",
    [
        (((1, -1), None, None, (0, 1)), "whole numbers >= 0"),
        (((-1, 2), None, None, (0, 1)), "whole numbers >= 0"),
        (((1.0, 0), None, None, (0, 1)), "whole numbers >= 0"),
        (((True, 0), None, None, (0, 1)), "whole numbers >= 0"),
        (((0, 0), None, None, (0, 1)), "size >= 1"),
        (((1,), None, None, (0, 1)), "is not an amoeba"),
        ((7, None, None, (0, 1)), "is not an amoeba"),
        (((1, 0), None, (0, 1)), "3 cells given for a board of 4"),
    ],
)
def test_position_validates_its_cells(cells, fragment):
    with pytest.raises(InvalidPositionError) as caught:
        Position(Board.grid(2), cells)
    assert fragment in str(caught.value)


def test_position_validates_board_and_side():
    with pytest.raises(InvalidPositionError, match="board must be a Board"):
        Position("3x3", (None,) * 9)  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="'A' or 'B', not 'C'"):
        Position(Board.grid(2), ((1, 0), None, None, (0, 1)), "C")
    p = Position(Board.grid(2), ((1, 0), None, None, (0, 1)), "B")
    assert p["a1"] == Amoeba(1, 0) and type(p["a1"]) is Amoeba and p.to_move == "B"


def test_non_square_start_and_default_adjacency():
    wide = Position.start(2, 3)
    assert str(wide) == "(1,0) . . / . . (0,1) A" and wide.board.shape == "2x3"
    assert str(Position.start(3, 2)) == "(1,0) . / . . / . (0,1) A"
    king = Board.grid(3)
    assert king.adjacency == "king" and king.neighbours_of("b2") == ("a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3")
    assert king.are_adjacent("a1", "b2") and king.are_adjacent("b2", "a1") and not king.are_adjacent("a1", "c1")
    rook = Board.grid(3, adjacency="rook")
    assert not rook.are_adjacent("a1", "b2") and rook.are_adjacent("a1", "b1")
    with pytest.raises(KeyError, match="no cell 'z9' on this 3x3 board"):
        king.are_adjacent("a1", "z9")


def test_owned_and_the_position_shortcuts():
    p = Position.parse("(3,1) (0,2) / (1,1) (2,0) B")
    assert p.owned() == ["b1"] and p.owned("A") == ["a1", "b2"] and p.owned("B") == ["b1"]
    assert p.owned_indices("A") == [0, 3] and p.owned_indices("B") == [1]
    turn = next(p.legal_turns(1))
    assert p.is_legal(turn) and p.apply(turn) == apply(p, turn)
    assert p.count_legal_turns(2) == count_legal_turns(p, 2)
    assert not p.is_legal("1 a1 a1-b1")


def test_resolve_fills_in_counts_and_play_turn_checks_once():
    from amoeboid_edu.engine.rules import play_turn, resolve

    p = Position.start()
    assert str(resolve(p, "3 a1 a1-b1")) == "3 a1 a1-b1 4,0"
    played, after = play_turn(p, "3 a1 a1-b1")
    assert str(played) == "3 a1 a1-b1 4,0" and after == apply(p, "3 a1 a1-b1")
    assert resolve(p, Turn.parse("3 a1 a1-b1 2,0")) == Turn(3, "a1", "a1", "b1", 2, 0)
    with pytest.raises(InvalidTurnError, match="a Turn or its notation"):
        resolve(p, 3)  # type: ignore[arg-type]


def test_turn_values_check_their_fields():
    with pytest.raises(InvalidTurnError, match="both a source and a destination"):
        Turn(1, "a1", "a1")
    with pytest.raises(InvalidTurnError, match="without a move cannot move units"):
        Turn(1, "a1", a=1, b=0)
    with pytest.raises(InvalidTurnError, match="both counts"):
        Turn(1, "a1", "a1", "b1", 1)
    with pytest.raises(InvalidTurnError, match="not int"):
        Turn.parse(3)  # type: ignore[arg-type]
    assert Turn(2, "a1").is_pass and str(Turn(2, "a1")) == "2 a1 -"
    assert not Turn(2, "a1", "a1", "b1").is_pass and str(Turn(2, "a1", "a1", "b1")) == "2 a1 a1-b1"


# --------------------------------------------------------------------------- edges that mutation testing found untested
# (scripts/mutation.sh; each test below kills mutants of rules.py that every other test let live)


def test_grid_cell_names_are_column_letter_then_row_number():
    from amoeboid_edu.engine.rules import grid_cell_name

    assert [grid_cell_name(0, c) for c in range(3)] == ["a1", "b1", "c1"]
    assert grid_cell_name(2, 1) == "b3" and grid_cell_name(25, 25) == "z26"


def test_a_turn_error_names_the_field_at_fault():
    with pytest.raises(InvalidTurnError, match="without a move cannot move units"):
        Turn(1, "a1", a=1)  # one count and no move: the missing move is the first fault
    error = IllegalTurnError("the die shows 4")  # as match.py raises it, without a reason code
    assert error.reason == "illegal" and str(error) == "the die shows 4"
    again = pickle.loads(pickle.dumps(IllegalTurnError("r", "too-big", "1 a1 a1-b1", "(1,0) (0,1) A")))
    assert (again.reason, again.turn) == ("too-big", "1 a1 a1-b1") and "in position (1,0) (0,1) A" in str(again)


def test_repr_names_the_rules_only_when_they_are_not_the_default():
    assert repr(Position.start(2)) == "Position.parse('(1,0) . / . (0,1) A')"
    variant = Position.start(2, rules=Rules(die_sides=4))
    assert repr(variant) == "Position.parse('(1,0) . / . (0,1) A', rules=Rules(adjacency='king', die_sides=4))"
    assert eval(repr(variant)) == variant


def test_only_pairs_are_in_splits():
    splits = Splits(2, 1, 1)
    assert (1, 1) in splits and (0, 0) not in splits and (3, 0) not in splits
    for other in ([1, 1], (1, 1, 1), "11", 7, None):
        assert other not in splits


def test_a_pass_after_a_move_does_not_reset_the_count():
    # Grow a1 -> (6,0): it eats b1 (size 6) with all six units, one turn.  Grow d1 -> (3,0): nothing can move,
    # so "2 d1 -" is the second turn.  The pass comes after the move in board order.
    p = Position.parse("(4,0) (0,6) (0,9) (1,0) A")
    assert [str(t) for t in legal_turns(p, 2)] == ["2 a1 a1-b1 6,0", "2 d1 -"]
    assert count_legal_turns(p, 2) == 2 == len(brute_force_turns(p, 2))


# --------------------------------------------------------------------------- the referee's fast path


def _outcome(check, position, turn):
    """What ``check(position, turn)`` gives: the played turn and cells, or the error's type, reason and message."""
    try:
        played, cells = check(position, turn)
    except (IllegalTurnError, InvalidTurnError) as error:
        return type(error), getattr(error, "reason", None), str(error)
    return str(played), played, tuple(cells)


@st.composite
def turns_for(draw, position):
    """Turns a strategy might answer in ``position``: legal ones, and near misses of every rule."""
    names = list(position.board.names) + ["z9"]
    roll = draw(st.integers(0, 7))
    if draw(st.booleans()) and 1 <= roll <= 6:
        legal = list(itertools.islice(legal_turns(position, roll), 50))
        if legal:
            return draw(st.sampled_from(legal))
    grow, src, dst = (draw(st.sampled_from(names)) for _ in range(3))
    counts = draw(st.one_of(st.none(), st.tuples(st.integers(0, 8), st.integers(0, 8))))
    if draw(st.integers(0, 5)) == 0:
        return Turn(roll, grow)
    return Turn(roll, grow, src, dst, *(counts or (None, None)))


@settings(max_examples=400, deadline=None)
@given(positions(), st.data())
def test_the_referees_fast_path_agrees_with_checking_every_rule(position, data):
    # apply() plays a legal move without preparing any message; every other turn goes through the rule-by-rule
    # checks.  Both must give the same turn, cells and error for every turn a strategy may answer.
    from amoeboid_edu.engine import rules

    for _ in range(5):
        turn = data.draw(turns_for(position))
        assert _outcome(rules._resolve, position, turn) == _outcome(rules._resolve_checked, position, turn)



def _read(parse, text):
    try:
        return parse(text)
    except InvalidTurnError as error:
        return str(error)


@settings(max_examples=400, deadline=None)
@given(st.one_of(
    st.text(alphabet="0123456789 -,ab_Z\t\n٣", max_size=20),
    st.builds(lambda t: str(t), st.builds(Turn, st.integers(0, 10**20), st.sampled_from(["a1", "b2", "Z_9"]))),
    st.builds(lambda r, g, s, d, a, b: f"{r} {g} {s}-{d} {a},{b}", st.integers(0, 10**20),
              *[st.sampled_from(["a1", "b_2", "é1", "", "c3 "])] * 3, st.integers(0, 10**19), st.integers(0, 10**19)),
    st.builds(lambda r, g, m: f"{r} {g} {m}",
              *[st.sampled_from(["3", "٣", "03", "+3", "1" * 19, "a1", "b2", "_"])] * 2,
              st.sampled_from(["-", "a1-b1", "a1-b1 4,0", "a1-b1 ４,0", "a1-b1 4,0,", "a1--b1", "a1-b1 4;0", "-b1"])),
))
def test_reading_a_turn_written_canonically_agrees_with_reading_it_field_by_field(text):
    assert _read(Turn.parse, text) == _read(Turn._parse_fields, text)
