"""The board widget driven through intents, as the browser drives it, without a browser.

Expected positions always come from the engine (``apply``), never from the widget.
"""

from __future__ import annotations

import doctest
import random
from pathlib import Path

import pytest
from board_players import choose
from intent_race import race

from amoeboid_edu import Game, Position, Turn, apply, random_turn
from amoeboid_edu.players.strategy import grown
from amoeboid_edu.ui import render, widget
from amoeboid_edu.engine.game import CAPPED, TURN_CAP
from amoeboid_edu.players.registry import BOTS
from amoeboid_edu.ui.widget import STATIC, Board, Replay, play, resolve_opponent

PAPER_OPENING = "3 a1 a1-b1\n2 c3 c3-b3\n3 b1 b1-c1\n1 b3 b3-a3"


def snapshot(board: Board) -> tuple:
    """Everything an intent may change (the error message aside)."""
    return (board.version, board.position, board.view, board.record, board.message, board.game.pending_roll)


def play_by_intents(board: Board, turn: Turn) -> None:
    """Make ``turn`` the way a student does: click the grow, the source, set counts, click the destination."""
    if board.phase == "grow":
        assert board.click(turn.grow), board.error
    assert board.view["grow"] == turn.grow
    if turn.is_pass:
        return
    assert board.click(turn.src), board.error
    counts = board.view["counts"]
    if (counts["a"], counts["b"]) != (turn.a, turn.b):
        assert board.handle_intent({"kind": "counts", "a": turn.a, "b": turn.b, "version": board.version}), board.error
    assert turn.dst in board.view["targets"]
    assert board.click(turn.dst), board.error


def human_turn(board: Board, rng: random.Random) -> tuple[Position, Turn]:
    before, roll = board.game.position, board.view["roll"]
    turn = choose(before, roll, rng)
    if len(before.owned()) == 1 and not turn.is_pass:
        assert board.phase == "source"  # one amoeba: the grow is automatic
    play_by_intents(board, turn)
    return before, turn


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_whole_hot_seat_game_by_intents(seed):
    board = Board(seed=seed)
    rng = random.Random(seed)
    while not board.game.is_over:
        assert len(board.game) < 200, "the test's greedy players should finish a 3x3 game"
        ply = len(board.game)
        before, turn = human_turn(board, rng)
        if turn.is_pass:  # a pass is played by the board itself, after the grow
            ply = len(board.game) - 1
        assert board.game.positions[ply] == before
        assert board.game.positions[ply + 1] == apply(before, turn)
        assert board.position == str(board.game.position)
    assert board.phase == "over"
    assert board.view["result"] == board.game.result != "ongoing"
    assert Game.parse(board.record).position == board.game.position
    assert board.history == [str(turn) for turn in board.game.turns]


def test_against_the_random_bot_every_turn_is_legal_and_reproducible():
    def one_game():
        board = play("random", seed=5)
        rng = random.Random(5)
        shown_bot_turns = []
        board.observe(lambda change: shown_bot_turns.extend(step["turn"] for step in change["new"]["steps"]), "view")
        while not board.game.is_over and len(board.game) < 120:
            assert board.game.position.to_move == "A"
            human_turn(board, rng)
        return board, shown_bot_turns

    board, shown = one_game()
    replayed = Game.parse(board.record)
    assert replayed.positions == board.game.positions
    bot_turns = [str(turn) for turn, before in zip(board.game.turns, board.game.positions) if before.to_move == "B"]
    assert shown == bot_turns  # every bot turn was handed to the browser to show step by step
    again, _ = one_game()
    assert again.record == board.record


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_baseline_bot_plays_on_the_board_by_name(name):
    board = play(name, seed=7)
    rng = random.Random(7)
    while not board.game.is_over and len(board.game) < 30:
        human_turn(board, rng)
    assert board.players == {"A": "human", "B": name}
    assert Game.parse(board.record).positions == board.game.positions  # every bot turn was legal


def test_bot_steps_describe_the_grow_and_the_move():
    board = Board(opponent=random_turn, human="B", seed=3)  # the bot (A) moves first
    (step,) = board.view["steps"]
    turn = board.game.turns[0]
    assert (
        step["turn"] == str(turn) and step["grow"] == turn.grow and (step["src"], step["dst"]) == (turn.src, turn.dst)
    )
    start = Position.start()
    assert step["before_svg"] == render.board_svg(start, marks={turn.grow: "amb-grow"})
    grown_by_the_roll = grown(start, turn.grow, turn.roll)
    assert f'data-amoeba="({grown_by_the_roll[turn.grow].a},{grown_by_the_roll[turn.grow].b})"' in step["grown_svg"]
    assert board.game.position.to_move == "B" and board.phase == "source"


def test_presets_eat_and_neutralise_use_the_strategy_helpers():
    board = Board.from_position(". . . / (6,3) (2,3) . / . . . A", seed=0)
    roll = board.view["roll"]
    assert board.click("a2")
    presets = {(p["label"], p["target"]): (p["a"], p["b"]) for p in board.view["presets"]}
    grown_a = 6 + roll
    assert presets[("whole", None)] == (grown_a, 3)
    assert presets[("half", None)] == (grown_a // 2, 1)
    assert presets[("capture", "b2")] == (5, 0)  # eating (2,3) with 5 of A's units also captures it
    assert presets[("neutralise", "b2")] == (3, 2)
    before = board.game.position
    assert board.handle_intent({"kind": "counts", "a": 3, "b": 2, "version": board.version})
    assert board.click("b2")
    assert board.game.position == apply(before, Turn(roll, "a2", "a2", "b2", 3, 2))
    assert board.game.position["b2"].is_neutral


def test_a_pure_enemy_amoeba_can_be_neutralised_or_captured():
    board = Board.from_position(". . . / (6,0) (0,3) . / . . . A", seed=0)
    roll = board.view["roll"]
    assert board.click("a2")
    presets = {(p["label"], p["target"]): (p["a"], p["b"]) for p in board.view["presets"]}
    assert presets[("neutralise", "b2")] == (3, 0)  # the smallest eat leaves (3,3): neutral
    assert presets[("capture", "b2")] == (4, 0)
    before = board.game.position
    assert board.handle_intent({"kind": "counts", "a": 4, "b": 0, "version": board.version})
    assert board.click("b2") and board.game.position == apply(before, Turn(roll, "a2", "a2", "b2", 4, 0))
    assert board.game.position["b2"].owner == "A"


def test_counts_change_the_legal_destinations():
    board = Board.from_position("(3,0) (0,4) . / . . . / . . . A", seed=0)  # the roll grows a1 to 3 + roll >= 4
    assert board.click("a1")
    assert "b1" in board.view["targets"]
    assert board.handle_intent({"kind": "counts", "a": 1, "b": 0, "version": board.version})
    assert "b1" not in board.view["targets"] and "a2" in board.view["targets"]
    before = snapshot(board)
    assert not board.click("b1")
    assert "size 4" in board.error and snapshot(board) == before


NOW = object()  # stands for the board's current version


@pytest.mark.parametrize(
    "intent, reason",
    [
        ("garbage", "expected an object"),
        ({"kind": "cell", "cell": "a1"}, "no board version"),
        ({"kind": "cell", "cell": "a1", "version": "0"}, "no board version"),
        ({"kind": "cell", "cell": "a1", "version": -1}, "older board"),
        ({"kind": "explode", "version": NOW}, "unknown kind"),
        ({"kind": None, "version": NOW}, "unknown kind"),
        ({"kind": "cell", "cell": 7, "version": NOW}, "'cell' must be str"),
        ({"kind": "cell", "cell": "z9", "version": NOW}, "no cell 'z9'"),
        ({"kind": "cell", "cell": "c3", "version": NOW}, "c3 holds (0,1), B's: click one of A's amoebae (a1, c1)"),
        ({"kind": "cell", "cell": "a2", "version": NOW}, "a2 is empty: click one of A's amoebae (a1, c1)"),
        ({"kind": "counts", "a": 1, "b": 0, "version": NOW}, "choose an amoeba to move from"),
        ({"kind": "seek", "ply": 1, "version": NOW}, "unknown kind"),
    ],
)
def test_malformed_or_illegal_intents_are_rejected_and_change_nothing(intent, reason):
    board = Board.from_position("(1,0) . (1,0) / . (0,2) . / . . (0,1) A", seed=0)
    assert board.phase == "grow"
    if isinstance(intent, dict) and intent.get("version") is NOW:
        intent = {**intent, "version": board.version}
    before = snapshot(board)
    assert not board.handle_intent(intent)
    assert reason in board.error
    assert snapshot(board) == before


def test_stale_and_bad_count_intents_mid_turn_are_rejected():
    board = Board(seed=4)
    assert board.click("a1")
    stale_version = board.version - 1
    before = snapshot(board)
    assert not board.handle_intent({"kind": "cell", "cell": "b1", "version": stale_version})
    assert "older board" in board.error and snapshot(board) == before
    grown = board.view["counts"]["max_a"]
    for bad in ({"a": grown + 1, "b": 0}, {"a": 0, "b": 0}, {"a": -1, "b": 1}, {"a": True, "b": 0}, {"a": 1.0, "b": 0}):
        assert not board.handle_intent({"kind": "counts", **bad, "version": board.version})
        assert snapshot(board) == before
    assert not board.click("c3")  # B's amoeba is neither adjacent nor smaller: not a destination
    assert snapshot(board) == before
    assert board.click("b2") and board.game.position["b2"] == (grown, 0)
    assert not board.handle_intent(
        {"kind": "cell", "cell": "b1", "version": before[0]}
    )  # the click made before the move


def test_two_intents_made_on_one_version_at_once_apply_only_the_first():
    """The kernel may carry out two widget messages at once on two threads: the second must see the first's version."""
    replay = Replay(PAPER_OPENING)
    version = replay.version
    seek = {"kind": "seek", "version": version}
    assert race(replay, "_checked_ply", {**seek, "ply": 1}, {**seek, "ply": 2}) == (True, False)
    assert replay.ply == 1 and replay.version == version + 1 and "older board" in replay.error


def test_grow_with_several_amoebae_and_undo():
    board = Board.from_position("(3,0) . . / . . . / . . (0,2) A", seed=0)
    roll = board.view["roll"]
    play_by_intents(board, Turn(roll, "a1", "a1", "b2", 1, 0))
    b_turn = Turn(board.view["roll"], "c3", "c3", "b3")
    play_by_intents(board, Turn(b_turn.roll, "c3", "c3", "b3", 0, 2 + b_turn.roll))
    assert board.phase == "grow" and set(board.view["selectable"]) == {"a1", "b2"}
    roll = board.view["roll"]
    assert board.click("b2") and board.view["grow"] == "b2"
    assert board.handle_intent({"kind": "undo", "version": board.version})  # cancels the half-made turn only
    assert board.phase == "grow" and len(board.game) == 2 and board.view["roll"] == roll
    assert board.handle_intent({"kind": "undo", "version": board.version})  # takes back B's turn; same roll again
    assert len(board.game) == 1 and board.view["roll"] == b_turn.roll


def test_undo_against_a_bot_goes_back_to_the_humans_turn_and_new_game_reseeds():
    board = play("random", seed=2)
    roll = board.view["roll"]
    play_by_intents(board, choose(board.game.position, roll, random.Random(0)))
    assert len(board.game) == 2 and board.game.position.to_move == "A"
    assert board.handle_intent({"kind": "undo", "version": board.version})
    assert len(board.game) == 0 and board.view["roll"] == roll
    assert not board.handle_intent({"kind": "undo", "version": board.version})
    assert "nothing to undo" in board.error
    assert board.handle_intent({"kind": "new", "version": board.version})
    assert board.game.seed == "2:1" and len(board.game) == 0


def test_a_pass_is_played_by_the_board_and_said():
    # B's (0,1) in the corner is hemmed in by bigger amoebae: after growing it still cannot move
    board = Board.from_position("(1,0) . . / . (9,0) (9,0) / . (9,0) (0,1) B", seed=0)
    assert board.game.turns and board.game.turns[0].is_pass
    assert board.game.position.to_move == "A" and board.history == [str(board.game.turns[0])]
    assert "B grew c3 by" in board.message and "no legal move, so the turn passed" in board.message
    assert board.view["pass_note"] == "B had to pass (no legal move)"


def test_a_scripted_pass_is_said_in_the_status_until_the_next_turn():
    board = Board.from_position(". . . / . (9,0) (9,0) / . (9,0) (0,1) A", seed=0)
    board.queue(["1 b2 b2-a1 1,0", "2 c3 -", "1 b3 b3-c3 10,0"])  # B, hemmed in by (9,0)s, must pass
    board.next()
    assert board.view["pass_note"] is None
    board.next()
    assert board.view["pass_note"] == "B had to pass (no legal move)" and board.view["last_turn"] == "2 c3 -"
    board.next()
    assert board.view["pass_note"] is None


def test_queue_steps_through_a_scripted_line_and_checks_it_first():
    board = Board(seed=0)
    turns_seen = []
    board.observe_turns(lambda position, turn: turns_seen.append((str(position), str(turn))))
    before = snapshot(board)
    with pytest.raises(ValueError, match="queued turn 3"):
        board.queue(["3 a1 a1-b1", "2 c3 c3-b3", "3 c1 c1-c2"])
    assert snapshot(board) == before
    board.queue(PAPER_OPENING)
    assert board.phase == "queued" and board.view["queued"] == 4
    assert not board.click("a1") and "Next" in board.error
    position = Position.start()
    for line in PAPER_OPENING.splitlines():
        assert board.handle_intent({"kind": "next", "version": board.version})
        position = apply(position, line)
        assert board.game.position == position
        assert board.view["steps"][0]["turn"] == str(board.game.turns[-1])
    assert [seen[0] for seen in turns_seen][-1] == str(position) == ". . (7,0) / . . . / (0,4) . . A"
    assert len(turns_seen) == 4 and board.phase in ("grow", "source")
    with pytest.raises(IndexError):
        board.next()


def test_observers_that_fail_do_not_break_the_game():
    board = Board(seed=0)

    @board.observe_turns
    def broken(position, turn):
        raise RuntimeError("chart went away")

    play_by_intents(board, Turn(board.view["roll"], "a1", "a1", "b1", board.view["roll"] + 1, 0))
    assert len(board.game) == 1 and "chart went away" in board.message


def test_a_failing_student_strategy_leaves_the_board_usable():
    def sloppy(position, roll, rng):
        return "9 a1 -"

    board = Board(opponent=sloppy, human="B", seed=0)
    assert board.phase == "stuck" and "sloppy (A) could not play" in board.message
    before = snapshot(board)
    assert not board.click("c3") and snapshot(board) == before
    assert board.handle_intent({"kind": "new", "version": board.version}) and board.phase == "stuck"


def test_opponents_resolve_by_name_or_function():
    assert resolve_opponent("human") == ("human", None)
    name, strategy = resolve_opponent("random")
    assert name == "random" and callable(strategy)
    assert resolve_opponent(random_turn)[0] == "random_turn"
    with pytest.raises(ValueError, match="unknown opponent 'grandmaster'"):
        Board(opponent="grandmaster")
    with pytest.raises(ValueError, match="human plays 'A' or 'B'"):
        Board(human="C")


def test_repr_and_static_fallback_are_stable():
    board = Board.from_position("(4,0) . . / . . . / . . (0,2) A", seed=1)
    assert repr(board) == "Board((4,0) . . / . . . / . . (0,2) A; A: human, B: human)"
    data, _ = board._repr_mimebundle_()
    assert data["text/plain"] == "▶ Run this cell to play on the board (A: human, B: human)."  # not the repr
    board.queue(["1 a1 a1-b2 5,0"])
    assert board._repr_mimebundle_()[0]["text/plain"].startswith("▶ Run this cell to step through the scripted line")
    assert (
        data["image/svg+xml"]
        == Board.from_position("(4,0) . . / . . . / . . (0,2) A", seed=1)._repr_mimebundle_()[0]["image/svg+xml"]
    )
    assert "<svg" in data["image/svg+xml"] and "application/vnd.jupyter.widget-view+json" in data


def test_a_column_and_explore_show_their_boards_placeholder_not_a_widget_repr():
    import ipywidgets
    from types import SimpleNamespace

    game = Game.parse("start (1,0) . . / . . . / . . (0,1) A\n3 a1 a1-b1 4,0")
    replay = Replay(game)
    column = widget.Column([replay, ipywidgets.Label("under the board")])
    data = column._repr_mimebundle_()
    data = data[0] if isinstance(data, tuple) else data
    assert data["text/plain"] == replay.placeholder() and data["image/svg+xml"] == render.position_svg(game.positions[0])
    assert "application/vnd.jupyter.widget-view+json" in data
    review = SimpleNamespace(game=game, frame=__import__("pandas").DataFrame(
        [{"turn": 1, "player": "A", "played": "3 a1 a1-b1 4,0", "class": "best"}]))
    shown = widget.explore(review)._repr_mimebundle_()
    shown = shown[0] if isinstance(shown, tuple) else shown
    assert shown["text/plain"].startswith("▶ Run this cell") and "VBox(" not in shown["text/plain"]
    with pytest.raises(ValueError, match="needs a Board or Replay"):
        widget.Column([ipywidgets.Label("no board")])


def test_replay_steps_through_a_record():
    game = Game.parse(PAPER_OPENING)
    replay = Replay(str(game))
    assert replay.view["ply"] == 0 and replay.position == str(Position.start())
    assert replay.handle_intent({"kind": "seek", "ply": 4, "version": replay.version})
    assert replay.position == str(game.position) and replay.view["move"] == ["b3", "a3"]
    assert repr(replay) == f"Replay(turn 4 of 4: {game.position})"
    before = (replay.version, replay.view)
    for bad in (5, -1, "2", None, 1.5):
        assert not replay.handle_intent({"kind": "seek", "ply": bad, "version": replay.version})
        assert "a ply is a whole number from 0 to 4" in replay.error
    assert (replay.version, replay.view) == before
    assert not replay.handle_intent({"kind": "cell", "cell": "a1", "version": replay.version})
    replay.seek(1)
    assert replay.view["grow"] == "a1" and Replay(game).record == replay.record


def test_the_module_files_are_found():
    assert (STATIC / "board.js").is_file() and (STATIC / "board.css").is_file()
    assert "export default" in (STATIC / "board.js").read_text()


def test_docstring_examples():
    failures, attempted = doctest.testmod(widget)
    assert attempted and not failures


CASE_III_START = "(14,0) . . / . . . / . . (0,5) A"
CASE_III_LINE = [
    "6 a1 a1-b2 20,0", "4 c3 c3-c2 0,4", "3 b2 b2-c3 5,0", "3 c2 c2-b1 0,3", "1 b2 b2-c2 4,0", "5 b1 b1-a1 0,4",
    "5 b2 b2-a1 4,0", "5 b1 b1-c1 0,4", "4 b2 b2-b1 5,0", "2 c1 -", "4 b2 b2-c1 19,0",
]  # fmt: skip  (lesson 6's demo line)


def intent(board: Board, kind: str) -> bool:
    return board.handle_intent({"kind": kind, "version": board.version})


def test_a_scripted_line_is_walked_to_the_end_and_back_with_next_and_undo():
    board = Board.from_position(CASE_III_START, seed=3)
    board.queue(CASE_III_LINE)
    positions = [Position.parse(CASE_III_START)]
    for turn in CASE_III_LINE:
        positions.append(apply(positions[-1], turn))
    assert not intent(board, "undo") and "start of the scripted line" in board.error
    for number in range(len(CASE_III_LINE)):
        assert board.game.position == positions[number] and board.phase == "queued"
        mover = positions[number].to_move
        assert board.view["script_status"] == f"Scripted line, turn {number + 1} of 11: {mover} to move"
        assert intent(board, "next")
        last = board.game.turns[-1]
        assert board.view["marked_grow"] == last.grow  # the scripted turn stays marked
        assert board.view["move"] == (None if last.is_pass else [last.src, last.dst])
    assert board.game.position == positions[-1] and board.phase == "over"
    assert board.view["prompt"].startswith("End of the scripted line. A wins")
    for number in reversed(range(len(CASE_III_LINE))):
        assert intent(board, "undo"), board.error
        assert board.game.position == positions[number] and board.phase == "queued"
        assert board.view["queued"] == len(CASE_III_LINE) - number
    assert not intent(board, "undo") and board.game.position == positions[0]


def test_a_scripted_turn_is_hidden_until_revealed_and_each_next_hides_the_following_one():
    board = Board.from_position(CASE_III_START, seed=3)
    board.queue(CASE_III_LINE)
    for number, turn in enumerate(board._script[:4]):
        mover = board.game.position.to_move
        hidden = board.view["prompt"]
        assert board.view["next_turn"] is None and str(turn) not in hidden and turn.dst not in hidden
        assert hidden.startswith(f"Next: {mover}'s {'turn' if number == 0 else 'reply'}, with a roll of {turn.roll}")
        assert intent(board, "reveal") and board.view["next_turn"] == str(turn) and str(turn) in board.view["prompt"]
        assert intent(board, "next") and board.game.turns[-1] == turn
    assert intent(board, "undo") and board.view["next_turn"] is None  # stepping back hides the turn again
    assert board.reveal() == board._script[3] and board.view["next_turn"] == str(board._script[3])


def test_new_game_leaves_the_line_and_restart_brings_it_back():
    board = Board.from_position(CASE_III_START, seed=3)
    board.queue(CASE_III_LINE)
    for _ in range(3):
        assert intent(board, "next")
    assert board.view["can_restart"] and intent(board, "restart")
    assert len(board.game) == 0 and board.view["script_status"].startswith("Scripted line, turn 1 of 11")
    assert not board.view["can_restart"]  # already at the start
    assert intent(board, "next") and intent(board, "new")
    assert board.phase in ("grow", "source") and board.view["queued"] == 0 and board.view["can_restart"]
    assert board.game.seed == "3:1"
    assert intent(board, "restart")
    assert board.game.position == Position.parse(CASE_III_START) and board.phase == "queued"
    for turn in CASE_III_LINE:
        assert intent(board, "next")
    assert [str(turn) for turn in board.game.turns] == [str(turn) for turn in board._script] and board.phase == "over"


def test_undo_after_a_line_that_leaves_the_game_open_goes_back_into_the_line():
    board = Board(seed=0)
    board.queue(PAPER_OPENING)
    for _ in range(4):
        assert intent(board, "next")
    assert board.phase in ("grow", "source") and board.view["roll"]  # live play after the line
    assert intent(board, "undo")
    assert len(board.game) == 3 and board.phase == "queued"
    assert board.view["script_status"] == "Scripted line, turn 4 of 4: B to move"
    assert intent(board, "next") and len(board.game) == 4


def test_a_bots_move_stays_marked_until_the_next_action():
    board = play("random", seed=2)
    roll = board.view["roll"]
    play_by_intents(board, choose(board.game.position, roll, random.Random(0)))
    bot_turn = board.game.turns[-1]
    assert board.game.position.to_move == "A" and board.view["marked_grow"] == bot_turn.grow
    assert board.view["move"] == (None if bot_turn.is_pass else [bot_turn.src, bot_turn.dst])
    board.click(board.view["selectable"][0])  # the human acts: the mark goes
    assert board.view["move"] is None and board.view["marked_grow"] is None


def test_clicking_an_empty_cell_says_what_to_click_instead():
    board = Board.from_position("(4,0) . . / . . . / . . (0,2) A", seed=1)
    assert board.phase == "source"  # one amoeba: grown automatically
    assert not board.click("c1")
    assert board.error == "c1 is empty: click a highlighted amoeba (a1) to move from"
    assert board.click("a1") and not board.click("c1")
    assert board.error == "c1 is empty and not next to a1: click a highlighted cell to move there"


def test_clicking_the_opponents_amoeba_to_move_from_says_it_is_the_opponents():
    board = Board.from_position("(4,0) . . / . (3,3) . / . . (0,2) A", seed=1)
    assert board.phase == "source" and board.view["selectable"] == ["a1"]
    assert not board.click("c3")
    assert board.error == (
        "c3 holds (0,2), B's amoeba: you move only your own (A's): click a highlighted amoeba (a1) to move from"
    )
    assert not board.click("b2")
    assert board.error == "b2 holds (3,3), a neutral amoeba: click a highlighted amoeba (a1) to move from"
    assert board.phase == "source" and len(board.game) == 0  # refusals change nothing


def _fleeing_human(board: Board, rng: random.Random) -> None:
    """A human who never eats: moves a single unit when it can (a chase greedy cannot always finish)."""
    roll = board.view["roll"]
    turns = [t for t in board.game.legal_turns(roll) if t.is_pass or (t.a, t.b) in ((1, 0), (0, 1))]
    play_by_intents(board, rng.choice(turns) if turns else next(board.game.legal_turns(roll)))


def test_a_game_against_greedy_always_ends_within_the_one_turn_cap():
    board = play("greedy", seed=8)
    rng = random.Random(8)
    while not board.game.is_over:
        assert len(board.game) <= TURN_CAP
        _fleeing_human(board, rng)
    assert len(board.game) <= TURN_CAP
    assert board.phase == "over"
    if board.game.capped:
        assert f"turn cap ({TURN_CAP} turns)" in board.message and board.view["result"] == CAPPED


def test_a_capped_board_says_so_and_refuses_more_turns():
    board = Board(opponent="random", seed=3)
    board.game.turn_cap = 4
    rng = random.Random(3)
    while not board.game.is_over:
        human_turn(board, rng)
    assert board.game.capped or board.game.position.is_over
    board.handle_intent({"kind": "new", "version": board.version})  # a fresh game has the full cap again
    assert board.game.turn_cap == TURN_CAP and not board.game.is_over


def test_a_draw_offer_is_accepted_by_the_stated_rule_and_refused_with_the_reason():
    board = play("greedy", seed=1)
    assert board.view["can_offer_draw"]
    assert board.offer_draw(), board.error  # at the start nobody is ahead in size: greedy accepts
    assert board.game.result == "tie" and board.phase == "over" and "Draw agreed" in board.message
    ahead = Board.from_position(". . . / . (0,9) . / (1,0) . . A", opponent="greedy", seed=1)
    before = snapshot(ahead)
    assert not ahead.offer_draw()
    delta = ahead.view["stats"]["Delta"]  # what the status line shows: A's size minus B's, here B ahead
    assert delta < 0 and "declines the draw: B is ahead" in ahead.error and f"Δ {delta}" in ahead.error
    assert snapshot(ahead)[1:] == before[1:]  # refused: nothing changed but the version counter's echo


def test_counts_below_one_unit_are_refused_with_what_to_do():
    board = Board(seed=0)
    assert board.phase == "source" and board.click("a1") and board.phase == "destination"
    assert not board.handle_intent({"kind": "counts", "a": 0, "b": 0, "version": board.version})
    assert board.error == "a move takes at least 1 unit: press + to move more"
    source = board.view["counts"]["max_a"]
    assert not board.handle_intent({"kind": "counts", "a": source + 1, "b": 0, "version": board.version})
    assert board.error.endswith(f"move 0..{source} of A's units")  # no "0..0 B-units" for a side with none


def test_the_teachers_guide_quotes_the_demo_as_the_board_shows_it():
    guide = (Path(__file__).resolve().parents[2] / "lessons" / "TEACHERS.md").read_text(encoding="utf-8")
    guide = " ".join(guide.split())  # a quote may wrap across lines
    board = Board.from_position(CASE_III_START, seed=3)
    board.queue(CASE_III_LINE)
    assert f'"{board.view["script_status"]}"' in guide
    assert f'"{board.view["prompt"]}"' in guide  # step 2, word for word
    assert intent(board, "next")
    assert f'"{board.view["prompt"].split(". ")[0]}"' in guide  # step 3: "Next: B's reply, with a roll of 4"


def test_the_teachers_guide_says_what_the_presenters_next_button_shows():
    """In presenter mode (the demo) the Next button says only "Next": board.css hides the revealed turn on it."""
    guide = " ".join((Path(__file__).resolve().parents[2] / "lessons" / "TEACHERS.md").read_text("utf-8").split())
    css = " ".join((STATIC / "board.css").read_text("utf-8").split())
    assert ".amoeboid-board.amb-presenter .amb-next-turn { display: none; }" in css
    assert "on the Next button" not in guide and 'the button still says just "Next"' in guide
    assert "*Save changes?*: choose **Discard**" in guide  # after Run All: the committed file is the lesson
