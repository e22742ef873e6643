"""The board in a real browser: JupyterLab on 127.0.0.1, Debian's headless Chromium driven by Playwright.

The notebook writes each board's Python-side state to a JSON file whenever its
``version`` (or ``error``) changes, so after every click the test reads what
Python holds -- no second channel into the kernel -- and checks it against the
engine.  Screenshots go to ``test-artifacts/`` (gitignored).
"""

from __future__ import annotations

import json
import random
import statistics
from pathlib import Path

import nbformat
import pytest
from jupyter_harness import shows_state, start_kernel
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from board_players import choose

from amoeboid_edu import Game, Position, Turn, apply

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
GAME_SEED, FUZZ_SEED, FUZZ_CLICKS = 3, 11, 300  # seed 3: a 21-turn game with the test's players
# Where the fuzz may click, and how often: highlighted cells more than others, New game rarely, the coach never.
# A Review of a long 4x4 game keeps the kernel busy for tens of seconds, and the boards' intents queue behind it, so
# a Review clicked late in the fuzz made the next test's clicks wait past their timeout; test_coach_browser.py tests
# the coach.
FUZZ_TARGETS = """nodes => nodes.map(n => {  // the size of each target (the click is placed inside it) and its kind
  const r = n.getBoundingClientRect();
  const kind = n.matches('.amb-selectable, .amb-target') ? 'highlighted' : n.dataset.action || 'cell';
  return [r.width, r.height, kind];
})"""
FUZZ_WEIGHTS = {"highlighted": 4.0, "new": 0.02, "undo": 0.3, "coach-hint": 0.0, "coach-review": 0.0}
# The versions of the boards other than the fuzz board (index 1): the fuzz must not touch them.
OTHER_VERSIONS = "nodes => nodes.filter((_, i) => i !== 1).map(n => n.dataset.version)"
PAPER_MOVE_9 = ". . . / (5,5) (12,2) . / (0,5) (0,4) (8,8) A"  # the paper's example game, before A's 9th turn
PAPER_OPENING = "3 a1 a1-b1\n2 c3 c3-b3\n3 b1 b1-c1\n1 b3 b3-a3"

NOTEBOOK_SETUP = """\
import json, pathlib
from amoeboid_edu.ui.widget import Board


def record_state(board, path):
    def dump(_change=None):
        state = {key: getattr(board, key) for key in ("version", "position", "view", "record", "error", "message")}
        pathlib.Path(path).write_text(json.dumps(state))
    board.observe(dump, names=["version", "error"])
    dump()
"""


@pytest.fixture(scope="module")
def lab(session_lab, browser):
    with session_lab.serving("widget", browser) as root:
        yield {"url": session_lab.url(root, write_notebook(root)), "root": root}


def write_notebook(root: Path) -> str:
    """The module's notebook in ``root``: six boards, three of which record their Python-side state beside it."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    notebook.cells = [
        nbformat.v4.new_code_cell(NOTEBOOK_SETUP),
        nbformat.v4.new_code_cell(
            f"game = Board(seed={GAME_SEED})\nrecord_state(game, {str(root / 'game.json')!r})\ngame"
        ),
        nbformat.v4.new_code_cell(
            f"fuzz = Board(board=4, opponent='random', seed={FUZZ_SEED})\n"
            f"record_state(fuzz, {str(root / 'fuzz.json')!r})\nfuzz"
        ),
        nbformat.v4.new_code_cell(f"demo = Board.from_position({PAPER_MOVE_9!r}, seed=1)\ndemo"),
        nbformat.v4.new_code_cell(f"from amoeboid_edu.ui.widget import Replay\nReplay({PAPER_OPENING!r})"),
        nbformat.v4.new_code_cell(f"line = Board(seed=0)\nline.queue({PAPER_OPENING!r})\nline"),
        nbformat.v4.new_code_cell(
            f"big = Board(board=8, opponent='random', seed=2)\nrecord_state(big, {str(root / 'big.json')!r})\nbig"
        ),
    ]
    nbformat.write(notebook, root / "board.ipynb")
    return "board.ipynb"


@pytest.fixture(scope="module")
def page(lab, browser):
    page = browser.new_page(viewport={"width": 1100, "height": 1500})
    page.goto(lab["url"])
    page.wait_for_function("() => window.jupyterapp && document.querySelector('.jp-NotebookPanel')", timeout=60_000)
    start_kernel(page)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_function(
        "() => document.querySelectorAll('.amoeboid-board[data-version]').length === 6", timeout=60_000
    )
    page.evaluate(
        """() => {
          window.__amb = {clicks: [], renders: []};
          document.addEventListener('click', () => window.__amb.clicks.push(performance.now()), true);
          const first = document.querySelector('.amoeboid-board');
          new MutationObserver(() => window.__amb.renders.push(performance.now()))
            .observe(first, {attributes: true, attributeFilter: ['data-version']});
        }"""
    )
    yield page


class BoardInPage:
    """One board in the page and the Python-side state its notebook cell records."""

    def __init__(self, page, index: int, state_file: Path) -> None:
        self.page, self.state_file = page, state_file
        self.root = page.locator(".amoeboid-board").nth(index)

    def state(self) -> dict:
        return json.loads(self.state_file.read_text())

    def dom_version(self) -> int:
        return int(self.root.get_attribute("data-version"))

    def settle(self, after_version: int | None = None, timeout: float = 10.0) -> dict:
        """Wait until the browser shows the version Python holds (and a newer one than ``after_version``)."""
        return shows_state(self.page, self.root, self.state, after_version, timeout)

    def click(self, selector: str) -> dict:
        version = self.settle()["version"]
        self.root.locator(selector).click()
        return self.settle(after_version=version)

    def click_cell(self, cell: str) -> dict:
        return self.click(f'[data-cell="{cell}"]')

    def rendered_cells(self) -> list[str]:
        return self.root.locator("[data-cell]").evaluate_all("nodes => nodes.map(n => n.dataset.amoeba)")


def cells_text(view: dict) -> list[str]:
    """The amoebae of the position the view shows, from the engine (the board's picture is drawn in Python)."""
    shown = Position.parse(view["shown"])
    return ["." if cell is None else f"({cell.a},{cell.b})" for cell in shown.cells]


def play_turn_by_clicks(board: BoardInPage, turn: Turn, state: dict) -> dict:
    """Grow, source, steppers, destination, asserting the Python side after every click."""
    before = Position.parse(state["position"])
    if state["view"]["phase"] == "grow":
        state = board.click_cell(turn.grow)
        assert state["view"]["grow"] == turn.grow and state["position"] == str(before)
    if turn.is_pass:
        return state
    if state["view"]["src"] != turn.src:
        state = board.click_cell(turn.src)
    assert state["view"]["phase"] == "destination" and state["view"]["src"] == turn.src
    assert state["position"] == str(before)
    presets = [(p["a"], p["b"]) for p in state["view"]["presets"]]
    if (turn.a, turn.b) in presets and (turn.a, turn.b) != (state["view"]["counts"]["a"], state["view"]["counts"]["b"]):
        state = board.click(f'[data-action="preset"] >> nth={presets.index((turn.a, turn.b))}')
    while (state["view"]["counts"]["a"], state["view"]["counts"]["b"]) != (turn.a, turn.b):
        counts = state["view"]["counts"]
        for side, want in (("A", turn.a), ("B", turn.b)):
            have = counts[side.lower()]
            if have != want:
                state = board.click(f'[data-action="{"minus" if want < have else "plus"}-{side}"]')
                break
        assert state["position"] == str(before)
    assert turn.dst in state["view"]["targets"]
    ply = len(Game.parse(state["record"]).turns)
    state = board.click_cell(turn.dst)
    game = Game.parse(state["record"])  # every turn in the record is legal
    assert game.positions[ply] == before and game.positions[ply + 1] == apply(before, turn)
    assert str(game.position) == state["position"]
    return state


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def test_play_a_whole_game_by_clicking_with_screenshots(page, lab):
    board = BoardInPage(page, 0, lab["root"] / "game.json")
    board.root.scroll_into_view_if_needed()
    state = board.settle()
    rng = random.Random(GAME_SEED)
    split = eat = False
    while Position.parse(state["position"]).result == "ongoing":
        assert len(cells_text(state["view"])) == 9 and len(Game.parse(state["record"]).turns) < 60
        before = Position.parse(state["position"])
        turn = choose(before, state["view"]["roll"], rng)
        if not split and turn.src and before[turn.dst] is None and turn.a + turn.b > 1:
            turn = Turn(
                turn.roll, turn.grow, turn.src, turn.dst, turn.a - 1 if turn.a else 0, turn.b - (0 if turn.a else 1)
            )
            split = True
        eat = eat or (turn.dst is not None and before[turn.dst] is not None)
        state = play_turn_by_clicks(board, turn, state)
        assert board.rendered_cells() == cells_text(state["view"])
    assert split and eat
    assert state["view"]["phase"] == "over" and board.root.get_attribute("data-phase") == "over"

    timings = page.evaluate("() => window.__amb")
    latencies = []
    for clicked in timings["clicks"]:
        rendered = [t for t in timings["renders"] if t > clicked]
        if rendered:
            latencies.append(rendered[0] - clicked)
    print(
        f"\ngame of {len(Game.parse(state['record']).turns)} turns; click -> re-rendered board over {len(latencies)} clicks: median {statistics.median(latencies):.1f} ms, "
        f"p95 {percentile(latencies, 0.95):.1f} ms"
    )


def test_random_click_fuzz_leaves_a_legal_position_that_the_board_shows(page, lab):
    board = BoardInPage(page, 1, lab["root"] / "fuzz.json")
    board.root.scroll_into_view_if_needed()
    board.settle()
    other_boards = page.locator(".amoeboid-board").evaluate_all(OTHER_VERSIONS)
    targets = board.root.locator("[data-cell], button:not([disabled])")
    rng = random.Random(FUZZ_SEED)
    missed = 0
    for _ in range(FUZZ_CLICKS):
        boxes = targets.evaluate_all(FUZZ_TARGETS)
        weights = [FUZZ_WEIGHTS.get(kind, 1.0) for *_, kind in boxes]
        index = rng.choices(range(len(boxes)), weights)[0]
        width, height, _kind = boxes[index]
        where = {"x": width * rng.uniform(0.2, 0.8), "y": height * rng.uniform(0.2, 0.8)}
        try:  # a locator click lands on this board or not at all, even while a reply re-renders it
            targets.nth(index).click(position=where, timeout=1000)
        except PlaywrightTimeoutError:  # the target went away with the re-render (e.g. a disabled button)
            missed += 1
        if rng.random() < 0.3:
            page.wait_for_timeout(rng.choice([20, 100, 500]))
    page.wait_for_timeout(1500)  # let a bot's two-step animation finish
    state = board.settle()
    game = Game.parse(state["record"])
    assert str(game.position) == state["position"]  # every turn the fuzz made is legal
    assert board.rendered_cells() == cells_text(state["view"])
    assert board.root.get_attribute("data-position") == state["view"]["shown"]
    shown = Position.parse(state["view"]["shown"])
    assert cells_text(state["view"]) == ["." if cell is None else str(cell) for cell in shown.cells]
    assert page.locator(".amoeboid-board").evaluate_all(OTHER_VERSIONS) == other_boards  # the fuzz stayed on its board
    print(
        f"\nfuzz: {FUZZ_CLICKS} clicks ({missed} found no target), {state['version']} accepted, "
        f"{len(game.turns)} turns in the final game"
    )


def test_a_teachers_position_in_light_and_dark_and_a_replay(page, lab):
    board = BoardInPage(page, 2, lab["root"] / "unused.json")
    board.root.scroll_into_view_if_needed()
    board.root.focus()  # the keyboard: the first arrow shows the cursor on a1; then down, right, Enter picks b2
    for key in ("ArrowDown", "ArrowDown", "ArrowRight", "Enter"):  # A owns one amoeba, so the grow was automatic
        page.keyboard.press(key)
    page.wait_for_function("root => root.dataset.phase === 'destination'", arg=board.root.element_handle())
    labels = board.root.locator('[data-action="preset"]').all_text_contents()
    assert "eat a2: 10,0" in labels and "neutralise b3: 4,0" in labels  # engine helpers, via Python
    ARTIFACTS.mkdir(exist_ok=True)
    board.root.screenshot(path=ARTIFACTS / "board-light.png")
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
    page.wait_for_selector("body[data-jp-theme-light='false']", state="attached")  # set once the theme's CSS loaded
    board.root.screenshot(path=ARTIFACTS / "board-dark.png")
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
    page.wait_for_selector("body[data-jp-theme-light='true']", state="attached")

    replay = page.locator(".amoeboid-board").nth(3)
    replay.scroll_into_view_if_needed()
    assert replay.get_attribute("data-position") == str(Position.start())
    for ply, line in enumerate(PAPER_OPENING.splitlines(), start=1):
        replay.locator('[data-action="next-ply"]').click()
        page.wait_for_function(
            "([root, ply]) => root.dataset.version === String(ply + 1)", arg=[replay.element_handle(), ply]
        )
    assert replay.get_attribute("data-position") == str(Game.parse(PAPER_OPENING).position)
    replay.locator(".amb-slider").fill("1")
    page.wait_for_function("root => root.dataset.version === '6'", arg=replay.element_handle())
    assert replay.get_attribute("data-position") == str(Game.parse(PAPER_OPENING).positions[1])


def test_a_bots_turn_is_shown_in_two_steps_on_an_8x8_board(page, lab):
    board = BoardInPage(page, 5, lab["root"] / "big.json")
    board.root.scroll_into_view_if_needed()
    state = board.settle()
    assert state["view"]["phase"] == "source"  # one amoeba: grown automatically
    version = board.click_cell("a1")["version"]
    board.root.locator('[data-cell="b2"]').click()
    root = board.root.element_handle()
    # each step is read in the page the moment it shows (a step lasts 450 ms: a loaded machine may miss it between calls)
    grow_shown = page.wait_for_function(  # step 1: the grow
        """root => root.querySelector('.amb-message').textContent.includes(': grows')
                  && root.querySelector('.amb-board-box .amb-grow')?.dataset.cell""", arg=root).json_value()
    move_shown = page.wait_for_function(  # step 2: the move
        """root => { const [s, t] = ['.amb-source', '.amb-target'].map(m => root.querySelector('.amb-board-box ' + m));
                     return root.querySelector('.amb-message').textContent.includes(': moves') && s && t
                            && [s.dataset.cell, t.dataset.cell]; }""", arg=root).json_value()
    ARTIFACTS.mkdir(exist_ok=True)
    board.root.screenshot(path=ARTIFACTS / "board-8x8-bot-move.png")
    page.wait_for_function("root => !root.classList.contains('amb-animating')", arg=root)
    state = board.settle(after_version=version)
    game = Game.parse(state["record"])
    bot_turn = game.turns[-1]
    assert game.position.to_move == "A" and str(game.position) == state["position"]
    assert grow_shown == bot_turn.grow and move_shown == [bot_turn.src, bot_turn.dst]
    assert board.rendered_cells() == cells_text(state["view"])


def test_a_scripted_line_steps_with_the_next_button(page, lab):
    board = page.locator(".amoeboid-board").nth(4)
    board.scroll_into_view_if_needed()
    lines = PAPER_OPENING.splitlines()
    for ply in range(1, len(lines) + 1):
        game = Game.parse("\n".join(lines[:ply]))
        next_button = board.locator('[data-action="next"]')
        assert next_button.text_content() == "Next"  # the turn stays hidden until Reveal (the presenter's demo)
        next_button.click()
        page.wait_for_function(
            "([root, record]) => root.querySelector('.amb-record').value === record",
            arg=[board.element_handle(), str(game)],
            timeout=5000,
        )
    assert board.locator('[data-action="next"]').count() == 0  # the line is over: the students play on
