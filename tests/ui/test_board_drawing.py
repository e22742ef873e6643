"""One drawing of the board (Python draws, board.js shows), one palette, one intent channel for every board."""

from __future__ import annotations

import re
from html import escape

from amoeboid_edu.common import palette as _palette
from amoeboid_edu.common.intents import IntentChannel
from amoeboid_edu.namesakes.widget import NakajimaBoard, OosterwalBoard
from amoeboid_edu.ui import render
from amoeboid_edu.ui.widget import STATIC, Board, Replay


def cell_classes(svg: str) -> dict[str, set[str]]:
    return {name: set(classes.split()) for classes, name in re.findall(r'<g class="([^"]*)" data-cell="(\w+)"', svg)}


def test_the_board_view_is_python_drawn_with_its_highlights_as_classes():
    board = Board.from_position("(3,0) . (2,0) / . . . / . . (0,3) A", seed=1)
    classes = cell_classes(board.view["svg"])
    assert set(classes) == set(board.game.position.board.names)
    assert {name for name, cls in classes.items() if "amb-selectable" in cls} == {"a1", "c1"}  # grow either
    assert board.click("a1") and board.click("a1")
    classes = cell_classes(board.view["svg"])
    assert "amb-source" in classes["a1"] and "amb-grow" in classes["a1"]
    assert {name for name, cls in classes.items() if "amb-target" in cls} == set(board.view["targets"]) != set()


def test_a_bots_turn_is_sent_as_two_drawn_steps():
    board = Board.from_position("(3,0) . . / . . . / . . (0,3) B", seed=1, opponent="greedy", human="A")
    (step,) = board.view["steps"]
    assert 'class="amb-cell' in step["before_svg"] and "amb-grow" in cell_classes(step["before_svg"])[step["grow"]]
    assert "amb-arrow" in step["grown_svg"] and "amb-target" in cell_classes(step["grown_svg"])[step["dst"]]


def test_a_replay_marks_the_last_move():
    replay = Replay("3 a1 a1-b1\n2 c3 c3-b3", ply=1)  # the paper's opening
    classes = cell_classes(replay.view["svg"])
    assert "amb-source" in classes["a1"] and "amb-target" in classes["b1"] and "amb-arrow" in replay.view["svg"]


def test_board_js_draws_no_board_and_no_chart():
    script = (STATIC / "board.js").read_text(encoding="utf-8")
    for drawing in ("function wedge", "boardSvg", "reviewChart", "hintArrows", "<circle", "#e0b000"):
        assert drawing not in script


def test_one_palette_feeds_the_pictures_and_the_board_css():
    board = Board()
    assert board._css.startswith(_palette.css_variables())
    assert not re.search(r"--amb-(a|b|target):", (STATIC / "board.css").read_text(encoding="utf-8"))
    assert _palette.PLAYERS["A"] in render.board_svg(board.game.position)
    assert _palette.PLAYERS["B"] in render.position_svg(board.game.position)


def test_a_reviews_chart_in_a_notebook_is_the_boards_drawing_with_a_title_and_a_legend():
    from amoeboid_edu import Game
    from amoeboid_edu.theory import coach

    review = coach.review(Game.parse("start (3,0) . . / . . . / . . (0,3) A\n3 a1 a1-b2\n2 c3 c3-b3"), seed=1,
                          rollouts=20)
    on_board = render.review_chart_svg(review.frame.to_dict("records"))
    picture = review.chart(title="two turns, reviewed", picked=2)
    assert picture._repr_svg_() == picture  # a notebook shows it as a picture
    assert repr(picture) == "<SVG picture: two turns, reviewed>"  # not its text, in a plain-text view
    assert 'width="560"' in picture and "width=" not in on_board.split(">")[0]  # the board's page sizes its own
    assert ">two turns, reviewed</text>" in picture and "two turns" not in on_board
    for name in (*_palette.CLASSES, *(words for _, words in render.REVIEW_LEGEND)):
        assert f">{escape(name)}</text>" in picture and f">{escape(name)}</text>" not in on_board
    points = r'<circle class="amb-review-point ([^"]*)" data-ply="(\d+)"'
    assert re.findall(points, on_board) == [("amb-class-" + row["class"], str(row["turn"])) for row in
                                            review.frame.to_dict("records")]
    assert [ply for _, ply in re.findall(points, picture)] == ["1", "2"] and "amb-picked" in picture
    for svg in (picture, on_board):  # every line and dot has its colour without the board's style sheet
        assert all("stroke=" in line for line in re.findall(r"<line [^>]*>", svg))
        assert all("fill=" in dot for dot in re.findall(r"<circle [^>]*>", svg))


def test_a_reviews_chart_labels_turns_a_class_can_find_at_each_turns_start():
    """Lesson 8 asks for the start of B's turns 8, 10, 12 and 14 on its 17-turn review chart."""
    rows = [{"turn": k, "player": "AB"[(k - 1) % 2], "played": f"turn {k}", "best": "", "class": "best",
             "A_before": 0.5, "A_after_roll": 0.5, "A_after": 0.5, "A_next": 0.5} for k in range(1, 18)]
    svg = render.review_chart_svg(rows, title="17 turns", legend=True)
    labels = {words: float(x) for x, words in re.findall(r'<text class="amb-review-axis" x="([\d.]+)"[^>]*>(\d+)</text>', svg)}
    assert {"8", "10", "12", "14"} <= set(labels), labels
    dots = {int(ply): float(cx) for ply, cx in re.findall(r'data-ply="(\d+)" cx="([\d.]+)"', svg)}
    for turn in (8, 10, 12, 14):  # a label sits where its turn starts: at the dot after the turn before
        assert abs(labels[str(turn)] - dots[turn - 1]) < 1
    shown = sorted(int(words) for words in labels)
    steps = {b - a for a, b in zip(shown, shown[1:])}
    assert len(steps) == 1 and (560 - 64) / 17 * steps.pop() >= render.REVIEW_TICK_PX  # evenly, never crowded
    assert render.review_ticks(100, 496)[:2] == [10, 20] and render.review_ticks(5, 496) == [1, 2, 3, 4, 5]


def test_every_board_speaks_through_the_one_intent_channel():
    boards = [Board(), NakajimaBoard(), OosterwalBoard()]
    for board in boards:
        assert isinstance(board, IntentChannel)
        version = board.version
        assert not board.handle_intent({"kind": "cell", "cell": "a1", "version": version - 1})
        assert board.error == f"ignored a click made on an older board (version {version - 1}, now {version})"
        assert not board.handle_intent("click")
        assert board.error == "ignored a malformed intent: expected an object, got str"
