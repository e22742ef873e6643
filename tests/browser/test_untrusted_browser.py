"""Lessons opened as Binder, a school hub or a copied folder first shows them: untrusted, never run.

A fresh JupyterLab (new data, config and runtime directories: no trust
database, no settings) opens lessons 1, 3 and 6 without running them.  Every
committed chart and position picture must render as an image of plausible
size (not as a wall of its text), and opening a lesson must not mark it
modified.  One server serves the whole module; each lesson opens in its own
workspace.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
from jupyter_harness import jupyterlab

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
LESSONS = ["01-start-here.ipynb", "03-advantage-1-delta.ipynb", "06-case-3-neutralisation.ipynb",
           "08-example-game.ipynb"]
SHOWN = ".jp-NotebookPanel:not(.lm-mod-hidden)"
KERNEL_INFO_APPLIED = """async () => {
    const panel = window.jupyterapp.shell.currentWidget, kernel = panel.sessionContext.session.kernel;
    await kernel.info;
    await kernel.spec;
    await new Promise(resolve => setTimeout(resolve, 0));
}"""
"""Return once the open lesson's kernel has sent its info and spec and JupyterLab has written them into the
notebook's metadata (``language_info``, ``kernelspec``: its reactions to both promises run before the timer)."""


def committed_pictures(path: Path) -> int:
    """How many charts and position pictures the committed notebook holds (widgets excepted: they say to run)."""
    count = 0
    for cell in nbformat.read(path, as_version=4).cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/html" in data:
                count += data["text/html"].count('<img class="amb-fallback"')
            elif "image/svg+xml" in data and not data.get("text/plain", "").startswith("▶ Run this cell"):
                count += 1
    return count


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("untrusted")
    for name in LESSONS:
        shutil.copy(ROOT / "lessons" / name, root / name)
    token = "amoeboid-untrusted-test"
    every_cell = {"@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"}}
    with jupyterlab(root, token, every_cell, fresh=True) as base:
        yield lambda name: f"{base}/lab/workspaces/{name[:2]}/tree/{name}?reset&token={token}"


@pytest.mark.parametrize("name", LESSONS)
def test_an_untrusted_lesson_shows_its_pictures_and_stays_unmodified(lab, browser, name):
    expected = committed_pictures(ROOT / "lessons" / name)
    assert expected >= 1, f"{name} has no committed picture: rebuild it with scripts/build_lessons.py"
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(lab(name))
    page.wait_for_function("() => window.jupyterapp && document.querySelector('.jp-NotebookPanel')", timeout=60_000)
    page.evaluate("""async () => {
        const panel = window.jupyterapp.shell.currentWidget;
        await panel.context.ready;
        await panel.sessionContext.ready;
    }""")
    untrusted = page.evaluate("""() => {
        const cells = window.jupyterapp.shell.currentWidget.model.cells;
        const code = [...Array(cells.length).keys()].map(i => cells.get(i)).filter(c => c.type === 'code');
        return code.every(c => !c.trusted);
    }""")
    assert untrusted, "the lesson opened trusted: the server is not fresh"
    page.wait_for_function(
        "([sel, n]) => [...document.querySelectorAll(sel)].filter(i => i.complete && i.naturalWidth > 0).length >= n",
        arg=[f"{SHOWN} .jp-OutputArea-output img", expected], timeout=30_000,
    )
    images = page.locator(f"{SHOWN} .jp-OutputArea-output img")
    sizes = images.evaluate_all(
        "imgs => imgs.map(i => [i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width])"
    )
    assert len(sizes) == expected
    for width, height, shown in sizes:
        assert 150 <= width <= 1400 and 100 <= height <= 1400 and shown >= 150, (width, height, shown)
    walls = page.locator(f"{SHOWN} .jp-OutputArea-output").evaluate_all(
        "outs => outs.map(o => o.innerText).filter(t => t.includes('source: exact') || t.includes('probability:'))"
    )
    assert walls == []  # no chart shown as its text and tooltips
    reprs = page.locator(f"{SHOWN} .jp-OutputArea-output").evaluate_all(
        r"outs => outs.map(o => o.innerText).filter(t => /\b(VBox|HBox|Box|Label|Dropdown|HTML)\(/.test(t))"
    )
    assert reprs == []  # a widget shows its "run this cell" placeholder, not VBox(children=(Dropdown(...
    page.evaluate(KERNEL_INFO_APPLIED)  # the kernel's info arrives after it starts: that is when a lesson used to turn dirty
    dirty = page.evaluate("() => window.jupyterapp.shell.currentWidget.model.dirty")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"untrusted-{name[:2]}.png"))
    assert not dirty, "opening the lesson marked it modified"
    page.close()
