"""The namesakes' clickable boards without a browser: the same intents the browser sends, the wheel ships the JS."""

from __future__ import annotations

import doctest
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from amoeboid_edu.namesakes import bots, drawing, nakajima, oosterwal, widget
from amoeboid_edu.namesakes.widget import NakajimaBoard, OosterwalBoard

REPO = Path(__file__).resolve().parent.parent


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


def test_oosterwal_place_then_add_a_chip_against_two_bots_and_undo():
    board = OosterwalBoard(3, opponent="greedy", seed=1)
    assert board.press("2") and board.click("2,0")
    assert "hx-spot" in board.view["svg"] and "scores 2" in board.view["prompt"]
    assert board.click("3,1")
    assert str(board.game.turns[0]) == "2@2,0 +3,1" and len(board.game.turns) == 3  # B and C replied
    assert board.press("undo") and board.game.turns == []


def test_oosterwal_refuses_a_chip_that_touches_one_chip_and_a_size_that_is_used_up():
    board = OosterwalBoard(start="A:0 B:0 | A3@0,0 A3@2,0 A3@4,0 A3@6,0 A3@8,0 o@10,0 | A")
    assert not board.click("10,0") and "no 3-pip pyramid left" in board.error
    assert board.press("1") and board.click("10,0")
    assert not board.click("12,0") and "dashed spot" in board.error
    assert board.game.turns == []
    assert board.click("10,0") and board.placed is None  # a second click takes the pyramid back


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
    assert data["image/svg+xml"].startswith("<svg") and data["text/plain"].startswith("NakajimaBoard(")


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
