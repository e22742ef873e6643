"""The lessons' live chart follows the board: it redraws after every turn and undo, and never captures output."""

import re

import pytest

pytest.importorskip("amoeboid_edu.ui.widget")

from amoeboid_edu.theory import analysis  # noqa: E402
from amoeboid_edu.ui.charts import chart_html  # noqa: E402
from amoeboid_edu.ui import course  # noqa: E402
from amoeboid_edu.ui.course import NEEDS_VL_CONVERT, WAITING, WAITING_FOR_NEXT, Demo, LiveChart  # noqa: E402
from amoeboid_edu.ui.widget import Board  # noqa: E402


def delta_chart(game):
    return analysis.delta_chart(analysis.game_frame(game), title="live")


def test_the_chart_waits_for_the_first_turn_then_follows_every_turn_and_undo():
    board = Board.from_position(". . . / . (9,0) . / . (0,1) (0,2) A", seed=1)
    live = LiveChart(board, delta_chart)
    assert live.value == WAITING
    board.queue(["1 b2 b2-c3 2,0", "3 b3 b3-a3"])
    board.next()
    after_one = live.value
    assert "<svg" in after_one and after_one == chart_html(delta_chart(board.game))
    board.next()
    assert live.value == chart_html(delta_chart(board.game)) != after_one
    board.handle_intent({"kind": "undo", "version": board.version})
    assert len(board.game) == 1 and live.value == after_one


def test_before_a_scripted_line_starts_the_chart_says_press_next_and_a_line_appears_at_the_first_turn():
    board = Board.from_position(". . . / . (9,0) . / . (0,1) (0,2) A", seed=1)
    live = LiveChart(board, lambda game: analysis.delta_chart(analysis.game_frame(game, start=True)))
    assert live.value == WAITING
    board.queue(["1 b2 b2-c3 2,0", "3 b3 b3-a3"])  # queued after the chart was made: the hint follows
    assert live.value == WAITING_FOR_NEXT and "Press Next" in live.value
    board.next()
    assert live.value.count("<title>turn: 0\n") == 2  # δ and Δ at the start: each line has two points at once
    assert live.value.count("<title>turn: 1\n") == 3  # and after turn 1 (with the neutralisation's marker)
    board.handle_intent({"kind": "undo", "version": board.version})
    assert live.value == WAITING_FOR_NEXT


def test_without_vl_convert_the_chart_says_how_to_get_it_and_draws_once_it_is_there(monkeypatch):
    """Binder leaves vl-convert out; an HTML widget runs no script, so the chart says what to do instead of staying empty."""
    board = Board.from_position(". . . / . (9,0) . / . (0,1) (0,2) A", seed=1)
    live = LiveChart(board, delta_chart)
    board.queue(["1 b2 b2-c3 2,0", "3 b3 b3-a3"])
    monkeypatch.setattr(course, "has_svg_renderer", lambda: False)
    board.next()
    assert live.value == NEEDS_VL_CONVERT and "%pip install vl-convert-python" in live.value
    monkeypatch.setattr(course, "has_svg_renderer", lambda: True)  # installed in the kernel: the next turn draws
    board.next()
    assert live.value == chart_html(delta_chart(board.game))


def test_its_text_form_is_stable_for_nbval():
    board = Board(seed=3)
    assert repr(LiveChart(board, delta_chart)) == f"LiveChart(following {board!r})"
    assert "0x" not in repr(board)


def test_the_delta_chart_spec_plots_both_advantages_per_turn():
    board = Board.from_position(". . . / . (9,0) . / . (0,1) (0,2) A", seed=1)
    board.queue(["1 b2 b2-c3 2,0"])
    board.next()
    spec = delta_chart(board.game).to_dict()
    encodings = [layer.get("encoding", {}) for layer in spec["layer"]]
    axes = [(enc.get("x", {}).get("field"), enc.get("y", {}).get("field")) for enc in encodings]
    assert ("turn", "value") in axes
    (values,) = spec["datasets"].values()
    after = board.game.position  # (8,0) in the centre, (2,2) neutral: delta 9 - 2, Delta 8 - 1
    assert {(row["quantity"], row["value"]) for row in values} == {("δ", after.delta), ("Δ", after.Delta)}
    assert (after.delta, after.Delta) == (7, 7)


def test_the_demo_puts_board_and_presenter_chart_side_by_side_with_history_folded():
    board = Board.from_position(". . . / . (9,0) . / . (0,1) (0,2) A", seed=1)
    board.queue(["1 b2 b2-c3 2,0", "3 b3 b3-a3"])
    demo = board.with_chart(delta_chart)
    assert isinstance(demo, Demo) and demo.children == (board, demo.chart)
    assert board.size == "presenter" and board.history_open is False
    assert "amb-demo" in demo._dom_classes and "amb-demo-chart" in demo.chart._dom_classes
    board.next()
    assert demo.chart.value == chart_html(delta_chart(board.game), "presenter")
    assert 'font-size="22px"' in demo.chart.value and 'font-size="14px"' not in demo.chart.value
    data = demo._repr_mimebundle_()
    assert repr(demo) == f"Demo({board!r}, LiveChart)"
    assert data["text/plain"] == "▶ Run this cell to show the demo: the board and its chart side by side."
    assert data["text/html"].count("<svg") == 2  # the static picture: board and chart
    assert data["text/html"].startswith(f"<p><em>{data['text/plain']}</em></p>")  # untrusted, this line shows


def test_a_normal_size_demo_keeps_the_normal_sizes():
    board = Board(seed=1)
    demo = Demo(board, delta_chart, presenter=False)
    assert board.size == "normal" and demo.chart.size == "normal"


def test_the_course_renderer_is_found_by_name_in_a_fresh_process():
    """A notebook may enable the renderer before importing anything of ours: Altair finds it by its entry point."""
    import subprocess
    import sys

    code = "import altair as alt; alt.renderers.enable('amoeboid'); print(alt.renderers.active)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "amoeboid", done.stderr[-2000:]


def test_a_chart_drawn_in_the_page_keeps_its_script_whole_whatever_its_data_holds():
    """A file name such as ``<!--<script>.py`` in a chart's data must not end or comment out its script tag."""
    import json

    import altair as alt
    import pandas as pd

    from amoeboid_edu.ui.charts import browser_chart_html

    names = ["<!--<script>", "a&b</script>", "x\u2028y"]
    chart = alt.Chart(pd.DataFrame({"player": names, "x": [1, 2, 3]})).mark_bar().encode(x="x", y="player")
    html = browser_chart_html(chart)
    body = html.split('<script type="module">', 1)[1].rsplit("</script>", 1)[0]
    assert not set("<>&\u2028") & set(body) and html.count("<script") == 1
    spec = json.loads(body[body.index("{"):body.rindex(', {"actions"')])
    assert [row["player"] for row in next(iter(spec["datasets"].values()))] == names


def visible_x_labels(svg: str) -> list[tuple[float, float, str]]:
    """The x axis's shown labels as ``(left, right, text)`` in chart pixels (a digit is about 0.56 em wide)."""
    axis = re.search(r'aria-label="X-axis.*?role-axis-label.*?</g>', svg, re.S)
    assert axis, "no x axis found"
    found = []
    for anchor, x, size, opacity, words in re.findall(
            r'<text text-anchor="(\w+)" transform="translate\(([\d.-]+),[\d.-]+\)"[^>]*font-size="([\d.]+)px"'
            r'[^>]*opacity="([\d.]+)">([^<]*)</text>', axis.group(0)):
        if float(opacity) > 0:
            width = 0.56 * float(size) * len(words)
            left = {"start": 0.0, "middle": -width / 2, "end": -width}[anchor] + float(x)
            found.append((left, left + width, words))
    return found


@pytest.mark.parametrize("size", ["normal", "presenter"])
def test_axis_labels_keep_apart_in_lesson_7s_chart(size):
    """Lesson 7's chart at presenter size once showed its last two turns as one number ("1618")."""
    from amoeboid_edu import Game
    from amoeboid_edu.theory import paper
    from amoeboid_edu.ui.charts import LABEL_SEPARATION_PX, chart_svg

    game = Game.parse(f"start {paper.case_IV_position(44)}\n{paper.PAPER_CASE_IV_LINE}")
    svg = chart_svg(analysis.delta_chart(analysis.game_frame(game, start=True), title="Case IV: δ and Δ"), size)
    labels = visible_x_labels(svg)
    assert len(labels) >= 4 and labels[0][2] == "0"
    gaps = [(b[0] - a[1], a[2], b[2]) for a, b in zip(labels, labels[1:])]
    assert all(gap >= LABEL_SEPARATION_PX / 2 for gap, _, _ in gaps), gaps
