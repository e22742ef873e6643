"""Whole games: the paper's example, records, undo, the random player and fast playouts."""

from __future__ import annotations

import random

import pytest

from amoeboid_edu import (
    Game,
    IllegalTurnError,
    InvalidRecordError,
    Position,
    Rules,
    apply,
    is_legal,
    legal_turns,
    random_playout,
    random_turn,
    seeded_rng,
)
from amoeboid_edu.engine.game import CAPPED, TURN_CAP
from amoeboid_edu.engine.rules import Splits
from amoeboid_edu.engine.examples import PAPER_EXAMPLE_MATRICES, PAPER_EXAMPLE_RECORD, PAPER_EXAMPLE_WINNER


def board_only(position: Position) -> str:
    return str(position).rsplit(" ", 1)[0]


def test_paper_example_game_matches_every_matrix_in_the_paper():
    game = Game.parse(PAPER_EXAMPLE_RECORD)
    for turns_played, matrix in PAPER_EXAMPLE_MATRICES:
        assert board_only(game.positions[turns_played]) == matrix, f"after {turns_played} turns"
    assert str(game.position) == ". . . / (5,5) (22,15) . / . . (8,8) B"
    assert game.result == PAPER_EXAMPLE_WINNER
    final = game.position
    assert final.delta > 0 and final.Delta > 0  # the paper's two claims hold for its own game


def test_record_round_trip_is_exact():
    game = Game.parse(PAPER_EXAMPLE_RECORD)
    text = str(game)
    assert text.splitlines()[0] == "board 3x3" and text.endswith("# result: A\n")
    again = Game.parse(text)
    assert again.turns == game.turns and str(again) == text


def test_record_with_start_and_rectangular_board():
    text = "board 2x3\nstart . (3,0) . / (0,2) . . B\n1 a2 a2-b2 0,3\n"
    game = Game.parse(text)
    assert str(game.position) == ". (3,0) . / . (0,3) . A"
    assert str(game) == text  # the start line is kept because it is not the standard start
    assert str(Game.parse("board 2x3\n")) == "board 2x3\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("board 3x3\n3 a1 a1-c1\n", "turn 1: illegal turn '3 a1 a1-c1' in position"),
        ("3 a1 a1-b1\n3 a1 a1-b1\n", "turn 2: illegal turn '3 a1 a1-b1'"),
        ("3 a1 a1-b1\nfoo\n", "turn 2: turn 'foo'"),
        ("board 3 by 3\n", "line 1: expected 'board RxC'"),
        ("board 30x3\n", "line 1: a grid board is 1..26 x 1..26"),
        ("start (1,0) . / . x A\n", "line 1: start position"),
        ("3 a1 a1-b1\nboard 3x3\n", "line 2: 'board' must come before the first turn"),
        ("board 2x2\nstart (1,0) . . / . . . / . . (0,1) A\n", "header says board 2x2"),
    ],
)
def test_bad_records_say_where_and_why(text, message):
    with pytest.raises(InvalidRecordError) as caught:
        Game.parse(text)
    assert message in str(caught.value)


def test_a_turn_after_the_end_is_an_error():
    with pytest.raises(InvalidRecordError, match="turn 18: .*the game is over"):
        Game.parse(PAPER_EXAMPLE_RECORD + "1 b2 b2-b1\n")


def test_game_dice_undo_and_illegal_turns_change_nothing():
    game = Game(seed=11)
    roll = game.roll()
    assert game.roll() == roll  # rolling again shows the same pending roll
    wrong = f"{roll % 6 + 1} a1 a1-b1"
    with pytest.raises(IllegalTurnError, match=f"the die shows {roll}"):
        game.play(wrong)
    with pytest.raises(IllegalTurnError):
        game.play(f"{roll} a1 a1-c3")
    assert len(game) == 0 and game.pending_roll == roll and game.position == Position.start()
    game.play(next(game.legal_turns()))
    second = game.roll()
    game.undo()
    assert len(game) == 0 and game.position == Position.start()
    assert game.roll() == roll  # undo rewinds the die: no fishing for a better roll
    game.play(next(game.legal_turns()))
    assert game.roll() == second
    with pytest.raises(IndexError):
        Game().undo()


def test_rows_track_the_papers_quantities():
    game = Game.parse(PAPER_EXAMPLE_RECORD)
    rows = game.rows()
    assert len(rows) == 17 and rows[0]["player"] == "A" and rows[1]["player"] == "B"
    sigma_a = sum(row["roll"] for row in rows if row["player"] == "A")
    sigma_b = sum(row["roll"] for row in rows if row["player"] == "B")
    last = rows[-1]
    assert (last["sigma_A"], last["sigma_B"], last["delta"]) == (sigma_a, sigma_b, sigma_a - sigma_b)
    assert (last["Sigma_A"], last["Sigma_B"], last["Delta"]) == (37, 0, 37)
    assert last["result"] == "A" and last["notation"] == "5 b3 b3-b2 16,4"


# --------------------------------------------------------------------------- the random player


def reference_playout(start: Position, rng: random.Random, max_turns: int = TURN_CAP) -> tuple[Position, int]:
    """The spec's policy written out literally with rng.randint and rng.choice."""
    position, turns = start, 0
    while not position.is_over and turns < max_turns:
        roll = rng.randint(1, position.rules.die_sides)
        position = apply(position, random_turn(position, roll, rng))
        turns += 1
    return position, turns


@pytest.mark.parametrize("rows, rules", [(3, Rules()), (4, Rules(adjacency="rook")), (2, Rules(die_sides=4))])
def test_fast_playout_is_the_same_game_as_the_reference_policy(rows, rules):
    start = Position.start(rows, rules=rules)
    for seed in range(300):
        fast = random_playout(start, seeded_rng(seed, "check"))
        position, turns = reference_playout(start, seeded_rng(seed, "check"))
        result = position.result if position.is_over else CAPPED
        assert (fast.final, fast.turns, fast.result) == (position, turns, result), f"seed {seed}"


def test_game_play_random_equals_random_playout():
    for seed in range(50):
        game = Game(seed=seed)
        game.play_random()
        fast = random_playout(Position.start(), seeded_rng(seed))
        assert game.position == fast.final and len(game) == fast.turns and game.result == fast.result


def test_random_player_follows_the_spec_step_by_step():
    # Hand-trace the policy's draws: grow from owned cells, pair from the move pairs, whole move if < 0.9.
    position = Position.parse("(3,0) . . / . (1,0) . / . . (0,2) A")
    rng = random.Random(5)
    mirror = random.Random(5)
    turn = random_turn(position, 4, rng)
    grow = mirror.choice(["a1", "b2"])
    assert turn.grow == grow
    pairs = [
        (s, d)
        for s in ("a1", "b2")
        for d in position.board.neighbours_of(s)
        if is_legal(position, f"4 {grow} {s}-{d}")
    ]
    assert (turn.src, turn.dst) == mirror.choice(pairs)
    source = position[turn.src]
    whole = (source.a + (4 if turn.src == grow else 0), source.b)
    if mirror.random() < 0.9:
        assert (turn.a, turn.b) == whole
    else:
        target = position[turn.dst]
        assert (turn.a, turn.b) == mirror.choice(Splits(*whole, 0 if target is None else target.size))


def test_random_player_sometimes_splits():
    position = Position.parse("(3,0) . . / . . . / . . (0,2) A")
    shapes = {(t.a, t.b) for t in (random_turn(position, 2, random.Random(seed)) for seed in range(200))}
    assert (5, 0) in shapes and len(shapes) > 2  # mostly whole moves, about 10% splits


def test_playout_cap_and_finished_positions():
    start = Position.start(8)
    capped = random_playout(start, random.Random(1), max_turns=10)
    assert capped.turns == 10 and capped.result == CAPPED
    assert capped.final.to_move == "A"  # ten turns later it is A's turn again
    over = Position.parse("(3,1) . / . (2,2) B")
    assert random_playout(over, random.Random(0)).turns == 0


def test_thousands_of_random_games_conserve_units_and_confirm_both_claims():
    """Units conserved after every turn; every winner has delta > 0 and Delta > 0 (the paper's claims)."""
    results = {"A": 0, "B": 0, "tie": 0}
    for seed in range(2000):
        rng = seeded_rng(seed, "claims")
        position = Position.start()
        rolls = {"A": 0, "B": 0}
        while not position.is_over:
            roll = rng.randint(1, 6)
            turn = random_turn(position, roll, rng)
            rolls[position.to_move] += roll
            position = apply(position, turn)
            units_a = sum(c.a for c in position.amoebae().values())
            units_b = sum(c.b for c in position.amoebae().values())
            assert (units_a, units_b) == (1 + rolls["A"], 1 + rolls["B"])
        results[position.result] += 1
        if position.result != "tie":
            sign = 1 if position.result == "A" else -1
            assert sign * position.delta > 0 and sign * position.Delta > 0, str(position)
    assert min(results.values()) > 50, results  # the claims were checked on many wins of each side


def test_every_generated_turn_applies_and_every_rejected_turn_changes_nothing():
    rng = seeded_rng(0, "sweep")
    checked = 0
    for seed in range(200):
        position = random_playout(Position.start(), seeded_rng(seed, "sweep"), max_turns=rng.randint(0, 12)).final
        if position.is_over:
            continue
        roll = rng.randint(1, 6)
        legal = list(legal_turns(position, roll))
        for turn in legal[:300]:
            apply(position, turn)
            checked += 1
        snapshot = str(position)
        for turn in legal[:50]:  # nudge each legal turn into an illegal one
            bad = f"{turn.roll} {turn.grow} {turn.src or turn.grow}-{turn.dst or turn.grow} 99,99"
            with pytest.raises(IllegalTurnError):
                apply(position, bad)
        assert str(position) == snapshot
    assert checked > 1000


def test_a_record_writes_no_start_line_for_the_standard_start_under_any_rules():
    # (found by scripts/mutation.sh: the comparison with the standard start must use the game's own rules)
    from amoeboid_edu.engine.notation import format_record

    for rules in (Rules(), Rules(die_sides=4), Rules(adjacency="rook")):
        assert format_record(Position.start(rules=rules), []) == "board 3x3\n"
    moved = Position.parse("(1,0) . / . (0,1) B", Rules(die_sides=4))
    assert format_record(moved, [], "ongoing") == "board 2x2\nstart (1,0) . / . (0,1) B\n"


def test_a_games_dice_are_the_one_seeding_scheme():
    game = Game(seed="7:dice:12")
    rolls = []
    while not game.is_over and len(rolls) < 20:
        rolls.append(game.roll())
        game.play(random_turn(game.position, rolls[-1], seeded_rng("player")))
    dice = seeded_rng(7, "dice", 12)
    assert rolls == [dice.randint(1, 6) for _ in rolls]


def test_the_one_turn_cap_stops_a_game_capped():
    game = Game(seed=3, turn_cap=6)
    game.play_random()
    assert len(game) <= 6
    if not game.position.is_over:
        assert game.capped and game.is_over and game.result == CAPPED
        with pytest.raises(IllegalTurnError, match="capped: 6 turns played"):
            game.roll()
        game.undo()
        assert not game.is_over and game.result == "ongoing"
    playout = random_playout(Position.start(), seeded_rng(3), max_turns=6)
    assert playout.result == game.result and playout.turns == len(game)


def test_an_agreed_draw_is_a_tie_and_undo_takes_it_back():
    game = Game(seed=1)
    game.play(next(game.legal_turns()))
    game.agree_draw()
    assert game.is_over and game.result == "tie" and not game.capped
    with pytest.raises(IllegalTurnError, match="over"):
        game.agree_draw()
    game.undo()
    assert not game.is_over and len(game) == 0
