"""Retake the README's screenshots of the board from the current code, in JupyterLab in headless Chromium.

    python scripts/screenshots.py                  # docs/board.png and docs/course-board-and-chart.png
    python scripts/screenshots.py --look shots/    # also both themes at 1280x720 and at 150% zoom, to look at

``docs/board.png``: the board in the middle of a turn, its presets shown (``capture`` among them).
``docs/course-board-and-chart.png``: lesson 6's demo layout (``board.with_chart``) after four turns of the Case III
line.  Both in JupyterLab's light theme at 1280x720, as a student sees them; ``--look`` adds the dark theme and the
150% zoom of a projector (853x480 CSS pixels), the screens a teacher must check before class.  It drives JupyterLab
with the browser tests' harness (``tests/jupyter_harness.py``: Debian's Chromium, never a downloaded one).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from jupyter_harness import PROJECTOR_SCREENS, chromium, jupyterlab, open_notebook  # noqa: E402

CASE_III_START = "(14,0) . . / . . . / . . (0,5) A"
CASE_III_LINE = [
    "6 a1 a1-b2 20,0", "4 c3 c3-c2 0,4", "3 b2 b2-c3 5,0", "3 c2 c2-b1 0,3", "1 b2 b2-c2 4,0", "5 b1 b1-a1 0,4",
    "5 b2 b2-a1 4,0", "5 b1 b1-c1 0,4", "4 b2 b2-b1 5,0", "2 c1 -", "4 b2 b2-c1 19,0",
]  # fmt: skip  (lesson 6's line)
BOARD_POSITION = ". . . / (5,5) (12,2) . / (0,5) (0,4) (8,8) A"  # A's one amoeba beside every kind of neighbour
NEXTS = 4

CELLS = [
    "import altair as alt\nfrom amoeboid_edu.theory import analysis\nfrom amoeboid_edu.ui.widget import Board\n"
    '_ = alt.renderers.enable("amoeboid")',
    f"board = Board.from_position({BOARD_POSITION!r}, seed=5)\n"
    'board.click("b2")  # the source: its presets appear\nboard',
    f"demo = Board.from_position({CASE_III_START!r}, seed=3)\n"
    f"demo.queue({chr(10).join(CASE_III_LINE)!r})\n"
    "demo.with_chart(lambda game: analysis.delta_chart(analysis.game_frame(game, start=True),\n"
    '                                                  title="Case III: δ and Δ"))',
]


def run_all(browser, url: str, screen: str):
    page = open_notebook(browser, url, screen)
    page.evaluate("""async () => {
        await window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs');
        await window.jupyterapp.commands.execute('notebook:run-all-cells');
    }""")
    page.locator(".amb-demo").wait_for(timeout=180_000)  # a loaded machine: the kernel starts and imports first
    return page


def press_next(page, board, times: int) -> None:
    for _ in range(times):
        version = board.get_attribute("data-version")
        board.locator('[data-action="next"]').click()
        page.wait_for_function("([b, v]) => b.dataset.version !== v", arg=[board.element_handle(), version])
        page.wait_for_function("b => !b.classList.contains('amb-animating')", arg=board.element_handle())
    page.locator(".amb-demo-chart svg").wait_for(timeout=60_000)


def set_theme(page, theme: str) -> None:
    page.evaluate(f"() => window.jupyterapp.commands.execute('apputils:change-theme', {{theme: 'JupyterLab {theme}'}})")
    page.wait_for_selector(f"body[data-jp-theme-light='{str(theme == 'Light').lower()}']", state="attached")
    page.wait_for_timeout(500)


def shoot(browser, url: str, docs: Path, look: Path | None) -> None:
    for screen in PROJECTOR_SCREENS if look else ["1280x720"]:
        page = run_all(browser, url, screen)
        board = page.locator(".amoeboid-board").first
        demo = page.locator(".amb-demo")
        press_next(page, demo.locator(".amoeboid-board"), NEXTS)
        for theme in ("Light", "Dark") if look else ("Light",):
            set_theme(page, theme)
            page.mouse.move(0, 0)  # no button looks hovered
            if screen == "1280x720":
                if look:  # the board as a student meets it: scrolled to the top of the notebook
                    board.evaluate("el => el.scrollIntoView({block: 'start'})")
                    page.screenshot(path=str(look / f"board-{screen}-{theme.lower()}.png"))
                page.set_viewport_size({"width": 1280, "height": 1100})  # the whole board in one picture
                board.scroll_into_view_if_needed()
                board.screenshot(path=str((look or docs) / f"board-{theme.lower()}.png"))
                page.set_viewport_size(PROJECTOR_SCREENS[screen][0])
                output = page.locator(".jp-Cell-outputWrapper", has=demo)
                output.evaluate("el => el.scrollIntoView({block: 'start'})")
                page.wait_for_timeout(200)
                output.screenshot(path=str((look or docs) / f"course-board-and-chart-{theme.lower()}.png"))
            if look:
                demo.evaluate("el => el.scrollIntoView({block: 'start'})")
                page.wait_for_timeout(200)
                page.screenshot(path=str(look / f"demo-{screen.replace('% ', '-')}-{theme.lower()}.png"))
        page.close()
    light = look or docs
    for name in ("board", "course-board-and-chart"):
        (docs / f"{name}.png").write_bytes((light / f"{name}-light.png").read_bytes())
        if not look:
            (light / f"{name}-light.png").unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--look", type=Path, help="also save both themes and the 150%% zoom here")
    parser.add_argument("--docs", type=Path, default=ROOT / "docs", help="where the README's pictures go")
    args = parser.parse_args()
    if args.look:
        args.look.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        notebook = nbformat.v4.new_notebook()
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                           "language": "python"}  # fmt: skip
        notebook.cells = [nbformat.v4.new_code_cell(code) for code in CELLS]
        nbformat.write(notebook, root / "shots.ipynb")
        token = "amoeboid-screenshots"
        settings = {"@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"}}
        with jupyterlab(root, token, settings) as base, chromium() as browser:
            shoot(browser, f"{base}/lab/tree/shots.ipynb?reset&token={token}", args.docs, args.look)
    print("wrote", args.docs / "board.png", "and", args.docs / "course-board-and-chart.png")


if __name__ == "__main__":
    main()
