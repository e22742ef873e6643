import subprocess
import sys
from pathlib import Path

import pytest
from jupyter_harness import ALL_CELLS, QUIET_SETTINGS, SharedLab, chromium, close_pages, jupyterlab

# tests/strategies holds student-like strategy modules; the lab's workers import them by name.
sys.path.insert(0, str(Path(__file__).parent / "strategies"))

ROOT = Path(__file__).resolve().parent.parent

HEAVY_FIRST = ("tests/package/test_binder.py", "tests/theory/test_paper.py", "tests/players/test_openspiel.py",
               "tests/package/test_types.py", "tests/lab/test_tournament.py", "tests/theory/test_coach.py",
               "tests/browser/", "lessons/", "tests/sandbox/", "tests/lab/")
"""Files whose tests take minutes, in the order they start: longest first, then the other files with a ``slow`` test,
then the rest.  With several workers (``-n``) the short files fill in around the long ones, and the run does not end
on one worker's long file.  ``--no-loadscope-reorder`` (pyproject's addopts) makes xdist hand out the files in this
order rather than by their number of tests.  Within a file the order is kept (a notebook's cells must run in order,
in one kernel)."""


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the markers added here
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("browser") or is_notebook(item):
            item.add_marker(pytest.mark.slow)
    has_slow = {item.path for item in items if item.get_closest_marker("slow")}

    def weight(item) -> int:
        try:
            path = item.path.resolve().relative_to(ROOT).as_posix()
        except ValueError:
            path = ""
        rank = next((rank for rank, prefix in enumerate(HEAVY_FIRST) if path.startswith(prefix)), None)
        return rank if rank is not None else len(HEAVY_FIRST) + (item.path not in has_slow)

    items.sort(key=weight)  # stable: the order inside a file is unchanged


def is_notebook(item) -> bool:
    """A lesson's cell checked by nbval (``lessons/*.ipynb``, ``lessons/solutions/*.ipynb``)."""
    where = Path(str(item.fspath)).resolve()
    return where.suffix == ".ipynb" and where.is_relative_to(ROOT / "lessons")


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory) -> Path:
    """The package's wheel, built once per session, offline (``--no-build-isolation``: hatchling comes from the venv)."""
    folder = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "-w", str(folder), str(Path(__file__).resolve().parent.parent)],
                          cwd=folder, capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = folder.glob("amoeboid_edu-*.whl")
    return wheel


@pytest.fixture(scope="session")
def session_lab(tmp_path_factory):
    """One quiet JupyterLab (every cell in the DOM) for the session's browser tests: see jupyter_harness.SharedLab."""
    root = tmp_path_factory.mktemp("jupyterlab")
    token = "amoeboid-session-lab"
    with jupyterlab(root, token, ALL_CELLS) as base:
        yield SharedLab(root, base, token, {**QUIET_SETTINGS, **ALL_CELLS})


@pytest.fixture(scope="session")
def session_browser():
    """Debian's headless Chromium, started once per session."""
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def browser(session_browser):
    """The session's Chromium for one module; the module's pages are closed when it ends."""
    yield session_browser
    close_pages(session_browser)
