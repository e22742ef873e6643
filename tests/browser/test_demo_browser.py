"""Lesson 6's projector demo in a real browser, at 1280x720 and at 150% zoom, in the light and the dark theme.

The notebook holds the demo exactly as lesson 6 builds it (``board.with_chart``)
and writes the board's Python-side state to a JSON file whenever its version
changes, so every step is checked against what Python holds.  Screenshots go to
``test-artifacts/`` (gitignored); ``docs/demo-*.png`` are copies of one run.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from jupyter_harness import PROJECTOR_SCREENS as SCREENS
from jupyter_harness import open_notebook, shows_state

from amoeboid_edu import Position, apply

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CASE_III_START = "(14,0) . . / . . . / . . (0,5) A"
LINE = [
    "6 a1 a1-b2 20,0", "4 c3 c3-c2 0,4", "3 b2 b2-c3 5,0", "3 c2 c2-b1 0,3", "1 b2 b2-c2 4,0", "5 b1 b1-a1 0,4",
    "5 b2 b2-a1 4,0", "5 b1 b1-c1 0,4", "4 b2 b2-b1 5,0", "2 c1 -", "4 b2 b2-c1 19,0",
]  # fmt: skip  (lesson 6's Case III line)

SETUP = """\
import json, pathlib
import altair as alt
from amoeboid_edu import Position
from amoeboid_edu.theory import analysis
from amoeboid_edu.ui.widget import Board

_ = alt.renderers.enable("amoeboid")


def record_state(board, path):
    def dump(_change=None):
        state = {key: getattr(board, key) for key in ("version", "position", "view", "error")}
        pathlib.Path(path).write_text(json.dumps(state))
    board.observe(dump, names=["version", "error"])
    dump()
"""


@pytest.fixture(scope="module")
def lab(session_lab, browser):
    with session_lab.serving("demo", browser) as root:
        yield {"url": session_lab.url(root, write_demo(root)), "root": root}


def write_demo(root: Path) -> str:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    notebook.cells = [
        nbformat.v4.new_code_cell(SETUP),
        nbformat.v4.new_code_cell(
            f"board = Board.from_position({CASE_III_START!r}, seed=3)\n"
            f"board.queue({chr(10).join(LINE)!r})\n"
            f"record_state(board, {str(root / 'demo.json')!r})\n"
            "board.with_chart(lambda game: analysis.delta_chart(analysis.game_frame(game, start=True),"
            ' title="Case III: δ and Δ"))'
        ),
        nbformat.v4.new_code_cell(f"Position.parse({CASE_III_START!r})"),
        nbformat.v4.new_code_cell(
            "from amoeboid_edu import Game\n"
            f"game = Game.parse('start {CASE_III_START}\\n' + {chr(10).join(LINE)!r})\n"
            'analysis.delta_chart(analysis.game_frame(game, start=True), title="Case III line: δ and Δ")'
        ),
    ]
    nbformat.write(notebook, root / "demo.ipynb")
    return "demo.ipynb"


def open_demo(browser, lab, screen: str):
    page = open_notebook(browser, lab["url"], screen)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.evaluate("""() => { window.demoRun = 'running';
        window.jupyterapp.commands.execute('notebook:run-all-cells').then(() => window.demoRun = 'done'); }""")
    page.wait_for_function("() => window.demoRun === 'done'", timeout=120_000, polling=100)
    demo = page.locator(".amb-demo").first
    demo.wait_for(timeout=30_000)
    return page, demo


def state(lab) -> dict:
    return json.loads((lab["root"] / "demo.json").read_text())


def settle(page, demo, lab, after: int | None = None) -> dict:
    """Wait until the browser shows the version Python holds (newer than ``after``), and no animation runs."""
    board = demo.locator(".amoeboid-board")
    held = shows_state(page, board, lambda: state(lab), after)
    page.wait_for_function("b => !b.classList.contains('amb-animating')", arg=board.element_handle(), polling=20)
    return held


def press(page, demo, lab, action: str) -> dict:
    before = settle(page, demo, lab)["version"]
    demo.locator(f'.amoeboid-board [data-action="{action}"]').click()
    return settle(page, demo, lab, after=before)


def outside_viewport(page, locator) -> list[str]:
    """Which edges of ``locator`` lie outside the notebook's visible area (empty: all visible without scrolling).

    The visible area is the notebook's scrolling panel within the window: JupyterLab's toolbars and status bar
    cover the rest.
    """
    return locator.evaluate("""el => {
        const r = el.getBoundingClientRect(), out = [];
        const panel = (el.closest('.jp-WindowedPanel-outer') || el.closest('.jp-Notebook')).getBoundingClientRect();
        const top = Math.max(0, panel.top), left = Math.max(0, panel.left);
        const h = Math.min(window.innerHeight, panel.bottom), w = Math.min(window.innerWidth, panel.right);
        if (r.top < top) out.push(`top ${r.top} < ${top}`);
        if (r.left < left) out.push(`left ${r.left} < ${left}`);
        if (r.bottom > h) out.push(`bottom ${r.bottom} > ${h}`);
        if (r.right > w) out.push(`right ${r.right} > ${w}`);
        if (r.width < 1 || r.height < 1) out.push('not drawn');
        return out;
    }""")


def hovered_title(page, mark) -> str:
    """Hover ``mark`` and return the ``<title>`` (the browser's tooltip) of what is under the pointer there."""
    mark.hover()
    box = mark.bounding_box()
    return page.evaluate(
        """([x, y]) => {
            const hit = document.elementFromPoint(x, y);
            return hit && hit.querySelector(':scope > title') ? hit.querySelector(':scope > title').textContent : '';
        }""",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )


def text_brightness(demo) -> float:
    """The mean of R, G and B of the chart title's text colour (0 black .. 255 white)."""
    fill = demo.locator(".amb-demo-chart svg text", has_text="Case III").first.evaluate("el => getComputedStyle(el).fill")
    red, green, blue = (float(part) for part in fill[fill.index("(") + 1 : -1].split(",")[:3])
    return (red + green + blue) / 3


def assert_hidden_then_revealed(page, demo, lab, turn: str, hidden: str) -> None:
    """Before Reveal the message and the buttons name the mover and roll but not ``turn``; after it, both show it."""
    message, next_button = demo.locator(".amb-message"), demo.locator('.amoeboid-board [data-action="next"]')
    assert f"Next: {hidden}" in message.inner_text() and turn not in message.inner_text()
    assert turn not in demo.locator(".amoeboid-board").inner_text()
    held = press(page, demo, lab, "reveal")
    assert held["view"]["next_turn"] == turn and turn in message.inner_text()
    assert next_button.inner_text().strip() == "Next"  # as TEACHERS.md says: the message line shows the turn
    assert demo.locator('.amoeboid-board [data-action="reveal"]').count() == 0 and next_button.is_visible()


def bring_to_top(page, demo) -> None:
    """What the teacher does once: scroll the demo's output to the top of the notebook."""
    scroll_to_top(demo)


def scroll_to_top(element) -> None:
    """Scroll ``element`` to the top of its scrolling panel and return once it stands still (the same place in two
    frames running)."""
    element.evaluate(SCROLL_AND_SETTLE)


SCROLL_AND_SETTLE = """el => new Promise(resolve => {
    el.scrollIntoView({block: 'start'});
    let last = null;
    const check = () => {
        const top = el.getBoundingClientRect().top;
        if (top === last) resolve();
        else { last = top; requestAnimationFrame(check); }
    };
    requestAnimationFrame(check);
})"""


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_demo_fits_one_screen_and_walks_the_line_both_ways(browser, lab, screen):
    page, demo = open_demo(browser, lab, screen)
    positions = [Position.parse(CASE_III_START)]
    for turn in LINE:
        positions.append(apply(positions[-1], turn))
    held = settle(page, demo, lab)
    assert held["position"] == str(positions[0]) and held["view"]["phase"] == "queued"
    assert "Scripted line, turn 1 of 11: A to move" in demo.locator(".amb-status").inner_text()
    assert not demo.locator(".amb-history").evaluate("el => el.open")  # History folded
    assert_hidden_then_revealed(page, demo, lab, LINE[0], "A's turn, with a roll of 6")

    held = press(page, demo, lab, "next")  # the chart appears with the first turn
    demo.locator(".amb-demo-chart svg").wait_for(timeout=15_000)
    bring_to_top(page, demo)
    parts = {
        "board": demo.locator(".amb-svg"),
        "Next button": demo.locator('[data-action="next"]'),
        "Undo button": demo.locator('[data-action="undo"]'),
        "status": demo.locator(".amb-status"),
        "message line": demo.locator(".amb-message"),
        "chart": demo.locator(".amb-demo-chart svg"),
    }
    tag = screen.replace("% ", "-").replace(" ", "-")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"demo-{tag}-light.png"))
    assert {name: outside_viewport(page, part) for name, part in parts.items() if outside_viewport(page, part)} == {}
    smallest = demo.locator(".amb-demo-chart svg").evaluate("""svg => {
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width * window.devicePixelRatio;
        return Math.min(...[...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale));
    }""")
    assert smallest >= 16, f"the chart's smallest text is {smallest:.1f} screen pixels"
    assert text_brightness(demo) < 60  # dark on light
    assert hovered_title(page, demo.locator('.amb-demo-chart svg path[aria-roledescription="point"]').last) == (
        f"turn: 1\nadvantage of A (δ, Δ): {positions[1].delta}\nquantity: δ\nplayer: A\nturn played: {LINE[0]}\n"
        f"event: move\nposition after: {positions[1]}"
    )  # the last point drawn: δ's after turn 1, on top of Δ's

    for number in range(1, len(LINE)):  # to the end of the line, checking Python's position at each step
        assert held["position"] == str(positions[number])
        if LINE[number - 1].endswith(" -"):  # turn 10: B rolled 2 and could not move
            assert "last turn 2 c1 -: B had to pass (no legal move)" in demo.locator(".amb-status").inner_text()
        assert held["view"]["script_status"] == f"Scripted line, turn {number + 1} of 11: {positions[number].to_move} to move"
        mover, roll = positions[number].to_move, LINE[number].split()[0]
        assert_hidden_then_revealed(page, demo, lab, LINE[number], f"{mover}'s reply, with a roll of {roll}")
        held = press(page, demo, lab, "next")
    assert held["position"] == str(positions[-1]) and held["view"]["phase"] == "over"
    assert demo.locator('[data-action="next"]').count() == 0
    assert demo.locator(".amb-last-dst").count() == 1  # A's last turn stays marked
    assert outside_viewport(page, demo.locator(".amb-svg")) == []
    for number in reversed(range(len(LINE))):  # and all the way back with Undo
        held = press(page, demo, lab, "undo")
        assert held["position"] == str(positions[number]) and held["view"]["phase"] == "queued"
    assert demo.locator('[data-action="undo"]').is_disabled()

    for number in range(3):
        held = press(page, demo, lab, "next")
    held = press(page, demo, lab, "new")  # a free game from the start; the line can be brought back
    assert held["position"] == str(positions[0]) and held["view"]["phase"] == "source"  # one amoeba: grown
    before = held["version"]
    demo.locator('.amb-svg [data-cell="a1"]').click()
    held = settle(page, demo, lab, after=before)
    assert held["view"]["phase"] == "destination" and held["view"]["counts"]["max_b"] == 0
    assert demo.locator(".amb-stepper-A").count() == 1 and demo.locator(".amb-stepper-B").count() == 0
    held = press(page, demo, lab, "restart")
    assert held["position"] == str(positions[0]) and held["view"]["phase"] == "queued"
    held = press(page, demo, lab, "next")
    assert held["position"] == str(positions[1])

    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
    page.wait_for_selector("body[data-jp-theme-light='false']", state="attached")  # set once the theme's CSS loaded
    bring_to_top(page, demo)
    assert text_brightness(demo) > 200  # the chart's text follows the theme: light on dark
    page.screenshot(path=str(ARTIFACTS / f"demo-{tag}-dark.png"))
    if screen == "1280x720":
        static = page.locator(".jp-CodeCell").nth(2)
        static.scroll_into_view_if_needed()
        static.locator(".jp-Cell-outputWrapper").screenshot(path=str(ARTIFACTS / "static-board-dark.png"))
        chart = page.locator(".jp-CodeCell").nth(3).locator(".jp-Cell-outputWrapper")
        chart.scroll_into_view_if_needed()
        chart.screenshot(path=str(ARTIFACTS / "static-chart-dark.png"))
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
    page.wait_for_selector("body[data-jp-theme-light='true']", state="attached")
    page.close()


SMALLEST_TEXT = """root => {
    // every visible text in root with its size in CSS pixels as drawn: an SVG's text scaled as its picture is
    const sizes = [], walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode, element = node.parentElement, words = node.textContent.trim();
        const box = element.getBoundingClientRect();
        if (!words || box.width === 0 || box.height === 0) continue;  // hidden (a <title>, a folded part)
        let px = parseFloat(getComputedStyle(element).fontSize);
        const svg = element.closest('svg');
        if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width)
            px *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        sizes.push([Math.round(px * 10) / 10, words.slice(0, 40)]);
    }
    return sizes.sort((a, b) => a[0] - b[0]).slice(0, 3);
}"""
"""The three smallest texts of an element, ``[[px, text], ...]``: what a class at the back of the room must read."""

SIZES = """\
import pandas as pd
from amoeboid_edu import Game, random_turn, seeded_rng
from amoeboid_edu.theory import analysis, coach
from amoeboid_edu.ui.widget import Board, play

lesson_4 = play("random", seed=44)  # lesson 4's board and live chart, as the lesson builds them
lesson_4.with_chart(lambda game: analysis.delta_chart(analysis.game_frame(game, start=True), title="δ and Δ, your game"))
"""

LONG_GAME = """\
game = Game(seed=30)  # an 86-turn seeded game of the random player, stepped through on a board as a scripted line
while not game.is_over:
    game.play(random_turn(game.position, game.roll(), seeded_rng(30, "browser", len(game))))
board = Board(seed=30, opponent="greedy")
board.queue(game.turns)
for _ in game.turns:
    board.next()
"""
"""A long game on a board (``board``), for the tests of its review: notebook code."""

REVIEWED = LONG_GAME + """\
reviewed = board  # reviewed with few rollouts (the sizes are the point)
result = coach.review(game, seed=0, rollouts=8)
reviewed._show_review(game, result)
reviewed._publish()
reviewed
"""

REVIEWED_PRESENTER = """\
on_projector = Board(seed=30, opponent="greedy")  # the same review on lesson 4's presenter board, beside its chart
on_projector.queue(game.turns)
for _ in game.turns:
    on_projector.next()
on_projector._show_review(game, result)
on_projector._publish()
on_projector.with_chart(lambda game: analysis.delta_chart(analysis.game_frame(game, start=True), title="δ and Δ"))
"""


def test_lesson_4s_board_and_a_long_review_have_text_of_14px_or_more(browser, lab):
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(code) for code in (SIZES, REVIEWED, REVIEWED_PRESENTER)]
    nbformat.write(notebook, lab["root"] / "sizes.ipynb")
    page = open_notebook(browser, lab["url"].replace("demo.ipynb", "sizes.ipynb"), "1280x720")
    page.evaluate("""() => { window.sizesRun = 'running';
        window.jupyterapp.commands.execute('notebook:run-all-cells').then(() => window.sizesRun = 'done'); }""")
    page.wait_for_function("() => window.sizesRun === 'done'", timeout=180_000, polling=100)
    ARTIFACTS.mkdir(exist_ok=True)

    demo = page.locator(".amb-demo").first  # lesson 4: the board in presenter size, its chart beside it
    demo.locator(".amoeboid-board[data-version]").wait_for(timeout=30_000)
    on_board = demo.locator(".amoeboid-board").element_handle()
    page.wait_for_function("b => b.dataset.phase === 'source'", arg=on_board, timeout=120_000)
    demo.locator('.amb-svg [data-cell="a1"]').click()  # A's amoeba, then the centre: the chart appears
    page.wait_for_function("b => b.dataset.phase === 'destination'", arg=on_board, timeout=120_000)
    demo.locator('.amb-svg [data-cell="b2"]').click()
    # (a hang guard: the reviewed boards below value their turns ahead on threads, which slows the kernel down)
    demo.locator(".amb-demo-chart svg").wait_for(timeout=180_000)
    page.wait_for_function("d => !d.querySelector('.amb-animating')", arg=demo.element_handle())
    bring_to_top(page, demo)
    page.screenshot(path=str(ARTIFACTS / "sizes-lesson-4-light.png"))
    for name, part in {"board": demo.locator(".amb-svg"), "chart": demo.locator(".amb-demo-chart svg"),
                       "status": demo.locator(".amb-status"), "message": demo.locator(".amb-message")}.items():
        assert outside_viewport(page, part) == [], name  # board and chart on one screen
    smallest = demo.evaluate(SMALLEST_TEXT)
    assert smallest[0][0] >= 14, f"lesson 4's board or chart: {smallest}"

    for where in ("normal", "presenter"):  # the reviewed game: title, chart, turn list
        board = page.locator(".amoeboid-board").nth(1 if where == "normal" else 2)
        board.locator(".amb-review-turn").last.wait_for(state="attached", timeout=60_000)
        review = board.locator(".amb-review")
        scroll_to_top(review)
        page.screenshot(path=str(ARTIFACTS / f"sizes-review-{where}-light.png"))
        smallest = review.evaluate(SMALLEST_TEXT)
        assert smallest[0][0] >= 14, f"the review on a {where} board: {smallest}"
        turns = board.locator(".amb-review-turns")
        height, scrolled = turns.evaluate("el => [el.getBoundingClientRect().height, el.scrollHeight]")
        assert board.locator(".amb-review-turn").count() > 40 and height <= 0.4 * 720 < scrolled, (height, scrolled)
        chart_turns = board.locator(".amb-review-chart text").all_text_contents()
        assert {"10", "20", "30"} <= set(chart_turns), chart_turns  # turns a class can count from

    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
    page.wait_for_selector("body[data-jp-theme-light='false']", state="attached")  # set once the theme's CSS loaded
    page.screenshot(path=str(ARTIFACTS / "sizes-review-presenter-dark.png"))
    bring_to_top(page, demo)
    page.screenshot(path=str(ARTIFACTS / "sizes-lesson-4-dark.png"))
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
    page.wait_for_selector("body[data-jp-theme-light='true']", state="attached")
    page.close()
