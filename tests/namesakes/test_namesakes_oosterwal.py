"""Oosterwal's Amoeba: every number of the seed's three examples, the chip rule, the end, notation round trips."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from amoeboid_edu.namesakes import oosterwal as oo
from amoeboid_edu.namesakes.bots import OOSTERWAL_BOTS, oosterwal_search

X, Y = 0, 1  # the seed's players X and Y are our A and B


def board(rows: dict[int, dict[int, str]], to_move: str = "A") -> oo.Position:
    """Chips from rows {y: {x: "X3" | "o"}} in the seed's letters (X -> A, Y -> B)."""
    chips = []
    for y, row in rows.items():
        for x, piece in row.items():
            chips.append(((x, y), "" if piece == "o" else piece.replace("X", "A").replace("Y", "B")))
    chips.sort(key=lambda chip: (chip[0][1], chip[0][0]))
    return oo.Position(tuple(chips), (0, 0), oo.PLAYERS.index(to_move))


# ------------------------------------------------------------------ the seed's examples


def test_example_1_a_lone_one_pip_pyramid_scores_1_and_a_chip_goes_beside_it():
    start = oo.Position.start(2)  # 2 players: a row of 3 chips
    assert len(start.chips) == 3
    after = oo.apply(start, "1@2,0 +3,1")
    assert after.scores == (1, 0)
    assert len(after.chips) == 4
    with pytest.raises(oo.IllegalTurnError, match="touch at least two"):
        oo.apply(start, "1@2,0 +6,0")  # beside the end chip only: it touches one chip


EXAMPLE_2 = {0: {2: "X3", 4: "Y1", 6: "Y1"}, 1: {1: "o", 3: "X1", 5: "Y2", 7: "o"}, 2: {2: "X2", 4: "o"}}


def test_example_2_scores_3_times_3_plus_1_plus_2_is_18():
    before = board(EXAMPLE_2)
    assert before.multiplier((4, 2), X) == 3 + 1 + 2
    after = oo.apply(before, "3@4,2 +0,2")  # then a new chip on the left end of the bottom row
    assert after.scores[X] == 18
    assert [cell for cell, _ in after.chips if cell[1] == 2] == [(0, 2), (2, 2), (4, 2)]


# Example 3 as redrawn in the notes (x shifted by one so that x + y is even).
EXAMPLE_3 = {
    0: {6: "o"},
    1: {3: "Y3", 5: "Y2", 7: "Y3"},
    2: {2: "X3", 4: "Y1", 6: "Y1", 8: "Y1"},
    3: {1: "o", 3: "X1", 5: "Y2", 7: "X1"},
    4: {0: "Y1", 2: "X2", 4: "X3", 6: "X1"},
    5: {1: "X3", 3: "X2", 5: "o"},
}
SPOTS = {"a": (-1, 5), "b": (2, 6), "c": (4, 6), "d": (7, 5), "e": (8, 4)}


def test_example_3_the_three_open_spots_are_7x_for_y_8x_and_14x_for_x():
    before = board(EXAMPLE_3)
    assert before.multiplier((6, 0), Y) == 7  # the top row: X blocks Y's 7x
    assert before.multiplier((1, 3), X) == 8  # the left open spot: 8x this turn
    assert before.multiplier((5, 5), X) == 14  # the bottom right: 14x this turn
    assert before.score((5, 5), 3) == 42  # collecting 42 points for a 3-pip pyramid


def test_example_3_the_new_chip_spots_a_to_e_give_8_8_9_9_7_for_x_and_1x_for_y():
    placed = oo.apply(board(EXAMPLE_3), f"3@5,5 +{oo.cell_text(SPOTS['a'])}")
    assert placed.scores[X] == 42
    before_chip = board({**EXAMPLE_3, 5: {**EXAMPLE_3[5], 5: "X3"}})
    legal = before_chip.chip_spots()
    expected_x = {"a": 8, "b": 8, "c": 9, "d": 9, "e": 7}
    for label, spot in SPOTS.items():
        assert spot in legal, label  # each touches at least two chips
        after = oo.apply(before_chip, f"1@6,0 +{oo.cell_text(spot)}")  # any placement; the chip is what we test
        assert after.multiplier(spot, X) == expected_x[label], label
        for pips in (1, 2, 3):  # "1x for Y": a Y pyramid there scores its pips
            assert after.score(spot, pips, Y) == pips, label
    assert oo.apply(before_chip, f"1@6,0 +{oo.cell_text(SPOTS['a'])}").multiplier(SPOTS["a"], Y) == 1


# ------------------------------------------------------------------ the rules


def test_the_board_of_a_position_is_read_only():
    position = oo.Position.start(2)
    with pytest.raises(TypeError):
        position.board[(0, 0)] = "A3"  # would make A's run next to 2,0 count in the rule checks
    with pytest.raises(TypeError):
        del position.board[(0, 0)]
    assert position.board[(0, 0)] == "" and position.score((2, 0), 1) == 1


def test_chip_rule_and_placement_rule_errors_name_the_rule_and_leave_the_position_unchanged():
    start = oo.Position.start(3)
    text = str(start)
    cases = {
        "1@1,1 +3,1": "place",  # no chip there
        "1@0,0 +2,0": "chip",  # a chip is already there
        "1@0,0 +9,1": "chip",  # touches one chip
    }
    for turn, rule in cases.items():
        with pytest.raises(oo.IllegalTurnError) as caught:
            oo.apply(start, turn)
        assert caught.value.rule == rule
    taken = oo.apply(start, "3@0,0 +1,1")
    with pytest.raises(oo.IllegalTurnError, match="holds A3"):
        oo.apply(taken, "1@0,0 +3,1")
    assert str(start) == text
    game = oo.Game(start)
    with pytest.raises(oo.IllegalTurnError):
        game.play("1@0,0 +9,1")
    assert game.turns == [] and game.position == start


def test_a_player_with_no_pyramid_of_a_size_cannot_place_it():
    rows = {0: {2 * i: "X3" for i in range(5)} | {10: "o", 12: "o"}}
    position = board(rows)
    with pytest.raises(oo.IllegalTurnError) as caught:
        oo.apply(position, "3@10,0 +11,1")
    assert caught.value.rule == "hand"
    assert {pips for _, pips, _ in oo.placements(position)} == {1, 2}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_game_places_15_pyramids_each_and_ends_with_16_chips_per_player_plus_1(players):
    game = oo.random_game(random.Random(players), players)
    assert game.is_over and len(game.turns) == 15 * players
    assert len(game.position.chips) == 16 * players + 1  # the component list of the rules
    best = max(game.position.scores)
    assert game.result == "=".join(oo.PLAYERS[i] for i, s in enumerate(game.position.scores) if s == best)
    with pytest.raises(oo.IllegalTurnError, match="over"):
        oo.apply(game.position, oo.Turn((0, 0), 1, (1, 1)))


def test_equal_highest_totals_share_the_win():
    chips = tuple(((2 * i, 0), f"{'AB'[i % 2]}{1 + (i // 2) % 3}") for i in range(30)) + tuple(
        ((60 + 2 * i, 0), "") for i in range(3)
    )
    assert oo.Position(chips, (50, 50)).result == "A=B"
    assert oo.Position(chips, (50, 49)).result == "A"
    assert oo.winners((7, 9, 9)) == [1, 2]


def test_the_last_pyramid_ends_the_game():
    chips = tuple(((2 * i, 0), f"{'AB'[i % 2]}{1 + (i // 2) % 3}") for i in range(29)) + tuple(
        ((58 + 2 * i, 0), "") for i in range(4)
    )
    position = oo.Position(chips, (10, 10), to_move=1)
    assert not position.is_over and oo.placements(position)
    (cell, pips, score), *_ = oo.placements(position)
    after = oo.apply(position, oo.Turn(cell, pips, position.chip_spots()[0]))
    assert after.is_over and after.result == "B" and after.scores[1] == 10 + score


# ------------------------------------------------------------------ notation


@st.composite
def positions(draw) -> oo.Position:
    players = draw(st.integers(2, 6))
    rng = random.Random(draw(st.integers(0, 10**6)))
    position = oo.Position.start(players)
    for _ in range(draw(st.integers(0, 15 * players))):
        position = oo.apply(position, oo.random_turn(position, rng))
    scores = tuple(draw(st.integers(0, 10**4)) for _ in range(players))
    return oo.Position(position.chips, scores, position.to_move)


@settings(max_examples=60, deadline=None)
@given(positions())
def test_position_text_round_trips_exactly(position):
    text = str(position)
    assert oo.Position.parse(text) == position
    assert str(oo.Position.parse(text)) == text


coordinates = st.tuples(st.integers(-99, 99), st.integers(-99, 99)).map(lambda c: (c[0] * 2 + c[1] % 2, c[1]))


@settings(max_examples=150, deadline=None)
@given(coordinates, st.sampled_from(oo.PIPS), coordinates)
def test_turn_text_round_trips_exactly(place, pips, chip):
    turn = oo.Turn(place, pips, chip)
    assert oo.Turn.parse(str(turn)) == turn


@pytest.mark.parametrize(
    "text, words",
    [
        ("A:0 | o@0,0 o@2,0 | A", "2 to 6 players"),
        ("A:0 B:0 | o@0,1 | A", "X \\+ Y must be even"),
        ("A:0 B:0 | Z3@0,0 | A", "a pyramid is a player"),
        ("A:0 B:0 | o@0,0 o@0,0 | A", "two chips"),
        ("A:0 B:0 | o@0,0 | C", "one of AB"),
        ("A:0 B:0 o@0,0 A", "SCORES \\| CHIPS \\| PLAYER"),
        ("start 7", "2 to 6"),
        ("start \u0663", "digits 0-9"),  # an Arabic-Indic 3, which int() would read
        ("A:0 B:0 | o@0,0 o@2,0 o@\u0663,1 | A", "digits 0-9"),
        ("A:\uff13 B:0 | o@0,0 o@2,0 o@4,0 | A", "digits 0-9"),  # a full-width 3
        ("A:0 B:0 | o@0,0 o@2,0 o@1_0,0 | A", "digits 0-9"),
        ("A:0 B:0 | o@0,0 o@2,0 o@+4,0 | A", "digits 0-9"),
        ("A:0 B:0 | @0,0 o@2,0 o@4,0 | A", "o@X,Y \\(empty\\)"),
        ("A:0 B:0 | A1@0,0 | A", "no chip is empty"),
        ("A:0 B:0 | o@0,0 | A", "no free cell touches two chips"),
        ("A:0 B:0 | o@0,0 o@8,0 | A", "no free cell touches two chips"),
    ],
)
def test_bad_position_text_is_a_notation_error_naming_the_problem(text, words):
    with pytest.raises(oo.NotationError, match=words):
        oo.Position.parse(text)


@pytest.mark.parametrize(
    "args, words",
    [
        (((0, 0), 4, (1, 1)), "a pyramid has 1, 2 or 3 pips, not 4"),  # was a NotationError about a position
        (((0, 0), 0, (1, 1)), "1, 2 or 3 pips, not 0"),
        (((0, 0), 2.0, (1, 1)), "1, 2 or 3 pips, not 2.0"),
        (((0, 1), 1, (1, 1)), "place 0,1 is off the hex grid"),
        (((0, 0), 1, (1, 2)), "chip 1,2 is off the hex grid"),
        (((0, 0), 1, "1,1"), "chip is a cell \\(X, Y\\)"),
        (((0, 0, 0), 1, (1, 1)), "place is a cell"),
    ],
)
def test_a_turn_built_in_code_names_pips_1_to_3_and_two_cells_of_the_grid(args, words):
    with pytest.raises(oo.InvalidTurnError, match=words):
        oo.Turn(*args)


def test_turns_and_records_take_the_digits_0_9_only():
    with pytest.raises(oo.NotationError, match="digits 0-9"):
        oo.Turn.parse("1@\u0662,0 +3,1")
    with pytest.raises(oo.NotationError, match="line 1: the number of players"):
        oo.Game.parse("players \u0663\n")


@st.composite
def set_up_positions(draw) -> oo.Position:
    """Any few chips near the origin, each empty or holding a pyramid, that the notation accepts."""
    cells = draw(st.sets(st.tuples(st.integers(-3, 3), st.integers(-2, 2)), min_size=1, max_size=8))
    chips = [((2 * x + y % 2, y), draw(st.sampled_from(["", "A1", "A2", "A3", "B1", "B2", "B3"]))) for x, y in cells]
    chips.sort(key=lambda chip: (chip[0][1], chip[0][0]))
    try:
        return oo.Position(tuple(chips), (0, 0), draw(st.sampled_from([0, 1])))
    except oo.NotationError:
        reject()


@settings(max_examples=80, deadline=None)
@given(set_up_positions(), st.integers(0, 10**6))
def test_every_position_the_notation_accepts_plays_on_to_the_end(position, seed):
    rng = random.Random(seed)
    while not position.is_over:
        assert next(oo.legal_turns(position), None) is not None, str(position)
        position = oo.apply(position, oo.random_turn(position, rng))


def test_records_replay_with_players_and_start_headers():
    game = oo.random_game(random.Random(3), 3)
    again = oo.Game.parse(game.record())
    assert game.record().startswith("players 3\n")
    assert again.turns == game.turns and again.position == game.position
    custom = oo.Game(board(EXAMPLE_3))
    custom.play("3@5,5 +4,6")
    assert oo.Game.parse(custom.record()).position == custom.position
    with pytest.raises(oo.NotationError, match="line 2"):
        oo.Game.parse("1@2,0 +3,1\n1@2,0 +1,1\n")


def test_svg_draws_a_hex_per_chip():
    svg = board(EXAMPLE_3)._repr_svg_()
    assert svg.count('data-cell="') == sum(len(row) for row in EXAMPLE_3.values())


# ------------------------------------------------------------------ bots


def test_greedy_takes_the_best_scoring_placement():
    turn = OOSTERWAL_BOTS["greedy"](board(EXAMPLE_3), random.Random(0))
    assert (turn.place, turn.pips) == ((5, 5), 3)  # 42 points


def test_maxn_blocks_when_the_rival_would_score_more_than_it_can():
    # Y threatens 7x at the top spot; X can score only 1 anywhere: max-n blocks with X
    rows = {0: {6: "o"}, 1: {5: "Y2", 7: "Y3"}, 2: {4: "Y1", 8: "Y1"}, 3: {1: "o"}}
    position = board(rows)
    assert position.multiplier((6, 0), Y) == 7 and max(s for _, _, s in oo.placements(position)) == 3
    turn = oosterwal_search(2, width=9)(position, random.Random(0))
    assert turn.place == (6, 0)
