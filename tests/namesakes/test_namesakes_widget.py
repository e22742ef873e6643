"""The namesakes' clickable boards without a browser: the same intents the browser sends, the wheel ships the JS."""

from __future__ import annotations

import doctest
import random
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest
from intent_race import race

from amoeboid_edu.namesakes import bots, drawing, nakajima, oosterwal, widget
from amoeboid_edu.namesakes.widget import NakajimaBoard, OosterwalBoard

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", [nakajima, oosterwal, widget, bots, drawing], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


def test_nakajima_two_click_move_then_the_bot_replies_and_undo_takes_both_back():
    board = NakajimaBoard(opponent="random", seed=3)
    assert "selectable" in board.view["svg"]
    assert board.click("e1") and 'class="hx-cell target" data-cell="d1"' in board.view["svg"]
    assert board.click("d1")
    assert [str(move) for move in board.game.moves][:1] == ["e1-d1"] and len(board.game.moves) == 2
    assert board.press("undo") and board.game.moves == []
    assert board.game.position == nakajima.Position.start()


def test_nakajima_sow_toggle_makes_the_destination_a_sow():
    start = "b b b b / . . B . . / b b b b b b / . . . . . . . / ww . w w w w / . . W . . / . w w w white"
    board = NakajimaBoard(start=start)
    assert board.press("sow") and board.click("e1") and board.click("c2")
    assert str(board.game.moves[-1]) == "e1~c2"
    assert board.game.position.stacks[nakajima.point_index("d2")] == "w"
    assert board.game.position.stacks[nakajima.point_index("c2")] == "bw"


def test_nakajima_refuses_bad_clicks_and_stale_versions_changing_nothing():
    board = NakajimaBoard()
    before = (board.game.position, board.version)
    assert not board.click("a1") and "white piece on top" in board.error
    assert not board.click("z9") and "no such point" in board.error
    assert not board.handle_intent({"kind": "cell", "cell": "e1", "version": board.version - 1})
    assert "older board" in board.error
    assert not board.handle_intent("e1") and not board.press("fly")
    assert board.game.position == before[0] and board.game.moves == []
    assert board.click("e1") and board.error == ""


def test_two_clicks_made_on_one_version_at_once_apply_only_the_first():
    """The kernel may carry out two widget messages at once on two threads: the second must see the first's version."""
    board = NakajimaBoard(seed=1)
    click = {"kind": "cell", "cell": "e1", "version": board.version}
    assert race(board, "_on_cell", click, click) == (True, False)
    assert "older board" in board.error


def test_oosterwal_place_then_add_a_chip_against_two_bots_and_undo():
    board = OosterwalBoard(3, opponent="greedy", seed=1)
    assert board.press("2") and board.click("2,0")
    assert "hx-spot" in board.view["svg"] and "scores 2" in board.view["prompt"]
    assert board.click("3,1")
    assert str(board.game.turns[0]) == "2@2,0 +3,1" and len(board.game.turns) == 3  # B and C replied
    assert board.press("undo") and board.game.turns == []


def test_oosterwal_refuses_a_chip_that_touches_one_chip_and_leaves_a_size_that_is_used_up():
    board = OosterwalBoard(start="A:0 B:0 | A3@0,0 A3@2,0 A3@4,0 A3@6,0 A3@8,0 o@10,0 | A")
    sizes = {button["id"]: button for button in board.view["buttons"]}
    assert board.pips == 2 and sizes["3"]["disabled"] and not sizes["3"]["active"] and sizes["2"]["active"]
    assert "your 2-pip pyramid" in board.view["prompt"]  # the used-up size is not offered any more
    assert board.press("1") and board.click("10,0")
    assert not board.click("12,0") and "dashed spot" in board.error
    assert board.game.turns == []
    assert board.click("10,0") and board.placed is None  # a second click takes the pyramid back


def _undo_button(board) -> dict:
    return next(button for button in board.view["buttons"] if button["id"] == "undo")


def test_oosterwal_undo_when_a_bot_opens_takes_back_only_the_humans_turn_and_the_replies():
    board = OosterwalBoard(opponent="greedy", human="B", seed=1)
    (opening,) = board.game.turns  # A, the bot, has placed
    assert _undo_button(board)["disabled"]
    assert not board.press("undo") and "you have not moved yet" in board.error
    assert board.game.turns == [opening]
    mine = oosterwal.random_turn(board.game.position, random.Random(0))
    assert board.press(str(mine.pips)) and board.click(oosterwal.cell_text(mine.place))
    assert board.click(oosterwal.cell_text(mine.chip))
    assert board.game.turns[:2] == [opening, mine] and len(board.game.turns) == 3  # A replied
    assert board.press("undo")
    assert board.game.turns == [opening] and board.game.position.to_move == 1  # B, the human, is to move again
    assert _undo_button(board)["disabled"]  # only the bot's opening is left


def test_nakajima_undo_when_the_bot_plays_white_returns_to_black_to_move_and_the_board_plays_on():
    board = NakajimaBoard(human="black", opponent="greedy", seed=1)
    (opening,) = board.game.moves
    assert _undo_button(board)["disabled"]
    assert not board.press("undo") and "you have not moved yet" in board.error
    mine = next(nakajima.legal_moves(board.game.position))
    assert board.click(nakajima.NAMES[mine.src]) and board.click(nakajima.NAMES[mine.dst])
    assert board.game.moves[:2] == [opening, mine] and len(board.game.moves) == 3  # white replied
    assert not _undo_button(board)["disabled"] and board.press("undo")
    assert board.game.moves == [opening] and board.game.position.to_move == nakajima.BLACK
    assert board.click(nakajima.NAMES[mine.src]) and board.click(nakajima.NAMES[mine.dst])  # not stuck
    assert len(board.game.moves) == 3


def _broken_bot(position, rng):
    raise RuntimeError("out of ideas")


def test_a_click_on_a_bots_seat_is_refused_after_the_bot_failed_and_undo_recovers():
    board = OosterwalBoard(opponent=_broken_bot)
    assert board.press("1") and board.click("0,0")
    assert not board.click("1,1") and "the bot playing B could not move (RuntimeError: out of ideas)" in board.error
    assert [str(turn) for turn in board.game.turns] == ["1@0,0 +1,1"] and "B's bot" in board.view["prompt"]
    assert not board.click("2,0") and "a bot plays B, not you" in board.error
    assert board.placed is None and len(board.game.turns) == 1
    assert board.press("undo") and board.game.turns == [] and board.click("2,0")
    opening = NakajimaBoard(human="black", opponent=_broken_bot)  # the bot holds the first seat and fails at once
    assert "the bot playing white could not move" in opening.error and opening.game.moves == []
    assert not opening.click("e1") and "a bot plays white, not you" in opening.error


def test_a_whole_hot_seat_oosterwal_game_by_clicks_ends_in_a_result():
    board = OosterwalBoard(2, seed=0)
    rng = __import__("random").Random(0)
    while not board.game.is_over:
        turn = oosterwal.random_turn(board.game.position, rng)
        assert board.press(str(turn.pips)) and board.click(oosterwal.cell_text(turn.place))
        assert board.click(oosterwal.cell_text(turn.chip))
    assert board.view["prompt"].startswith("Game over")
    assert repr(board).startswith("OosterwalBoard(") and "0x" not in repr(board)


def test_the_static_output_is_the_svg_and_a_stable_text():
    data, _ = NakajimaBoard()._repr_mimebundle_()
    assert data["image/svg+xml"].startswith("<svg") and data["text/plain"] == (
        "▶ Run this cell to play Nakajima's Amoeba on the board.")


def test_the_wheel_ships_the_hex_board_and_a_clean_install_loads_it(tmp_path):
    command = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-w",
        tmp_path,
        REPO,
    ]
    subprocess.run(command, cwd=tmp_path, check=True, capture_output=True)
    (wheel,) = tmp_path.glob("amoeboid_edu-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        for name in ("hexboard.js", "hexboard.css"):
            assert archive.read(f"amoeboid_edu/_static/{name}") == (REPO / "widgets" / name).read_bytes()
    env_dir = tmp_path / "clean"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    (Path(site) / "dev-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", wheel],
                   cwd=tmp_path, check=True, capture_output=True)  # fmt: skip
    check = (
        "import pathlib, sys; from amoeboid_edu.namesakes import widget; "
        "assert widget.STATIC.resolve() == pathlib.Path(sys.argv[1]).resolve() / 'amoeboid_edu' / '_static'; "
        "assert 'export default' in widget.NakajimaBoard()._esm; print('loaded')"
    )
    done = subprocess.run([python, "-c", check, site], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "loaded", done.stderr[-2000:]


def test_a_bots_reply_is_news_and_sowing_ends_with_the_turn():
    board = NakajimaBoard(opponent="random", seed=2)
    move = next(move for move in board.game.legal_moves())
    source, target = nakajima.NAMES[move.src], nakajima.NAMES[move.dst]
    assert not move.sow and board.press("sow") and board.sow  # a single piece moves even in sow mode
    assert board.click(source) and board.click(target)
    reply = board.game.moves[-1]
    assert board.view["prompt"].startswith(f"black (random) played {reply}. white to move")
    assert not board.sow and next(b for b in board.view["buttons"] if b["id"] == "move")["active"]


def test_the_end_of_a_game_says_who_won_why_and_the_score():
    board = OosterwalBoard(seed=3)
    while not board.game.is_over:
        board.game.play(oosterwal.random_turn(board.game.position, random.Random(len(board.game.turns))))
    board._publish()  # the board shows the game it holds
    scores = ", ".join(f"{p} {s}" for p, s in zip(oosterwal.PLAYERS, board.game.position.scores))
    assert board.view["prompt"].startswith("Game over: ") and f"(scores: {scores})" in board.view["prompt"]
    assert "New game" in board.view["prompt"]
