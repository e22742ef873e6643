"""Nakajima's Amoeba: perft against an independent generator, notation round trips, the rules one by one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amoeboid_edu.namesakes import nakajima as nk
from amoeboid_edu.namesakes.bots import NAKAJIMA_BOTS, nakajima_search

# ------------------------------------------------------------------ an independent brute-force generator
# Cube coordinates (x, y, z), x + y + z = 0; stacks are lists, bottom first; nothing shared with the engine.

CUBE_STEPS = [(1, -1, 0), (-1, 1, 0), (1, 0, -1), (-1, 0, 1), (0, 1, -1), (0, -1, 1)]


def brute_start() -> tuple[dict, str]:
    board = {}
    for x in range(-3, 4):
        for z in range(-3, 4):
            y = -x - z
            if abs(y) <= 3:
                board[(x, y, z)] = []
    for x in range(4):
        board[(x, 3 - x, -3)] = ["b"]
    board[(1, 1, -2)] = ["B"]
    for x in range(-2, 4):
        board[(x, 1 - x, -1)] = ["b"]
    for x in range(-3, 3):
        board[(x, -1 - x, 1)] = ["w"]
    board[(-1, -1, 2)] = ["W"]
    for x in range(-3, 1):
        board[(x, -3 - x, 3)] = ["w"]
    return board, "w"


def brute_moves(board: dict, side: str) -> list[tuple]:
    enemy = "b" if side == "w" else "w"
    # the side that just moved (enemy) wins if it controls the stack holding side's kernel
    for stack in board.values():
        if side.upper() in stack and stack[-1].lower() == enemy:
            return []
    moves = []
    for cube, stack in board.items():
        if not stack or stack[-1].lower() != side:
            continue
        for step in CUBE_STEPS:
            path = [tuple(c + s * k for c, s in zip(cube, step)) for k in range(1, len(stack) + 1)]
            if all(point in board for point in path):
                moves.append((cube, tuple(path), False))
                if len(stack) > 1:
                    moves.append((cube, tuple(path), True))
    return moves


def brute_play(board: dict, move: tuple) -> dict:
    cube, path, sow = move
    after = {point: list(stack) for point, stack in board.items()}
    stack = after[cube]
    after[cube] = []
    if sow:
        for piece, point in zip(stack, path):
            after[point].append(piece)
    else:
        after[path[-1]].extend(stack)
    return after


def brute_perft(board: dict, side: str, depth: int) -> int:
    if depth == 0:
        return 1
    nxt = "b" if side == "w" else "w"
    return sum(brute_perft(brute_play(board, move), nxt, depth - 1) for move in brute_moves(board, side))


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_matches_an_independent_brute_force_generator(depth):
    board, side = brute_start()
    assert nk.perft(nk.Position.start(), depth) == brute_perft(board, side, depth)


def test_perft_golden_counts_from_the_start():
    # golden numbers for other implementations (checked against the brute force above, depths 1-3)
    assert [nk.perft(nk.Position.start(), depth) for depth in (1, 2)] == [52, 2704]


def test_perft_agrees_with_brute_force_in_random_midgame_positions():
    rng = random.Random(7)
    for _ in range(4):
        game = nk.random_game(rng, cap=rng.randrange(4, 20))
        if game.position.result != "ongoing":
            continue
        board, side = _to_brute(game.position)
        assert nk.perft(game.position, 2) == brute_perft(board, side, 2)


def _to_brute(position: nk.Position) -> tuple[dict, str]:
    board = {}
    for (q, r), stack in zip(nk.POINTS, position.stacks):
        board[(q, -q - r, r)] = list(stack)
    return board, position.to_move[0]


# ------------------------------------------------------------------ notation

stacks = st.text(alphabet="wb", max_size=4)


@st.composite
def positions(draw) -> nk.Position:
    cells = draw(st.lists(stacks, min_size=37, max_size=37))
    for kernel in "WB":
        index = draw(st.integers(0, 36))
        level = draw(st.integers(0, len(cells[index])))
        cells[index] = cells[index][:level] + kernel + cells[index][level:]
    return nk.Position(tuple(cells), draw(st.sampled_from(nk.SIDES)))


@settings(max_examples=150, deadline=None)
@given(positions())
def test_position_text_round_trips_exactly(position):
    text = str(position)
    assert nk.Position.parse(text) == position
    assert str(nk.Position.parse(text)) == text


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 36), st.integers(0, 36), st.booleans())
def test_move_text_round_trips_exactly(src, dst, sow):
    move = nk.Move(src, dst, sow)
    assert nk.Move.parse(str(move)) == move


@pytest.mark.parametrize(
    "args, words",
    [
        ((-1, 0), "src is a point 0-36 of the board, not -1"),  # was read as g4, the last point
        ((99, 0), "src is a point 0-36 of the board, not 99"),  # was an IndexError
        ((0, 37), "dst is a point 0-36 of the board, not 37"),
        ((0.0, 1), "src is a point"),
        ((True, 1), "src is a point"),
        ((0, 1, "yes"), "sow is True or False"),
    ],
)
def test_a_move_built_in_code_names_two_points_of_the_board(args, words):
    with pytest.raises(nk.InvalidMoveError, match=words):
        nk.Move(*args)


def test_start_position_text_and_its_name():
    start = nk.Position.start()
    assert str(start) == "b b b b / . . B . . / b b b b b b / . . . . . . . / w w w w w w / . . W . . / w w w w white"
    assert nk.Position.parse("start") == start


@pytest.mark.parametrize(
    "text, words",
    [
        ("b b b / . . B . . / b b b b b b / . . . . . . . / w w w w w w / . . W . . / w w w w white", "row a has 4"),
        (
            "b b b b / . . B . . / b b b b b b / . . . . . . . / w w w w w w / . . W . . / w w w w red",
            "'white' or 'black'",
        ),
        ("b b b b / . . . . . / b b b b b b / . . . . . . . / w w w w w w / . . W . . / w w w w white", "one kernel"),
        ("b b b b / . . B . . / b b x b b b / . . . . . . . / w w w w w w / . . W . . / w w w w white", "w, b"),
    ],
)
def test_bad_position_text_is_a_notation_error_naming_the_problem(text, words):
    with pytest.raises(nk.NotationError, match=words):
        nk.Position.parse(text)


@pytest.mark.parametrize("text", ["e\u0661-d\u0661", "e\uff11-d1", "e1~d\u0967"])
def test_point_names_take_the_digits_1_7_only(text):
    with pytest.raises(nk.NotationError, match="no point"):
        nk.Move.parse(text)


# ------------------------------------------------------------------ rules


def test_a_one_piece_stack_lists_move_and_sow_once():
    moves = list(nk.legal_moves(nk.Position.start()))
    assert len(moves) == len({(move.src, move.dst) for move in moves})
    assert not any(move.sow for move in moves)
    assert nk.resolve(nk.Position.start(), "e1~d1") == nk.Move.parse("e1-d1")


def _position(cells: dict[str, str], to_move: str = "white") -> nk.Position:
    stacks = [""] * 37
    for name, stack in cells.items():
        stacks[nk.point_index(name)] = stack
    return nk.Position(tuple(stacks), to_move)


def test_move_jumps_the_whole_stack_exactly_its_height_and_lands_on_top():
    position = _position({"d1": "bww", "d2": "b", "d4": "b", "a1": "B", "g4": "W"})
    after = nk.apply(position, "d1-d4")
    assert after.stacks[nk.point_index("d4")] == "bbww"
    assert after.stacks[nk.point_index("d1")] == "" and after.stacks[nk.point_index("d2")] == "b"
    assert after.to_move == "black"


def test_sow_drops_the_bottom_piece_first_one_per_point():
    position = _position({"d1": "bwW", "d2": "b", "a1": "B", "g4": "w"})
    after = nk.apply(position, "d1~d4")
    assert [after.stacks[nk.point_index(name)] for name in ("d1", "d2", "d3", "d4")] == ["", "bb", "w", "W"]


def test_a_stack_cannot_leave_the_board_and_tall_stacks_lose_directions():
    position = _position({"d4": "wwwbW", "a1": "B"})  # height 5 in the centre: no line from it is 5 long
    assert list(nk.legal_moves(position)) == []
    assert position.result == "black"  # white has no legal move: the side that moved last wins


def test_kernel_win_for_the_mover_even_if_the_enemy_gets_its_own_kernel():
    position = _position({"d1": "w", "d2": "B", "g4": "W"}, "white")
    after = nk.apply(position, "d1-d2")
    assert after.result == "white"
    both = _position({"d1": "bw", "d2": "B", "d3": "W"}, "white")  # sow: b onto B (black keeps it), w onto W
    after = nk.apply(both, "d1~d3")
    assert after.stacks[nk.point_index("d2")] == "Bb"
    assert after.result == "ongoing"  # black controls its own kernel; white's kernel stack is white's
    swap = _position({"d1": "wbw", "d2": "B", "d3": "W", "d4": ""}, "white")
    after = nk.apply(swap, "d1~d4")  # w on B (white controls black's kernel), b on W (black controls white's)
    assert after.result == "white"  # the mover wins: checked for the side that just moved


def test_the_side_to_move_holding_the_enemy_kernel_has_not_won_yet():
    position = _position({"d1": "Wb", "g4": "B", "a1": "w"}, "black")
    assert position.result == "ongoing"


def test_illegal_moves_are_rejected_naming_the_rule_and_the_position_is_unchanged():
    start = nk.Position.start()
    text = str(start)
    cases = {"a1-b1": "control", "d1-d2": "control", "e1-c1": "distance", "e1-e3": "distance"}
    for move, rule in cases.items():
        with pytest.raises(nk.IllegalMoveError) as caught:
            nk.apply(start, move)
        assert caught.value.rule == rule
    assert str(start) == text
    game = nk.Game()
    with pytest.raises(nk.IllegalMoveError):
        game.play("a1-b1")
    assert game.moves == [] and game.position == start
    with pytest.raises(nk.NotationError):
        nk.Move.parse("e1/d1")


def test_threefold_repetition_ends_the_game_by_stack_count():
    game = nk.Game()
    for move in ["e1-d1", "c1-d2", "d1-e1", "d2-c1"] * 2:
        assert not game.is_over
        game.play(move)
    assert game.reason == "repetition"
    assert game.result == nk.by_stack_count(game.position) == "draw"
    with pytest.raises(nk.IllegalMoveError, match="over"):
        game.play("e1-d1")
    game.undo()
    assert not game.is_over


def test_the_safety_cap_is_labelled_and_decided_by_stack_count():
    game = nk.random_game(random.Random(1), cap=6)
    assert game.reason == "cap" and len(game.moves) == 6
    assert game.result == nk.by_stack_count(game.position)


def test_records_replay_to_the_same_game():
    game = nk.random_game(random.Random(5))
    again = nk.Game.parse(game.record())
    assert again.moves == game.moves and again.result == game.result
    with pytest.raises(nk.NotationError, match="line 2"):
        nk.Game.parse("e1-d1\ne2-d2\n")


def test_seeded_random_games_reproduce():
    first = nk.random_game(random.Random(11))
    assert nk.random_game(random.Random(11)).moves == first.moves


def test_svg_draws_37_hexes():
    svg = nk.Position.start()._repr_svg_()
    assert svg.count("<polygon") == 37 and svg.count('data-cell="') == 37


def test_greedy_takes_a_winning_move_and_search_finds_a_two_ply_win():
    position = _position({"d1": "w", "d2": "B", "g4": "W", "a1": "b"})
    assert str(NAKAJIMA_BOTS["greedy"](position, random.Random(0))) == "d1-d2"
    assert str(nakajima_search(2)(position, random.Random(0))) == "d1-d2"


def test_search_avoids_a_move_that_lets_the_enemy_capture_at_once():
    # white's kernel at d4 with black's single disc at d6: moving the kernel stack to d5 walks into capture
    position = _position({"d4": "W", "d6": "b", "a1": "B", "g1": "w"})
    assert any(
        nk.apply(nk.apply(position, "d4-d5"), reply).result == "black"
        for reply in nk.legal_moves(nk.apply(position, "d4-d5"))
    )
    rng = random.Random(0)
    for _ in range(5):
        after = nk.apply(position, nakajima_search(2)(position, rng))
        assert not any(nk.apply(after, reply).result == "black" for reply in nk.legal_moves(after))


def test_no_way_to_a_kernel_is_stated_as_not_implemented_in_the_doc_and_the_lesson():
    start = nk.Position.start()
    assert all(nk.apply(start, move).result == "ongoing" for move in nk.legal_moves(start))  # the doc's first reading
    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "namesakes-notation.md").read_text()
    assert "is **not\n  implemented**" in doc
    lesson = (root / "lessons" / "src" / "11-three-amoebas.py").read_text()
    (draw_row,) = [line for line in lesson.splitlines() if line.startswith("# | draw |")]
    assert "kernel" not in draw_row  # the rules table states what the engine does
    assert "The engine does not implement that ending" in lesson


def test_the_notation_doc_states_what_the_engine_does():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "namesakes-notation.md").read_text()
    assert f"    {nk.Position.start()}\n" in doc
    centre = nk.point_index("d4")
    neighbours = " ".join(sorted(nk.NAMES[ray[0]] for ray in nk.RAYS[centre]))
    assert f"has the neighbours `{neighbours}`" in doc
    for depth in (1, 2, 3):  # the perft test above checks these against the brute force
        assert f"| {depth} | {nk.perft(nk.Position.start(), depth):,} |" in doc
