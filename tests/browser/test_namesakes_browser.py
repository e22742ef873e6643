"""Both namesakes played by clicking in JupyterLab (headless Chromium): moves, a sow, chips, undo, both themes.

Each board's notebook cell writes the Python-side state to a JSON file when its
``version`` changes, so after every click the test checks what Python holds.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from jupyter_harness import shows_state, start_kernel

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SETUP = """\
import json, pathlib
from amoeboid_edu.namesakes.widget import NakajimaBoard, OosterwalBoard


def record_state(board, path):
    def dump(_change=None):
        moves = getattr(board.game, "moves", None) or getattr(board.game, "turns", [])
        state = {"version": board.version, "error": board.error, "position": str(board.game.position),
                 "moves": [str(move) for move in moves]}
        pathlib.Path(path).write_text(json.dumps(state))
    board.observe(dump, names=["version"])
    dump()
"""


@pytest.fixture(scope="module")
def page(session_lab, browser):
    with session_lab.serving("namesakes", browser) as root:
        yield open_boards(session_lab, browser, root)


def open_boards(session_lab, browser, root: Path):
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    notebook.cells = [
        nbformat.v4.new_code_cell(SETUP),
        nbformat.v4.new_code_cell(
            f"nk = NakajimaBoard(opponent='greedy', seed=1)\nrecord_state(nk, {str(root / 'nk.json')!r})\nnk"
        ),
        nbformat.v4.new_code_cell(
            f"oo = OosterwalBoard(2, opponent='greedy', human='B', seed=1)\n"
            f"record_state(oo, {str(root / 'oo.json')!r})\noo"
        ),
    ]
    nbformat.write(notebook, root / "namesakes.ipynb")
    page = browser.new_page(viewport={"width": 1100, "height": 1600})
    page.goto(session_lab.url(root, "namesakes.ipynb"))
    page.wait_for_function("() => window.jupyterapp && document.querySelector('.jp-NotebookPanel')", timeout=60_000)
    start_kernel(page)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_function(
        "() => document.querySelectorAll('.hx-widget[data-version]').length === 2", timeout=60_000
    )
    return page, root


class Widget:
    def __init__(self, page, index: int, state_file: Path) -> None:
        self.page, self.root = page, page.locator(".hx-widget").nth(index)
        self.state_file = state_file

    def state(self) -> dict:
        return json.loads(self.state_file.read_text())

    def settle(self, after: int | None = None) -> dict:
        return shows_state(self.page, self.root, self.state, after)

    def click(self, selector: str) -> dict:
        version = self.settle()["version"]
        self.root.locator(selector).first.click()
        return self.settle(after=version)


def test_nakajima_by_clicking_moves_a_sow_and_undo(page):
    page, root = page
    board = Widget(page, 0, root / "nk.json")
    state = board.click('[data-cell="e1"]')
    assert state["moves"] == [] and board.root.locator(".hx-cell.target").count() == 4
    state = board.click('[data-cell="e2"]')  # onto White's own disc: a stack of two
    assert state["moves"] == ["e1-e2", "c4-d5"]  # the greedy bot (seed 1) replied
    board.click('button[data-button="sow"]')
    assert board.root.locator("button.hx-active").inner_text() == "Sow"
    state = board.click('[data-cell="e2"]')
    assert board.root.locator(".hx-cell.target").count() == 4  # the sows of e2: towards e4, g2, c1 and c3
    state = board.click('[data-cell="c1"]')  # one white disc on d2, the other on top of Black's c1
    assert state["moves"][2] == "e2~c1" and len(state["moves"]) == 4
    state = board.click('[data-cell="a1"]')  # Black's stack: refused, nothing changes
    assert "white piece on top" in state["error"] and len(state["moves"]) == 4
    screenshots(page, board, "namesakes-nakajima")
    state = board.click('button[data-button="undo"]')  # the sow and the bot's reply
    assert state["moves"] == ["e1-e2", "c4-d5"] and state["position"].endswith(" white")
    state = board.click('button[data-button="undo"]')
    assert state["moves"] == [] and board.root.locator('button[data-button="undo"]').is_disabled()


def test_oosterwal_by_clicking_after_the_bots_opening_and_undo(page):
    page, root = page
    board = Widget(page, 1, root / "oo.json")
    state = board.settle()
    assert state["moves"] == ["3@4,0 +1,1"] and state["position"].endswith("| B")  # A, the bot, opened
    assert board.root.locator('button[data-button="undo"]').is_disabled()  # nothing of B's to take back
    board.click('button[data-button="2"]')
    state = board.click('[data-cell="2,0"]')
    assert len(state["moves"]) == 1 and board.root.locator(".hx-cell.spot").count() == 4
    state = board.click('[data-cell="3,-1"]')
    assert state["moves"][1:] == ["2@2,0 +3,-1", "3@3,-1 +3,1"]  # the greedy bot replied
    board.click('button[data-button="1"]')
    board.click('[data-cell="0,0"]')
    state = board.click('[data-cell="-1,1"]')
    assert state["moves"][3] == "1@0,0 +-1,1" and len(state["moves"]) == 5
    assert state["position"].startswith("A:21 B:4 ")  # B: 2, then 1 x (the B2 next to it) = 2
    screenshots(page, board, "namesakes-oosterwal")
    state = board.click('button[data-button="undo"]')
    assert len(state["moves"]) == 3 and state["position"].endswith("| B")
    state = board.click('button[data-button="undo"]')
    assert state["moves"] == ["3@4,0 +1,1"] and board.root.locator('button[data-button="undo"]').is_disabled()


def screenshots(page, board: Widget, name: str) -> None:
    """The board in JupyterLab's light theme, then its dark theme (then light again)."""
    ARTIFACTS.mkdir(exist_ok=True)
    board.root.scroll_into_view_if_needed()
    board.root.screenshot(path=str(ARTIFACTS / f"{name}-light.png"))
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
    page.wait_for_selector("body[data-jp-theme-light='false']", state="attached")  # set once the theme's CSS loaded
    board.root.screenshot(path=str(ARTIFACTS / f"{name}-dark.png"))
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
    page.wait_for_selector("body[data-jp-theme-light='true']", state="attached")
