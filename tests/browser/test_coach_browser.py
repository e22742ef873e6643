"""Hint and Review on the board in a real browser (JupyterLab, Debian's headless Chromium, Playwright).

The notebook writes the board's Python-side state to a JSON file at every change,
so the test checks what the browser shows against what Python computed, and that
against ``amoeboid_edu.theory.coach`` run here.  Screenshots (1280x720, light and dark) go
to ``test-artifacts/`` (gitignored).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import nbformat
import pytest
from jupyter_harness import read_state, start_kernel
from test_demo_browser import LONG_GAME, SMALLEST_TEXT

from amoeboid_edu import Game, Position
from amoeboid_edu.theory import coach

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
START, SEED = "(1,0) . . / . . . / . . (0,1) A", 0
"""With these dice the game ends after 3 turns when A plays the top hint against greedy.  (Not every start ends:
from (3,0) . . / . . . / . . (0,3) A with seed 2, A's hinted piece flees B's big mixed amoeba until the turn cap.)"""

NOTEBOOK = f"""\
import json, pathlib
from amoeboid_edu.ui.widget import Board

board = Board.from_position({START!r}, seed={SEED}, opponent="greedy")

def dump(_change=None):
    state = {{key: getattr(board, key) for key in ("version", "position", "view", "record", "error", "hints",
                                                  "review_view")}}
    pathlib.Path(STATE_PATH).write_text(json.dumps(state))

board.observe(dump, names=["version", "error"])
dump()
board
"""


def serve_notebook(session_lab, browser, name: str, source: str):
    """``source`` as the one cell of ``name``.ipynb, in a folder of the session's JupyterLab of its own; afterwards
    (the end of the test) its pages are closed, its kernel shut down and the theme put back."""
    with session_lab.serving(name, browser) as root:
        notebook = nbformat.v4.new_notebook()
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                           "language": "python"}
        notebook.cells = [nbformat.v4.new_code_cell(source.replace("STATE_PATH", repr(str(root / "board.json"))))]
        nbformat.write(notebook, root / f"{name}.ipynb")
        yield {"url": session_lab.url(root, f"{name}.ipynb"), "root": root}


@pytest.fixture
def lab(session_lab, browser):
    yield from serve_notebook(session_lab, browser, "coach", NOTEBOOK)


BROWSER_SIDE = """root => ({version: root.dataset.version, classes: root.className,
    error: root.querySelector('.amb-error')?.textContent, message: root.querySelector('.amb-message')?.textContent})"""
"""What the browser shows of a board, for a failure's message."""


def wait_for(read, condition, timeout: float = 60.0, shown=None) -> dict:
    """The board's state (``read()``) once ``condition`` holds; on time out, an error naming the last state (and what
    ``shown()`` says the browser shows)."""
    deadline = time.monotonic() + timeout
    while True:
        state = read_state(read)
        if state is not None and condition(state):
            return state
        if time.monotonic() >= deadline:
            pytest.fail(f"timed out waiting; last state: {state}; the browser: {shown() if shown else '-'}")
        time.sleep(0.05)


def run_board_notebook(browser, url: str, ready: str, timeout: int):
    """A 1280x720 page on the notebook at ``url``, its kernel started and every cell run, once the board shows the
    button ``ready``; returns the page and the board."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(url)
    page.wait_for_function("() => window.jupyterapp && document.querySelector('.jp-NotebookPanel')", timeout=60_000)
    start_kernel(page)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_selector(f".amoeboid-board[data-version] [data-action='{ready}']", timeout=timeout)
    return page, page.locator(".amoeboid-board").first


def test_press_hint_play_hints_then_review(lab, browser):
    ARTIFACTS.mkdir(exist_ok=True)
    state_file = lab["root"] / "board.json"
    read = lambda: json.loads(state_file.read_text())  # noqa: E731
    page, root = run_board_notebook(browser, lab["url"], "coach-hint", 60_000)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:enter-command-mode')")

    shot = 0
    while True:
        state = wait_for(read, lambda s: str(s["version"]) == root.get_attribute("data-version"))
        if state["view"]["phase"] == "over" or len(Game.parse(state["record"]) if state["record"] else []) > 40:
            break
        # The spinner shows as soon as Hint is pressed (synchronously, before Python answers).
        spinner = root.evaluate(
            "el => { el.querySelector('[data-action=coach-hint]').click();"
            " return el.querySelector('.amb-coach-spinner').textContent; }"
        )
        assert spinner == "computing hints…"
        state = wait_for(read, lambda s: s["hints"] and str(s["version"]) == root.get_attribute("data-version"))
        position, view = Position.parse(state["position"]), state["view"]
        expected = coach.hints(position, view["roll"], grow=view["grow"], seed=SEED)
        assert [h["turn"] for h in state["hints"]] == [str(h.turn) for h in expected]
        assert [h["win"] for h in state["hints"]] == [round(h.win, 4) for h in expected]
        listed = root.locator(".amb-hint-item [data-action='coach-play']").all_inner_texts()
        assert listed == [h["turn"] for h in state["hints"]]
        drawn = root.locator(".amb-svg .amb-hint").count()
        assert drawn == len(state["hints"])
        assert root.locator(".amb-coach-spinner").inner_text() == ""
        if shot == 0:
            root.evaluate("el => el.querySelector('.amb-status').scrollIntoView({block: 'start'})")
            page.screenshot(path=ARTIFACTS / "coach-hint-light.png")
            shot += 1
        played = state["hints"][0]["turn"]
        plies = len(Game.parse(state["record"])) if state["record"] else 0
        version = state["version"]
        root.locator(".amb-hint-item [data-action='coach-play']").first.click()
        state = wait_for(read, lambda s: s["version"] > version)
        assert str(Game.parse(state["record"]).turns[plies]) == played

    if state["view"]["phase"] == "over":
        version = state["version"]
        root.locator("[data-action='coach-review']").click()
        state = wait_for(read, lambda s: s["version"] > version and s["review_view"])
        review = coach.review(Game.parse(state["record"]), seed=SEED)
        rows = state["review_view"]["rows"]
        assert [r["class"] for r in rows] == list(review.frame["class"])
        assert [r["A_after"] for r in rows] == [round(v, 4) for v in review.frame["A_after"]]
        wait_for(read, lambda s: str(s["version"]) == root.get_attribute("data-version"))
        assert root.locator(".amb-review-chart .amb-review-point").count() == len(rows)
        root.locator(".amb-review-turn").first.click()
        caption = root.locator(".amb-review-caption").inner_text()
        assert caption.startswith(f"After turn 1: A played {rows[0]['played']}")
        root.locator(".amb-review-position").scroll_into_view_if_needed()
        page.screenshot(path=ARTIFACTS / "coach-review-light.png")
        smallest = root.locator(".amb-review").evaluate(SMALLEST_TEXT)  # title, chart, turns, the picked board
        assert smallest[0][0] >= 14, f"the review's smallest texts: {smallest}"
        page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
        page.wait_for_selector("body[data-jp-theme-light='false']", state="attached")  # set once the CSS loaded
        page.screenshot(path=ARTIFACTS / "coach-review-dark.png")
    else:
        pytest.fail("the game did not end within 40 turns of hints")


LONG_GAME_NOTEBOOK = """\
import json, pathlib, threading, time
from amoeboid_edu import Game, random_turn, seeded_rng
from amoeboid_edu.theory import coach
from amoeboid_edu.ui.widget import Board

# The first review is paced (a quarter second a turn), so that it is still running when the test clicks and
# cancels, however fast the machine and however much of it the board computed ahead while the game was stepped.
paced, review_turn = [], coach.review_turn

def pace_the_first_review(*args, **kwargs):
    thread = threading.current_thread()
    if thread.name == "amoeboid-review" and paced in ([], [thread.ident]):
        paced[:] = [thread.ident]
        time.sleep(0.25)
    return review_turn(*args, **kwargs)

coach.review_turn = pace_the_first_review

""" + LONG_GAME + """
def dump(_change=None):
    state = {key: getattr(board, key) for key in ("version", "error", "message", "review_progress", "review_view")}
    state["phase"] = board.phase
    pathlib.Path(STATE_PATH).write_text(json.dumps(state))

board.observe(dump, names=["version", "error", "review_progress"])
dump()
board
"""


@pytest.fixture
def long_game_lab(session_lab, browser):
    yield from serve_notebook(session_lab, browser, "review", LONG_GAME_NOTEBOOK)


def test_the_board_answers_clicks_and_cancel_while_the_review_runs_and_the_review_ends(long_game_lab, browser):
    state_file = long_game_lab["root"] / "board.json"
    read = lambda: json.loads(state_file.read_text())  # noqa: E731
    page, root = run_board_notebook(browser, long_game_lab["url"], "coach-review", 90_000)
    state = wait_for(read, lambda s: s["phase"] == "over")

    # Review, then a click on the board while the review runs: the board answers (a refusal: the game is over).
    root.locator("[data-action='coach-review']").click()
    root.locator(".amb-review-progress").wait_for(timeout=60_000)
    total = wait_for(read, lambda s: s["review_progress"])["review_progress"]["total"]  # never read mid-write
    # (a click on a cell while a turn is animated only skips the animation: the click waits for the live board)
    page.wait_for_function("root => !root.classList.contains('amb-animating')", arg=root.element_handle())
    root.locator(".amb-svg [data-cell='a1']").first.click()
    state = wait_for(read, lambda s: s["error"], timeout=90,  # a loaded machine may be slow; the review runs longer
                     shown=lambda: root.evaluate(BROWSER_SIDE))
    assert state["review_progress"], "the click was answered only after the review"
    page.screenshot(path=ARTIFACTS / "coach-review-running-light.png")

    # Cancel: the review stops before its next turn and says so; Review is offered again.
    root.locator("[data-action='coach-cancel']").click()
    state = wait_for(read, lambda s: not s["review_progress"], timeout=60)
    assert state["review_view"] == {} and "cancelled" in state["message"]
    root.locator("[data-action='coach-review']").wait_for(timeout=30_000)

    # Review again, left alone: it ends, and its rows are drawn.
    root.locator("[data-action='coach-review']").click()
    state = wait_for(read, lambda s: s["review_view"] and not s["review_progress"], timeout=300)
    assert len(state["review_view"]["rows"]) == total
    wait_for(read, lambda s: str(s["version"]) == root.get_attribute("data-version"))
    root.locator(".amb-review-turn").nth(total - 1).wait_for(state="attached", timeout=60_000)  # drawn after it
    assert root.locator(".amb-review-turn").count() == total
