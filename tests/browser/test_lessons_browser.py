"""The course as students and teachers use it: JupyterLab in headless Chromium, Run All, then click.

Lesson 4: play a turn on the board by clicking and see the live delta/Delta chart
appear. Lesson 6 (the classroom demo): press Next on the board and see the
chart follow.  The screenshot of lesson 6's board and chart is written to
``test-artifacts/``; the README's ``docs/course-board-and-chart.png`` is taken by
``scripts/screenshots.py`` (the demo layout in the middle of the line).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from amoeboid_edu import Game

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
LESSONS = ["04-advantage-2-size.ipynb", "06-case-3-neutralisation.ipynb"]
LINE_SHOWN = "6 a1 a1-b2 20,0\n4 c3 c3-c2 0,4\n3 b2 b2-c3 5,0\n3 c2 c2-b1 0,3\n1 b2 b2-c2 4,0\n5 b1 b1-a1 0,4"
"""The first turns of lesson 6's Case III line: pressing Next must show exactly these positions."""


@pytest.fixture(scope="module")
def lab(session_lab, browser):
    """The session's JupyterLab serving copies of the lessons, quiet (no news, no autosave), all cells in the DOM."""
    with session_lab.serving("course", browser) as root:
        for name in LESSONS:
            shutil.copy(ROOT / "lessons" / name, root / name)
        yield lambda name: session_lab.url(root, name)  # reset: only this lesson open


def run_all(browser, url: str):
    """Open a lesson, clear the stored outputs, run every cell; the page once the kernel is done."""
    page = browser.new_page(viewport={"width": 1200, "height": 1400})
    page.goto(url)
    page.wait_for_function("() => window.jupyterapp && document.querySelector('.jp-NotebookPanel')", timeout=60_000)
    has_kernel = page.evaluate("""async () => {
        const panel = window.jupyterapp.shell.currentWidget;
        await panel.context.ready;
        await panel.sessionContext.ready;
        return Boolean(panel.sessionContext.session && panel.sessionContext.session.kernel);
    }""")
    assert has_kernel, "the lesson opened without starting its kernel"
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.evaluate("""() => { window.amoeboidRunAll = 'running';
        window.jupyterapp.commands.execute('notebook:run-all-cells').then(() => window.amoeboidRunAll = 'done'); }""")
    try:
        # (lesson 6 searches for minutes on a loaded machine; checked every 100 ms, not every frame)
        page.wait_for_function("() => window.amoeboidRunAll === 'done'", timeout=600_000, polling=100)
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "run-all-timeout.png"), full_page=True)
        raise
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.first.inner_text()
    return page


def live_chart_svg(cell) -> int:
    """How many SVG charts the live chart widget in this cell's output shows."""
    return cell.locator(".widget-html svg").count()


def test_a_turn_played_on_the_board_in_lesson_4_appears_on_the_live_chart(lab, browser):
    page = run_all(browser, lab(LESSONS[0]))
    board = page.locator(".amoeboid-board").last
    cell = page.locator(".jp-CodeCell", has=board)
    cell.scroll_into_view_if_needed()
    assert live_chart_svg(cell) == 0 and "Play a turn" in cell.inner_text()
    page.wait_for_function("b => b.dataset.phase === 'source'", arg=board.element_handle(), timeout=10_000)
    board.locator('[data-cell="a1"]').click()
    page.wait_for_function("b => b.dataset.phase === 'destination'", arg=board.element_handle(), timeout=10_000)
    board.locator('[data-cell="b2"]').click()
    cell.locator(".widget-html svg").first.wait_for(timeout=15_000)
    assert "δ and Δ, your game" in cell.locator(".widget-html").inner_text()
    assert "4 a1 a1-b2" in board.locator(".amb-record").input_value()
    page.close()


def test_next_steps_the_case_III_demo_and_the_chart_follows(lab, browser):
    page = run_all(browser, lab(LESSONS[1]))
    board = page.locator(".amoeboid-board").first
    cell = page.locator(".jp-CodeCell", has=board)
    cell.scroll_into_view_if_needed()
    assert board.get_attribute("data-phase") == "queued" and live_chart_svg(cell) == 0
    line = Game.parse(f"start (14,0) . . / . . . / . . (0,5) A\n{LINE_SHOWN}")
    for expected in line.positions[1:]:
        version = board.get_attribute("data-version")
        board.locator('[data-action="next"]').click()
        page.wait_for_function("([b, v]) => b.dataset.version !== v", arg=[board.element_handle(), version])
        page.wait_for_function("([b, p]) => b.dataset.position === p", arg=[board.element_handle(), str(expected)])
    cell.locator(".widget-html svg").first.wait_for(timeout=15_000)
    assert "Case III" in cell.locator(".widget-html").inner_text()
    page.wait_for_function("b => !b.classList.contains('amb-animating')", arg=board.element_handle())  # the last
    # turn's animation ends before the picture
    ARTIFACTS.mkdir(exist_ok=True)
    cell.locator(".jp-Cell-outputWrapper").screenshot(path=str(ARTIFACTS / "course-board-and-chart.png"))
    page.close()


def test_the_readme_screenshot_is_committed():
    assert (ROOT / "docs" / "course-board-and-chart.png").stat().st_size > 10_000
