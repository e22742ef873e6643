"""The rules: legality, counts, errors, quantities, variants and graph boards."""

from __future__ import annotations

import itertools
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
from amoeboid_edu.rules import Splits, cells_after_legal, count_splits


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
    "position, turn, reason",
    [
        ("(1,0) . . / . . . / . . (0,1) A", "3 c3 c3-b3", "A must grow an amoeba they own, and c3 holds (0,1)"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 b2 b2-b3", "b2 is empty"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 a1 a1-c1", "c1 is not adjacent to a1"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 a1 a1-b1 5,0", "cannot move 5,0 units out of a1"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 a1 a1-b1 0,0", "at least one unit"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 a1 -", "a move is compulsory"),
        ("(1,0) . . / . . . / . . (0,1) A", "7 a1 a1-b1", "a roll is a whole number from 1 to 6"),
        ("(1,0) . . / . . . / . . (0,1) A", "0 a1 a1-b1", "a roll is a whole number from 1 to 6"),
        ("(1,0) . . / . . . / . . (0,1) A", "3 z9 a1-b1", "there is no cell z9 on this 3x3 board"),
        ("(1,0) (0,9) / . . A", "1 a1 a1-b1", "b1 holds (0,9) of size 9"),
        ("(1,0) (0,9) / . . A", "1 a1 a1-b1 1,0", "a move of size 1 can only eat size <= 1"),
        ("(3,0) (0,1) / (0,1) . A", "1 a1 b1-a2", "A must move from an amoeba they own, and b1 holds (0,1)"),
        ("(3,1) . / . (2,2) B", "1 a1 -", "the game is over (won by A)"),
    ],
)
def test_illegal_turns_name_the_rule_and_change_nothing(position, turn, reason):
    p = Position.parse(position)
    before = (str(p), hash(p))
    with pytest.raises(IllegalTurnError) as caught:
        apply(p, turn)
    message = str(caught.value)
    assert reason in message and str(p) in message and "\n" not in message
    assert (str(p), hash(p)) == before and not is_legal(p, turn)


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
